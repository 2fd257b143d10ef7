import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isInternalAddress, webhookUrlProblem } from '../domain/webhook-url.ts';

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
/** Every address of a name: the system resolver's `dns.lookup(name, { all: true })`, or a test's. */
export type Resolve = (hostname: string, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const systemResolve: Resolve = (hostname, callback) => dnsLookup(hostname, { all: true }, callback);

/**
 * A `lookup` for the HTTP client that resolves every address of the host and refuses the
 * connection if any is internal. The socket connects to the addresses checked here, so a DNS
 * answer that changes between check and connect (rebinding) cannot slip through.
 */
export function lookupGuard(resolve: Resolve = systemResolve) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    resolve(hostname, (err, addresses) => {
      if (err) return callback(err, []);
      const bad = addresses.find((a) => isInternalAddress(a.address));
      if (addresses.length === 0 || bad) {
        const found = bad ? ` (${bad.address})` : ' (no address)';
        const e = new Error(`webhook host ${hostname} resolves to a non-public address${found}: refused in prd`) as NodeJS.ErrnoException;
        e.code = 'EWEBHOOKTARGET';
        return callback(e, []);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

export const guardedLookup = lookupGuard();

/**
 * Connections to receivers are kept alive and reused: a TLS handshake (or even a TCP one) per
 * delivery would cost more than the delivery. A reused connection was checked when it opened.
 * In `prd` (`publicOnly`) every connection is made by an agent whose own `lookup` is the guard,
 * so no request, and no socket kept alive, can reach an address the guard did not pass.
 */
function agentsFor(resolve: Resolve) {
  const shared = { keepAlive: true, maxFreeSockets: 64 };
  const lookup = lookupGuard(resolve) as never;
  return {
    open: { http: new http.Agent(shared), https: new https.Agent(shared) },
    guarded: { http: new http.Agent({ ...shared, lookup }), https: new https.Agent({ ...shared, lookup }) },
  };
}
type Agents = ReturnType<typeof agentsFor>;
const systemAgents = agentsFor(systemResolve);

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
export function postWebhook(url: string, headers: Record<string, string>, body: string, opts: PostOptions, agents: Agents = systemAgents): Promise<PostResult | 'aborted'> {
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
        agent: (opts.publicOnly ? agents.guarded : agents.open)[secure ? 'https' : 'http'],
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

/** The transport over HTTP, resolving names with `resolve` (the system's; a test's own to play DNS). */
export function webhookTransport(resolve: Resolve = systemResolve): WebhookTransport {
  const agents = resolve === systemResolve ? systemAgents : agentsFor(resolve);
  return { post: (url, headers, body, opts) => postWebhook(url, headers, body, opts, agents) };
}

export const httpTransport: WebhookTransport = webhookTransport();
