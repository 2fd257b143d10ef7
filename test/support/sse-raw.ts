import { request as httpRequest, type IncomingMessage } from 'node:http';

/**
 * The graphql-sse protocol spoken by hand (PROTOCOL.md of graphql-sse), to do what its client
 * never does: reserve without connecting, use another caller's token, stop reading.
 */
export const STREAM = '/graphql/stream';
export const TOKEN = 'x-graphql-event-stream-token';

export interface Answer {
  status: number;
  text: string;
  headers: Headers;
  /** `errors[0].extensions.code` of a JSON error body. */
  code?: string;
}

/** One request to `/graphql/stream` that is not an event stream (a reservation, an operation, a stop). */
export async function streamCall(baseUrl: string, method: string, headers: Record<string, string>, body?: unknown, query = ''): Promise<Answer> {
  const res = await fetch(`${baseUrl}${STREAM}${query}`, {
    method,
    headers: { ...headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let code: string | undefined;
  try {
    code = JSON.parse(text).errors?.[0]?.extensions?.code;
  } catch {
    // not JSON (a token, or nothing)
  }
  return { status: res.status, text, headers: res.headers, code };
}

/** One parsed message of an event stream. */
export interface Message {
  event: string;
  data: any;
}

/** An event stream read with node:http, so that a test can stop reading it (`pause`) and go on later. */
export interface RawStream {
  status: number;
  response: IncomingMessage;
  /** Messages parsed so far (only while reading). */
  messages: Message[];
  /** Everything read so far, as text (an error body, for a refusal). */
  text(): string;
  /** Resolves when the server has ended the response (or it was cut), with every message read. */
  ended: Promise<Message[]>;
  close(): void;
}

/** Opens an event stream: a distinct-connection operation (`body`) or a reservation's connection (`token` header). */
export function openStream(baseUrl: string, headers: Record<string, string>, body?: unknown, query = ''): Promise<RawStream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}${STREAM}${query}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...headers, accept: 'text/event-stream', ...(body !== undefined && { 'content-type': 'application/json' }) },
    });
    req.on('error', reject);
    req.on('response', (response) => {
      const messages: Message[] = [];
      let buffer = '';
      let all = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        all += chunk;
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: ?(.*)$/m.exec(block)?.[1];
          if (event) messages.push({ event, data: data ? JSON.parse(data) : null });
          else if (block && !block.startsWith(':')) messages.push({ event: 'body', data: block });
        }
      });
      const ended = new Promise<Message[]>((done) => {
        response.on('end', () => done(messages));
        response.on('close', () => done(messages));
        response.on('error', () => done(messages));
      });
      resolve({ status: response.statusCode ?? 0, response, messages, text: () => all, ended, close: () => req.destroy() });
    });
    if (body !== undefined) req.write(JSON.stringify(body));
    req.end();
  });
}
