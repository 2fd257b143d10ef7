import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isInternalAddress, webhookUrlProblem } from '../domain/webhook-url.ts';

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for the HTTP client that resolves every address of the host and refuses the
 * connection if any is internal. The socket connects to the addresses checked here, so a DNS
 * answer that changes between check and connect (rebinding) cannot slip through.
 */
export function guardedLookup(hostname: string, options: { all?: boolean }, callback: LookupCallback) {
  dnsLookup(hostname, { all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const bad = addresses.find((a) => isInternalAddress(a.address));
    if (addresses.length === 0 || bad) {
      const e = new Error(`webhook host ${hostname} resolves to a non-public address`) as NodeJS.ErrnoException;
      e.code = 'EWEBHOOKTARGET';
      return callback(e, []);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

/**
 * Connections to receivers are kept alive and reused: a TLS handshake (or even a TCP one) per
 * delivery would cost more than the delivery. A reused connection was checked when it opened.
 */
const agents = {
  http: new http.Agent({ keepAlive: true, maxFreeSockets: 64 }),
  https: new https.Agent({ keepAlive: true, maxFreeSockets: 64 }),
};

/**
 * The webhook transport, one of zarpay's ports to the outside world: how a signed event reaches a
 * merchant's receiver. In production it is `httpTransport` (HTTP/1.1 POST, keep-alive, the prd
 * address rules applied at connect time); tests run it against a real receiver.
 */
export interface WebhookTransport {
  post(url: string, headers: Record<string, string>, body: string, opts: PostOptions): Promise<PostResult | 'aborted'>;
}

export interface PostResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface PostOptions {
  timeoutMs: number;
  /** Production rules: https only, public addresses only. */
  publicOnly: boolean;
  /** Gives up on the attempt (shutdown): the answer is then `'aborted'`, not an outcome. */
  signal?: AbortSignal;
}

/**
 * One webhook POST: success is any 2xx within the time limit. Redirects are not followed (a 3xx
 * is a failure); the response body is read and discarded.
 */
export function postWebhook(url: string, headers: Record<string, string>, body: string, opts: PostOptions): Promise<PostResult | 'aborted'> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  const problem = webhookUrlProblem(url, opts.publicOnly);
  if (problem) return Promise.resolve({ ok: false, statusCode: null, durationMs: 0, error: `webhook URL ${problem}` });
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const client = secure ? https : http;
  if (opts.signal?.aborted) return Promise.resolve('aborted');
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: Omit<PostResult, 'durationMs'> | 'aborted') => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      resolve(r === 'aborted' ? r : { ...r, durationMs: took() });
    };
    const onAbort = () => {
      finish('aborted');
      req.destroy();
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'zarpay-webhooks/1' },
        agent: secure ? agents.https : agents.http,
        ...(opts.publicOnly && { lookup: guardedLookup as never }),
      },
      (res) => {
        const code = res.statusCode ?? 0;
        res.on('data', () => {});
        res.on('error', () => {});
        res.on('end', () => {
          if (code >= 200 && code < 300) finish({ ok: true, statusCode: code, error: null });
          else if (code >= 300 && code < 400) finish({ ok: false, statusCode: code, error: `redirect (${code}) not followed` });
          else finish({ ok: false, statusCode: code, error: `HTTP ${code}` });
        });
      },
    );
    const timer = setTimeout(() => {
      finish({ ok: false, statusCode: null, error: `no answer within ${opts.timeoutMs} ms` });
      req.destroy();
    }, opts.timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) => finish({ ok: false, statusCode: null, error: (e.message || e.code || 'request failed').slice(0, 300) }));
    req.end(body);
  });
}

export const httpTransport: WebhookTransport = { post: postWebhook };
