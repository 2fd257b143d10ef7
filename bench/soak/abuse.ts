import { randomBytes } from 'node:crypto';
import { generateKey } from '../../src/domain/api-key.ts';
import type { Client } from './http.ts';
import type { Target } from './shops.ts';
import type { Stream } from './pace.ts';

/** What the abusers hold: nothing, or the key of one merchant that leaked (and one it revoked). */
export interface AbuseWorld {
  targets: Target[];
  /** One client per source address. */
  abusers: Client[];
  leakedKey: string;
  revokedKey: string;
}

/** graphql-armor's alias limit (GRAPHQL_MAX_ALIASES, 15): the widest document that is not refused outright. */
const ALIASES = 15;

/** One list, asked for once per alias, each as long as a variable says (100): a cost estimate reading literals sees no `first`. */
export const ALIASED_FIRST_N = `query Wide($n: Int) { ${Array.from(
  { length: ALIASES },
  (_, k) => `a${k}: payouts(first: $n) { totalCount edges { node { id amountCents feeCents status merchantReference createdAt } } }`,
).join(' ')} }`;

/** Introspection nested through `fields { type { fields … } }`: refused by graphql-js' introspection depth rule. */
export const DEEP_INTROSPECTION =
  '{ __schema { types { name fields { name type { name fields { name type { name fields { name type { name fields { name } } } } } } } } } }';

/** Introspection as deep as it is allowed: every field's and argument's type through four `ofType`s (what GraphiQL asks, and more). */
const OF_TYPE = 'kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } }';
export const WIDE_INTROSPECTION = `{ __schema { types { name kind description fields(includeDeprecated: true) { name description args { name type { ${OF_TYPE} } } type { ${OF_TYPE} } } inputFields { name type { ${OF_TYPE} } } enumValues { name } } } }`;

/** A well-formed key of this environment that no merchant has (checksum right, so it reaches the database). */
const unknownKey = () => generateKey('tst').fullKey;

/** A key whose checksum is wrong: refused before any lookup. */
function badChecksum() {
  const key = generateKey('tst').fullKey;
  const last = key.at(-1) === 'A' ? 'B' : 'A';
  return key.slice(0, -1) + last;
}

/**
 * Anonymous abuse at `rate` × these requests per second, from every abuser's address in turn and
 * at both instances in turn: GraphQL operation-name floods, graphql-sse reservations never used,
 * bad, unknown and revoked keys, and expensive documents. A 429 is an expected outcome for all
 * of it; the checks look only for 5xx, dropped connections and the instances' memory.
 */
export function abuseStreams(world: AbuseWorld, rate: number): Stream[] {
  let turn = 0;
  const send = (kind: string, call: { method?: string; path: string; headers?: Record<string, string>; body?: string }) => {
    const k = turn++;
    const client = world.abusers[k % world.abusers.length]!;
    const target = world.targets[Math.floor(k / world.abusers.length) % world.targets.length]!;
    return client.send(target, 'abuse', kind, call);
  };
  const gql = (kind: string, query: string, headers: Record<string, string> = {}, variables: Record<string, unknown> = {}) =>
    send(kind, { path: '/graphql', headers, body: JSON.stringify({ query, variables }) });
  const withKey = (key: string) => ({ 'x-api-key': key });
  // Half on REST, half on GraphQL: both authenticate the same way.
  const badKey = (kind: string, key: () => string) => (n: number) =>
    n % 2 === 0 ? send(kind, { path: '/api/v1/payouts/balance', headers: withKey(key()) }) : gql(kind, '{ balance { balanceCents } }', withKey(key()));

  const streams: Stream[] = [
    {
      name: 'abuse.opname-flood',
      perSecond: 40,
      run: () => gql('abuse.opname-flood', `query Q${randomBytes(8).toString('hex')} { __typename }`),
    },
    { name: 'abuse.stream-reserve', perSecond: 8, run: () => send('abuse.stream-reserve', { method: 'PUT', path: '/graphql/stream' }) },
    {
      name: 'abuse.stream-reserve.leaked-key',
      perSecond: 2,
      run: () => send('abuse.stream-reserve.leaked-key', { method: 'PUT', path: '/graphql/stream', headers: withKey(world.leakedKey) }),
    },
    { name: 'abuse.key.malformed', perSecond: 2, run: badKey('abuse.key.malformed', () => `sk_live_${randomBytes(12).toString('hex')}`) },
    { name: 'abuse.key.checksum', perSecond: 2, run: badKey('abuse.key.checksum', badChecksum) },
    { name: 'abuse.key.unknown', perSecond: 4, run: badKey('abuse.key.unknown', unknownKey) },
    { name: 'abuse.key.revoked', perSecond: 1, run: badKey('abuse.key.revoked', () => world.revokedKey) },
    { name: 'abuse.introspection.deep', perSecond: 0.5, run: () => gql('abuse.introspection.deep', DEEP_INTROSPECTION) },
    { name: 'abuse.introspection.wide', perSecond: 0.5, run: () => gql('abuse.introspection.wide', WIDE_INTROSPECTION) },
    { name: 'abuse.first-n.anonymous', perSecond: 1, run: () => gql('abuse.first-n.anonymous', ALIASED_FIRST_N, {}, { n: 100 }) },
    { name: 'abuse.first-n.leaked-key', perSecond: 1, run: () => gql('abuse.first-n.leaked-key', ALIASED_FIRST_N, withKey(world.leakedKey), { n: 100 }) },
  ];
  return streams.map((s) => ({ ...s, perSecond: s.perSecond * rate }));
}
