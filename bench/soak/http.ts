import { Agent, request } from 'node:http';

/** Who sent a request: the checks treat the merchants' traffic and the abuse differently. */
export type Side = 'merchant' | 'operator' | 'customer' | 'abuse';

/** One request as the soak saw it. */
export interface Outcome {
  /** When it was sent (ms since the epoch). */
  at: number;
  /** Until its answer, or its failure. */
  ms: number;
  instance: string;
  side: Side;
  /** What was asked (`rest.payout.create`, `abuse.opname-flood`…). */
  kind: string;
  /** The HTTP status; 0 when no answer came (refused, reset, timed out). */
  status: number;
  /** The contract code of an error answer, `ok` for a success, or why no answer came (`ECONNREFUSED`, `timeout`). */
  code: string;
}

export interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed body, when it is JSON. */
  json?: any;
}

export interface Call {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** A request that got no HTTP answer; its outcome is recorded all the same. */
export class NoAnswer extends Error {
  constructor(readonly code: string) {
    super(`no answer: ${code}`);
  }
}

/** No request may hang the soak: one that has had no answer after this long is a failure. */
const TIMEOUT_MS = 30_000;

/**
 * Sends requests from one source address (127.0.0.x: every address of 127/8 is this machine, so
 * the service sees several callers) over kept-alive connections, and records every outcome.
 */
export class Client {
  private readonly agent: Agent;

  constructor(
    readonly address: string,
    private readonly record: (o: Outcome) => void,
  ) {
    // Free sockets close well before the service's keep-alive timeout (72 s), so a request is
    // never written onto a connection the server is closing.
    this.agent = new Agent({ keepAlive: true, maxSockets: 64, timeout: 20_000 });
  }

  /** Sends `call` to `instance` (its base URL) and records the outcome under `side` and `kind`. */
  send(instance: { name: string; url: string }, side: Side, kind: string, call: Call): Promise<Answer> {
    const at = Date.now();
    const started = performance.now();
    const done = (status: number, code: string) =>
      this.record({ at, ms: performance.now() - started, instance: instance.name, side, kind, status, code });
    return new Promise<Answer>((resolve, reject) => {
      const url = new URL(call.path, instance.url);
      const req = request(url, {
        method: call.method ?? (call.body === undefined ? 'GET' : 'POST'),
        headers: { ...(call.body !== undefined && { 'content-type': 'application/json' }), ...call.headers },
        agent: this.agent,
        localAddress: this.address,
      });
      req.setTimeout(TIMEOUT_MS, () => req.destroy(new NoAnswer('timeout')));
      req.on('error', (e: NodeJS.ErrnoException) => {
        const code = e instanceof NoAnswer ? e.code : (e.code ?? e.message);
        done(0, code);
        reject(new NoAnswer(code));
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', () => {});
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          const answer: Answer = { status: res.statusCode ?? 0, body, headers: res.headers };
          if (/json/.test(String(res.headers['content-type']))) {
            try {
              answer.json = JSON.parse(body);
            } catch {
              // not JSON after all: the outcome says so through its code
            }
          }
          done(answer.status, codeOf(answer));
          resolve(answer);
        });
      });
      req.end(call.body);
    });
  }

  close() {
    this.agent.destroy();
  }
}

/** The contract code an answer carries: REST's envelope or GraphQL's first error; `ok` when none. */
export function codeOf(answer: Answer): string {
  const j = answer.json;
  const code = j?.error?.code ?? j?.errors?.[0]?.extensions?.code;
  if (typeof code === 'string') return code;
  if (answer.status < 400) return 'ok';
  // The hosted page answers its errors as a page, in the customer's language.
  if (String(answer.headers['content-type']).startsWith('text/html')) return 'error page';
  return j === undefined ? 'non-JSON error' : 'no code';
}
