import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Loopback, private, link-local, shared, multicast and reserved ranges: never a webhook target in `prd`. */
const internal = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) internal.addSubnet(net, bits, 'ipv4');
// `::/96` holds the unspecified address, loopback and the deprecated IPv4-compatible addresses
// (`::127.0.0.1`), which no public host uses; `::ffff:0:0:0/96` (SIIT) and `64:ff9b::/96` (NAT64)
// are translators' prefixes, reached only through a gateway inside someone's network.
for (const [net, bits] of [
  ['::', 96], ['::ffff:0:0:0', 96], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32], ['64:ff9b::', 96], ['100::', 64],
] as const) internal.addSubnet(net, bits, 'ipv6');

/**
 * The IPv4 address an IPv6 address stands for, when it carries one to a host that may be
 * anywhere: IPv4-mapped (`::ffff:a.b.c.d`, how a dual-stack socket writes an IPv4 peer) and
 * 6to4 (`2002:AABB:CCDD::/48`, tunnelled to `A.B.C.D`). Such an address is judged as that IPv4.
 */
function embeddedIPv4(address: string): string | undefined {
  const v6 = ipaddr.IPv6.parse(address);
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  if (v6.range() === '6to4') return v6.toByteArray().slice(2, 6).join('.');
  return undefined;
}

/** True for an address a production webhook may not reach (an address it cannot read included). */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return internal.check(address, 'ipv4');
  if (family !== 6) return true;
  try {
    const v4 = embeddedIPv4(address);
    return v4 === undefined ? internal.check(address, 'ipv6') : internal.check(v4, 'ipv4');
  } catch {
    return true;
  }
}

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

/** Why a URL may not be used as a webhook target under these rules, or null when it may. */
export function webhookUrlProblem(raw: string, publicOnly: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a valid URL';
  }
  if (url.protocol !== 'https:' && (publicOnly || url.protocol !== 'http:')) return publicOnly ? 'must use https' : 'must use http or https';
  if (url.username || url.password) return 'must not carry credentials';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (publicOnly && (isIP(host) ? isInternalAddress(host) : host === 'localhost' || host.endsWith('.localhost'))) {
    return 'must not point at a loopback, private or link-local address';
  }
  return null;
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
