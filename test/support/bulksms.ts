import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One message the double accepted, as BulkSMS would list it. */
export interface ReceivedSms {
  id: string;
  to: string;
  body: string;
  userSuppliedId: string | undefined;
  /** The credentials it came with (`token-id:token-secret`). */
  auth: string;
}

type Refusal = 400 | 401 | 403 | 404 | 429 | 500 | 502 | 503;

/**
 * A stand-in for BulkSMS's JSON REST API v1 (https://developer.bulksms.com/json/v1/), "Send
 * Messages": `POST /v1/messages` with HTTP Basic authentication and a JSON body (one
 * `SubmissionEntry` or an array of them; `to` a string or an array), answered `201 Created` with
 * an array of `Message` objects whose `status` is `{ id: 'ACCEPTED.null', type: 'ACCEPTED' }`.
 * Errors are BulkSMS's `{ type, title, status, detail }`: 400 for a submission it cannot take
 * (no body, a `to` that is not a number), 401 for credentials it does not know, and whatever
 * `refuse(n, status)` asks for next (403 insufficient credits, 429, 5xx). A number listed in
 * `blocked` is accepted with a `FAILED.BLOCKED` status, as BulkSMS reports a number that
 * replied STOP. `down()` closes every connection as it arrives (a gateway that cannot be reached).
 */
export async function startBulkSmsDouble(credentials = 'zarpay-token:s3cret-token-value') {
  const received: ReceivedSms[] = [];
  const requests: { status: number; auth: string | undefined }[] = [];
  const refusals: { status: Refusal; to?: string }[] = [];
  const blocked = new Set<string>();
  let unreachable = false;

  const problem = (res: ServerResponse, status: number, title: string, detail?: string, headers: Record<string, string> = {}) => {
    const slug = title.toLowerCase().replaceAll(' ', '-');
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ type: `https://developer.bulksms.com/json/v1/errors#${slug}`, title, status, ...(detail && { detail }) }));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const header = req.headers.authorization ?? '';
    const auth = header.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString() : '';
    const answer = (status: number) => requests.push({ status, auth: auth || undefined });
    if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://x').pathname !== '/v1/messages') {
      answer(404);
      return problem(res, 404, 'Not Found', `no such resource: ${req.method} ${req.url}`);
    }
    // A refusal for one number waits for a submission to it (other tests' retries pass by).
    let firstTo: unknown;
    try {
      const parsed = JSON.parse(Buffer.concat(chunks).toString()) as { to?: unknown } | { to?: unknown }[];
      firstTo = (Array.isArray(parsed) ? parsed[0] : parsed)?.to;
    } catch {
      firstTo = undefined;
    }
    const at = refusals.findIndex((r) => r.to === undefined || r.to === firstTo);
    const refusal = at >= 0 ? refusals.splice(at, 1)[0]!.status : undefined;
    if (refusal) {
      answer(refusal);
      const titles: Record<Refusal, string> = {
        400: 'Bad Request',
        401: 'Authentication Failed',
        403: 'Insufficient Credits',
        404: 'Not Found',
        429: 'Too Many Requests',
        500: 'Internal Server Error',
        502: 'Bad Gateway',
        503: 'Service Unavailable',
      };
      return problem(res, refusal, titles[refusal], undefined, refusal === 429 ? { 'retry-after': '1' } : {});
    }
    if (auth !== credentials) {
      answer(401);
      return problem(res, 401, 'Authentication Failed', 'the username or password is not valid', { 'www-authenticate': 'Basic realm="BulkSMS"' });
    }
    if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) {
      answer(415);
      return problem(res, 415, 'Unsupported Media Type', 'Content-Type must be application/json');
    }
    let entries: { to?: unknown; body?: unknown; userSuppliedId?: unknown }[];
    try {
      const parsed = JSON.parse(Buffer.concat(chunks).toString()) as unknown;
      entries = (Array.isArray(parsed) ? parsed : [parsed]) as typeof entries;
    } catch {
      answer(400);
      return problem(res, 400, 'Bad Request', 'the request body is not valid JSON');
    }
    const messages = [];
    for (const entry of entries) {
      const tos = Array.isArray(entry.to) ? entry.to : [entry.to];
      if (typeof entry.body !== 'string' || entry.body === '') {
        answer(400);
        return problem(res, 400, 'Bad Request', 'body: must not be empty');
      }
      if (entry.userSuppliedId !== undefined && (typeof entry.userSuppliedId !== 'string' || entry.userSuppliedId.length > 20)) {
        answer(400);
        return problem(res, 400, 'Bad Request', 'userSuppliedId: at most 20 characters');
      }
      for (const to of tos) {
        if (typeof to !== 'string' || !/^\+?[1-9]\d{6,14}$/.test(to)) {
          answer(400);
          return problem(res, 400, 'Bad Request', `to: ${JSON.stringify(to)} is not a valid phone number`);
        }
        const id = randomUUID().replaceAll('-', '').slice(0, 10);
        const failed = blocked.has(to);
        if (!failed) received.push({ id, to, body: entry.body, userSuppliedId: entry.userSuppliedId as string | undefined, auth });
        messages.push({
          id,
          type: 'SENT',
          from: '',
          to,
          body: entry.body,
          encoding: 'TEXT',
          protocolId: 0,
          messageClass: 2,
          submission: { id: `2-${id}`, date: new Date().toISOString() },
          status: failed ? { id: 'FAILED.BLOCKED', type: 'FAILED', subtype: 'BLOCKED' } : { id: 'ACCEPTED.null', type: 'ACCEPTED' },
          ...(entry.userSuppliedId !== undefined && { userSuppliedId: entry.userSuppliedId }),
        });
      }
    }
    answer(201);
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(JSON.stringify(messages));
  };

  const server = createServer((req, res) => {
    if (unreachable) return req.socket.destroy();
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/messages`,
    apiKey: credentials,
    received,
    /** Every answered request's status, in order. */
    requests,
    /** The next `n` submissions (to `to` only, when given) are answered with `status` in BulkSMS's error shape. */
    refuse(n: number, status: Refusal, to?: string) {
      for (let i = 0; i < n; i++) refusals.push({ status, ...(to !== undefined && { to }) });
    },
    block(number: string) {
      blocked.add(number);
    },
    down(on = true) {
      unreachable = on;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
