import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may be sent: the production rules (https, public addresses only) as pure checks.
 * The transport (src/outside/webhook-http.ts) applies them again at connect time.
 */

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

/**
 * Names that only ever mean a private network: `localhost` and the special-use and private-use
 * domains (RFC 6761, RFC 6762's `.local`, RFC 8375's `home.arpa`, ICANN's `internal`).
 */
const PRIVATE_NAMES = ['localhost', 'localdomain', 'local', 'internal', 'home.arpa'];

/**
 * Public wildcard-DNS services that answer any name under them with the address written in it
 * (`127.0.0.1.nip.io`, `10-0-0-1.sslip.io`) or with loopback (`anything.localtest.me`). Delivery
 * refuses them anyway once their answer is seen (src/outside/webhook-http.ts); naming them here
 * refuses them when the URL is set, where the merchant reads why, rather than in a delivery log.
 */
const WILDCARD_DNS = [
  'nip.io', 'sslip.io', 'xip.io', 'xip.name', 'traefik.me', 'local.gd', 'localtest.me', 'lvh.me', 'vcap.me', 'fuf.me',
  'lacolhost.com', 'localhost.direct',
];

const INTERNAL = 'must not point at a loopback, private or link-local address';

/** The entry of `names` that `host` is or lies under, if any. */
const under = (host: string, names: readonly string[]) => names.find((n) => host === n || host.endsWith(`.${n}`));

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
  if (!publicOnly) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isInternalAddress(host) ? INTERNAL : null;
  // `localhost.` is `localhost` to a resolver, and each name below has such a twin: a receiver
  // never needs the fully qualified spelling, so none passes.
  if (host.endsWith('.')) return 'must not end its host name with a dot (write hooks.example.com, not hooks.example.com.)';
  if (under(host, PRIVATE_NAMES)) return INTERNAL;
  const wildcard = under(host, WILDCARD_DNS);
  if (wildcard) return `must not use ${wildcard}, a wildcard DNS service whose names point at any address, private ones included`;
  return null;
}

