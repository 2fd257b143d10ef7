import { request } from 'node:http';
import fc from 'fast-check';
import { ERROR_STATUS } from '../../src/domain/errors.ts';
import type { TestApp } from './app.ts';

/**
 * Property-based "bad input never breaks anything" checks (CONTRACT §2), reusable for every
 * endpoint: describe the endpoint with one valid request, get hundreds of broken ones.
 *
 *   await fuzzRest(t, { method: 'POST', path: '/api/v1/payments', body: validPayment }, () => key);
 *   await fuzzGraphQL(t, { query: 'mutation($i: X!) { initiatePayment(input: $i) { payment { id } } }', variables: { i: valid } }, { key });
 *
 * Runs per property: FUZZ_RUNS (default 200). Every answer must be < 500 and either success or
 * the error envelope (REST) / GraphQL errors with a CONTRACT code; the caller checks state.
 */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS || 200);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

export interface RawResponse {
  status: number;
  text: string;
  json: any;
}

/** Raw HTTP (node:http, not fetch): any method with any body, any header bytes we choose. */
export function send(t: Pick<TestApp, 'url'>, method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(t.url + path, { method, headers: { ...headers, ...(body !== undefined && { 'content-length': String(Buffer.byteLength(body)) }) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, text, json });
      });
    });
    // The server may answer 413 and close before reading a large body.
    req.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' || e.code === 'ECONNRESET' ? resolve({ status: 413, text: '', json: { status: 'error', error: { code: 'INVALID_INPUT' }, metadata: { api_version: 'v1' } } }) : reject(e)));
    req.end(body);
  });
}

// ---- arbitraries ------------------------------------------------------------------------------

const nastyStrings = fc.constantFrom(
  '', ' ', '\u0000', 'a\u0000b', '\ud800', '\udfff\ud800', '\u202e', '\ufeff', 'null', 'undefined', 'NaN', '0', '-1', '1e309',
  '%00', '%zz', '../../etc/passwd', "'; drop table payouts; --", '<script>alert(1)</script>', '${7*7}', '{{7*7}}',
  'ZAR', 'zar', 'ZAR ', 'eft', 'EFT', '250655', '２５０６５５', '٢٥٠٦٥٥', 'Ñoño', '🏦💸', 'e\u0301', '\n\r\t', '\\', '"',
);
export const anyString = fc.oneof(
  { weight: 3, arbitrary: fc.string() },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: nastyStrings },
  { weight: 1, arbitrary: fc.integer({ min: 90, max: 2000 }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 300 }).map((n) => '🏦'.repeat(n)) },
);
export const anyScalar = fc.oneof(
  anyString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(0, -0, -1, 1.5, 2 ** 31, 2 ** 53, 2 ** 53 + 2, 1e308, -1e308, Number.MIN_VALUE),
);
export const anyValue: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    anyScalar,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 12 }), nastyStrings), tie('v'), { maxKeys: 4 }),
  ),
})).v;

/** Percent-encodes any string, lone surrogates included (encodeURIComponent throws on those). */
export const percentEncode = (s: string) =>
  Array.from(Buffer.from(s, 'utf8'), (b) => (/[A-Za-z0-9._~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

type Path = (string | number)[];
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const p = [...prefix, Array.isArray(value) ? Number(k) : k];
    return [p, ...pathsOf(v, p)];
  });
}
function edit(value: unknown, path: Path, change: (parent: any, key: string | number) => void): unknown {
  const copy = structuredClone(value);
  let parent: any = copy;
  for (const k of path.slice(0, -1)) parent = parent[k];
  change(parent, path[path.length - 1]!);
  return copy;
}

/** Variants of a valid JSON object: a field replaced, dropped or added, or the whole replaced. */
export function mutationsOf(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const paths = pathsOf(valid);
  const some: fc.Arbitrary<unknown>[] = [
    fc.tuple(fc.string({ maxLength: 20 }), anyValue).map(([k, v]) => ({ ...valid, [k]: v })),
    fc.constant([valid]),
    anyValue,
  ];
  if (paths.length > 0) {
    some.push(
      fc.tuple(fc.constantFrom(...paths), anyValue).map(([p, v]) => edit(valid, p, (o, k) => (o[k] = v))),
      fc.tuple(fc.constantFrom(...paths), anyValue).map(([p, v]) => edit(valid, p, (o, k) => (o[k] = [v, o[k]]))),
      fc.constantFrom(...paths).map((p) => edit(valid, p, (o, k) => delete o[k])),
    );
  }
  return fc.oneof(...some);
}

/** Text that is not the JSON of an object: garbage, truncated, deeply nested, oversize. */
export const brokenJsonText = fc.oneof(
  fc.string(),
  fc.constantFrom('{', '}', '{"a":', '[', 'nul', 'true', '"text"', '1', '{"a":1,}', "{'a':1}", '{"a":NaN}', '\ufeff{}', '{}{}', '{"__proto__":{"x":1}}'),
  fc.integer({ min: 100, max: 20_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.integer({ min: 100, max: 10_000 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)),
  fc.integer({ min: 65 * 1024, max: 80 * 1024 }).map((n) => JSON.stringify({ pad: 'x'.repeat(n) })),
);

/** A body: mostly JSON of a variant of `valid`, sometimes broken text. */
export const bodyText = (valid: Record<string, unknown>) =>
  fc.oneof({ weight: 4, arbitrary: mutationsOf(valid).map((v) => JSON.stringify(v) ?? 'null') }, { weight: 1, arbitrary: brokenJsonText });

const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 });
export const contentType = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8') },
  {
    weight: 2,
    arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', 'application/json; charset=latin1', 'application/graphql', '*/*', ''),
  },
  { weight: 1, arbitrary: headerText },
);
/** Extra headers a client might send, well-formed or not. */
export const extraHeaders = fc.record(
  { 'idempotency-key': headerText, 'x-request-id': headerText, accept: fc.oneof(headerText, fc.constant('application/xml')), 'x-forwarded-proto': headerText, 'content-encoding': fc.constantFrom('gzip', 'br', 'identity', 'x') },
  { requiredKeys: [] },
);
export const queryString = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom('limit', 'offset', 'status', 'merchant_id', 'limit[]', '__proto__'), fc.string({ maxLength: 10 })), fc.oneof(anyString, fc.integer().map(String))), { maxLength: 4 })
  .map((pairs) => (pairs.length ? '?' + pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&') : ''));
export const pathId = fc.oneof(
  fc.uuid(),
  anyString.map((s) => percentEncode(s) || '%20'),
  fc.constantFrom('%', '%zz', '..', '%2e%2e', '%00', 'balance%00', '00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF', '1', '-1', 'null'),
);

// ---- checks -----------------------------------------------------------------------------------

const CODES = new Set(Object.keys(ERROR_STATUS));

/** A REST answer: < 500, and an error is the envelope with a CONTRACT code and its status. */
export function checkEnvelope(res: RawResponse, what: string): void {
  const fail = (why: string) => {
    throw new Error(`${what}: ${why}; got ${res.status} ${res.text.slice(0, 300)}`);
  };
  if (res.status >= 500) fail('a 5xx');
  if (res.status < 400) return;
  const b = res.json;
  if (b?.status !== 'error' || typeof b.error?.message !== 'string' || b.metadata?.api_version !== 'v1') fail('not the error envelope');
  const code = b.error.code as keyof typeof ERROR_STATUS;
  if (!CODES.has(code)) fail(`unknown code ${code}`);
  if (ERROR_STATUS[code] !== res.status && !(res.status === 413 && code === 'INVALID_INPUT')) fail(`${code} with HTTP ${res.status}`);
}

/** A GraphQL answer: < 500; errors (or a transport-level envelope) carry CONTRACT codes. */
export function checkGraphQL(res: RawResponse, what: string): void {
  if (res.json?.status === 'error') return checkEnvelope(res, what);
  if (res.status >= 500) throw new Error(`${what}: a 5xx; got ${res.status} ${res.text.slice(0, 300)}`);
  const errors = res.json?.errors;
  if (res.json == null || typeof res.json !== 'object' || (errors === undefined && res.json.data == null)) throw new Error(`${what}: no GraphQL result; got ${res.status} ${res.text.slice(0, 300)}`);
  for (const e of errors ?? []) {
    if (!CODES.has(e?.extensions?.code)) throw new Error(`${what}: error without a CONTRACT code: ${JSON.stringify(e).slice(0, 300)}`);
  }
}

export interface FuzzStats {
  runs: number;
  /** Answers by status code. */
  statuses: Record<number, number>;
  /** The 2xx answers: valid inputs the generator happened to produce. */
  accepted: RawResponse[];
}

const newStats = (): FuzzStats => ({ runs: 0, statuses: {}, accepted: [] });
const tally = (s: FuzzStats, res: RawResponse) => {
  s.runs++;
  s.statuses[res.status] = (s.statuses[res.status] ?? 0) + 1;
  if (res.status < 300) s.accepted.push(res);
};

export interface RestEndpoint {
  method: 'GET' | 'POST';
  /** `:id` is replaced by generated ids. */
  path: string;
  /** A valid body, for endpoints that take one; its variants are sent. */
  body?: Record<string, unknown>;
}

/** Fuzzes one REST endpoint with generated bodies, query strings, headers and path ids. */
export async function fuzzRest(t: TestApp, endpoint: RestEndpoint, key: () => string, onAccepted?: (res: RawResponse) => void, runs = FUZZ_RUNS): Promise<FuzzStats> {
  const stats = newStats();
  const arb = fc.record({
    id: pathId,
    query: queryString,
    type: fc.option(contentType, { nil: undefined }),
    headers: extraHeaders,
    body: fc.option(bodyText(endpoint.body ?? {}), { nil: undefined, freq: endpoint.body ? 8 : 2 }),
    keyVariant: fc.constantFrom('same', 'same', 'same', 'same', 'same', 'same', 'padded', 'lower', 'truncated', 'double'),
  });
  await fc.assert(
    fc.asyncProperty(arb, async (r) => {
      const k = key();
      const variants = { same: k, padded: ` ${k}`, lower: k.toLowerCase(), truncated: k.slice(0, -1), double: `${k},${k}` };
      const headers: Record<string, string> = { ...r.headers, 'x-api-key': variants[r.keyVariant as keyof typeof variants] };
      if (r.type !== undefined) headers['content-type'] = r.type;
      const path = endpoint.path.replace(':id', r.id) + r.query;
      const res = await send(t, endpoint.method, path, headers, r.body);
      checkEnvelope(res, `${endpoint.method} ${path}`);
      tally(stats, res);
      if (res.status < 300) onAccepted?.(res);
    }),
    { numRuns: runs, ...(SEED !== undefined && { seed: SEED }) },
  );
  return stats;
}

export interface GraphQLTarget {
  query: string;
  variables: Record<string, unknown>;
}

const brokenDocuments = fc.oneof(
  fc.string(),
  fc.constantFrom('', '{', 'mutation', 'query { __typename', '{ viewer { id } } { viewer { id } }', 'subscription { x }', 'mutation { createPayout }'),
  fc.integer({ min: 11, max: 5000 }).map((n) => '{ a '.repeat(n) + '}'.repeat(n)),
  fc.integer({ min: 3, max: 40 }).map((n) => `{ ${'payouts { edges { node { merchant { viewer: id } '.repeat(1)}${'}'.repeat(5)} ${'payout(id: "x") { merchant { balance { balanceCents } } } '.repeat(n)}}`),
  fc.integer({ min: 50, max: 3000 }).map((n) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(' ')} }`),
  fc.integer({ min: 65 * 1024, max: 70 * 1024 }).map((n) => `{ __typename } # ${'x'.repeat(n)}`),
);

/** Fuzzes one GraphQL operation: broken variables, documents, bodies and content types. */
export async function fuzzGraphQL(t: TestApp, target: GraphQLTarget, auth: { key?: () => string; operator?: boolean }, onAccepted?: (res: RawResponse) => void, runs = FUZZ_RUNS): Promise<FuzzStats> {
  const stats = newStats();
  const body = fc.oneof(
    { weight: 6, arbitrary: mutationsOf(target.variables).map((variables) => JSON.stringify({ query: target.query, variables })) },
    { weight: 1, arbitrary: brokenDocuments.map((query) => JSON.stringify({ query, variables: target.variables })) },
    { weight: 1, arbitrary: mutationsOf({ query: target.query, variables: target.variables, operationName: null }).map((b) => JSON.stringify(b) ?? 'null') },
    { weight: 1, arbitrary: brokenJsonText },
  );
  const arb = fc.record({ body, type: fc.option(contentType, { nil: undefined, freq: 8 }), headers: extraHeaders });
  await fc.assert(
    fc.asyncProperty(arb, async (r) => {
      const headers: Record<string, string> = { ...r.headers };
      if (auth.key) headers['x-api-key'] = auth.key();
      if (auth.operator) headers.authorization = `Bearer ${t.config.operatorToken}`;
      if (r.type !== undefined) headers['content-type'] = r.type;
      const res = await send(t, 'POST', '/graphql', headers, r.body);
      checkGraphQL(res, target.query.slice(0, 60));
      tally(stats, res);
      if (res.status < 300 && res.json?.data && !res.json.errors) onAccepted?.(res);
    }),
    { numRuns: runs, ...(SEED !== undefined && { seed: SEED }) },
  );
  return stats;
}
