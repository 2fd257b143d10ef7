import { createHmac, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checksum, generateKey, hashSecret, parseKey } from '../src/domain/api-key.ts';
import { KeyCache } from '../src/services/key-cache.ts';
import type { Notifications } from '../src/services/notifications.ts';
import { ofRequests, startApp, type TestApp } from './support/app.ts';
import { createMerchant, gql, http, op, type TestMerchant } from './support/client.ts';
import { eventually } from './support/receiver.ts';

let t: TestApp;
let shop: TestMerchant;

beforeAll(async () => {
  t = await startApp();
  shop = await createMerchant(t);
});
afterAll(() => t?.close());

const balanceWith = (key?: string, headers?: Record<string, string>) =>
  http(t, 'GET', '/api/v1/payouts/balance', { ...(key !== undefined && { key }), ...(headers && { headers }) });

/** A key of valid format and checksum with the given parts. */
function forge(env: string, kid: string, secret: string) {
  const prefix = `sec1-${env}-${kid}-${secret}-`;
  return prefix + checksum(prefix);
}

describe('key format (CONTRACT §3)', () => {
  it('generates sec1-{env}-{kid}-{secret}-{checksum} with a CRC32 checksum', () => {
    const key = generateKey('tst');
    expect(key.fullKey).toMatch(/^sec1-tst-[a-z2-7]{12}-[0-9A-Za-z]{43}-[0-9A-Za-z]{6}$/);
    expect(parseKey(key.fullKey)).toMatchObject({ env: 'tst', kid: key.kid, secret: key.secret });
    const tampered = key.fullKey.slice(0, -1) + (key.fullKey.endsWith('A') ? 'B' : 'A');
    expect(parseKey(tampered)).toBeNull();
  });

  it('masks keys as prefix…checksum', async () => {
    const res = await gql(t, '{ viewer { apiKeys { displayMask kid env type status } } }', {}, { key: shop.key });
    const [record] = res.body.data.viewer.apiKeys;
    expect(record.displayMask).toBe(`sec1-tst-${shop.kid}…${shop.key.slice(-6)}`);
    expect(record).toMatchObject({ env: 'tst', type: 'secret', status: 'ACTIVE' });
  });
});

describe('authentication outcomes', () => {
  it('accepts the merchant\'s active key', async () => {
    const res = await balanceWith(shop.key);
    expect(res.status).toBe(200);
    expect(res.body.data.merchant_id).toBe(shop.id);
  });

  const secret = 'A'.repeat(43);
  it.each([
    ['a missing header', undefined],
    ['an empty header', ''],
    ['garbage', 'hello'],
    ['a wrong checksum', () => shop.key.slice(0, -6) + '000000'],
    ['whitespace inside the key', () => shop.key.replace('-', ' -')],
    ['a key of another environment', () => forge('prd', shop.kid, shop.key.split('-')[3]!)],
    ['an unknown kid', () => forge('tst', 'aaaaaaaaaaaa', secret)],
    ['a known kid with the wrong secret', () => forge('tst', shop.kid, secret)],
    ['a lower-case prefix variant', () => shop.key.replace('sec1', 'SEC1')],
  ])('refuses %s with 401 UNAUTHORIZED', async (_name, key) => {
    const value = typeof key === 'function' ? key() : key;
    const res = await balanceWith(value);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ status: 'error', error: { code: 'UNAUTHORIZED' }, metadata: { api_version: 'v1' } });
  });

  it('gives an unknown kid and a wrong secret the same answer', async () => {
    const a = await balanceWith(forge('tst', 'aaaaaaaaaaaa', secret));
    const b = await balanceWith(forge('tst', shop.kid, secret));
    expect(a.body.error).toEqual(b.body.error);
  });

  it('refuses a revoked key and an expired key with 403 FORBIDDEN', async () => {
    const m = await createMerchant(t);
    const second = await op(t, `mutation { issueApiKey(merchantId: "${m.id}") { fullKey apiKey { kid } } }`);
    await op(t, `mutation { revokeApiKey(kid: "${m.kid}") { apiKey { status } } }`);
    const revoked = await balanceWith(m.key);
    expect(revoked.status).toBe(403);
    expect(revoked.body.error.code).toBe('FORBIDDEN');
    const { expireApiKey } = await op(t, `mutation { expireApiKey(kid: "${second.issueApiKey.apiKey.kid}") { apiKey { status expiresAt } } }`);
    expect(expireApiKey.apiKey.status).toBe('EXPIRED');
    const expired = await balanceWith(second.issueApiKey.fullKey);
    expect(expired.status).toBe(403);
    expect(expired.body.error.code).toBe('FORBIDDEN');
  });

  it('treats a key past its expires_at as expired', async () => {
    const m = await createMerchant(t);
    await sql`update api_keys set expires_at = now() - interval '1 second' where kid = ${m.kid}`.execute(t.database.db);
    expect((await balanceWith(m.key)).status).toBe(403);
  });

  it('applies the same outcomes to GraphQL', async () => {
    const q = '{ balance { availableCents } }';
    expect((await gql(t, q, {}, { key: shop.key })).body.data.balance.availableCents).toBe(0);
    const bad = await gql(t, q, {}, { key: 'nope' });
    expect(bad.status).toBe(401);
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
    const anonymous = await gql(t, q);
    expect(anonymous.body.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
    const m = await createMerchant(t);
    await op(t, `mutation { revokeApiKey(kid: "${m.kid}") { apiKey { status } } }`);
    const revoked = await gql(t, q, {}, { key: m.key });
    expect(revoked.status).toBe(403);
    expect(revoked.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

describe('regenerate', () => {
  it('returns a new active key and revokes the calling one at once', async () => {
    const m = await createMerchant(t);
    const res = await http(t, 'POST', '/api/v1/merchant/api-keys/secret/regenerate', { key: m.key });
    expect(res.status).toBe(201);
    const { api_key, full_key } = res.body.data;
    expect(full_key).toMatch(/^sec1-tst-/);
    expect(api_key).toMatchObject({ env: 'tst', type: 'secret', status: 'active', kid: parseKey(full_key)!.kid });
    expect(api_key.display_mask).toBe(`sec1-tst-${api_key.kid}…${full_key.slice(-6)}`);
    expect(api_key).not.toHaveProperty('full_key');
    expect((await balanceWith(full_key)).status).toBe(200);
    const old = await balanceWith(m.key);
    expect(old.status).toBe(403);
    expect(old.body.error.code).toBe('FORBIDDEN');
    // The revoked key cannot regenerate again.
    expect((await http(t, 'POST', '/api/v1/merchant/api-keys/secret/regenerate', { key: m.key })).status).toBe(403);
  });

  it('works through GraphQL too', async () => {
    const m = await createMerchant(t);
    const res = await gql(t, 'mutation { regenerateSecretKey { fullKey apiKey { status } } }', {}, { key: m.key });
    expect(res.body.data.regenerateSecretKey.apiKey.status).toBe('ACTIVE');
    expect((await balanceWith(res.body.data.regenerateSecretKey.fullKey)).status).toBe(200);
    expect((await balanceWith(m.key)).status).toBe(403);
  });

  it('stores no usable key: only a keyed hash of the secret', async () => {
    const rows = await t.database.db.selectFrom('api_keys').selectAll().execute();
    const dump = JSON.stringify(rows, (_k, v) => (v && v.type === 'Buffer' ? Buffer.from(v.data).toString('hex') : v));
    const secretPart = shop.key.split('-')[3]!;
    expect(dump).not.toContain(secretPart);
    expect(dump).not.toContain(shop.key);
    expect(dump).not.toContain(Buffer.from(secretPart).toString('hex'));
  });
});

describe('the key cache', () => {
  it('keeps authenticating from memory: a warm key costs no statement', async () => {
    const queries: string[] = [];
    const counted = await startApp({}, { onQuery: (q) => queries.push(q) });
    try {
      const m = await createMerchant(counted);
      expect((await http(counted, 'GET', '/api/v1/payouts/balance', { key: m.key })).status).toBe(200);
      queries.length = 0;
      expect((await http(counted, 'GET', '/api/v1/payouts/balance', { key: m.key })).status).toBe(200);
      expect(queries.filter((q) => /api_keys/.test(q))).toEqual([]);
      // A wrong secret for a cached kid is still refused: the secret is checked on every request.
      const wrong = forge('tst', m.kid, 'x'.repeat(43));
      expect((await http(counted, 'GET', '/api/v1/payouts/balance', { key: wrong })).status).toBe(401);
    } finally {
      await counted.close();
    }
  });

  it('remembers an unknown kid: after the first miss it costs no statement, exactly like a wrong secret', async () => {
    const queries: string[] = [];
    const counted = await startApp({}, { onQuery: (q) => queries.push(q) });
    try {
      const m = await createMerchant(counted);
      const unknown = generateKey('tst');
      const wrongSecret = forge('tst', m.kid, 'x'.repeat(43));
      const keyReads = () => queries.filter((q) => /api_keys/.test(q)).length;
      const refused = async (key: string) => (await http(counted, 'GET', '/api/v1/payouts/balance', { key })).status;
      queries.length = 0;
      expect(await refused(unknown.fullKey)).toBe(401);
      expect(await refused(wrongSecret)).toBe(401);
      expect(keyReads()).toBe(2);
      queries.length = 0;
      for (let i = 0; i < 3; i++) {
        expect(await refused(unknown.fullKey)).toBe(401);
        expect(await refused(wrongSecret)).toBe(401);
      }
      expect(queries.filter(ofRequests)).toEqual([]);

      // A key inserted with that very kid (here by an operator's own SQL; a new key of the
      // service alike) is heard of through the insert trigger, and works.
      const pepper = createHmac('sha256', counted.config.serviceSecret).update('zarpay api-key pepper v1').digest();
      await counted.database.db
        .insertInto('api_keys')
        .values({ id: randomUUID(), merchant_id: m.id, kid: unknown.kid, env: 'tst', status: 'active', secret_hash: hashSecret(pepper, unknown.secret), checksum: unknown.checksum })
        .execute();
      await eventually(async () => (await http(counted, 'GET', '/api/v1/payouts/balance', { key: unknown.fullKey })).status === 200, 2000);
    } finally {
      await counted.close();
    }
  });

  it('hands out a new key that works at once, on the instance that issued it', async () => {
    const m = await createMerchant(t);
    const issued = await op(t, `mutation { issueApiKey(merchantId: "${m.id}") { fullKey } }`);
    expect((await balanceWith(issued.issueApiKey.fullKey)).status).toBe(200);
  });

  it('hears of a change made outside the service (an operator\'s own SQL) through the database\'s notification', async () => {
    const m = await createMerchant(t);
    expect((await balanceWith(m.key)).status).toBe(200);
    await sql`update api_keys set status = 'revoked', revoked_at = now() where kid = ${m.kid}`.execute(t.database.db);
    await eventually(async () => (await balanceWith(m.key)).status === 403, 2000);
  });

  it('sees a merchant\'s new settings at once (viewer reads the cached merchant)', async () => {
    const m = await createMerchant(t);
    expect((await gql(t, '{ viewer { payoutFeeCents } }', {}, { key: m.key })).body.data.viewer.payoutFeeCents).toBe(0);
    await op(t, `mutation { updateMerchant(id: "${m.id}", input: { payoutFeeCents: 250 }) { merchant { id } } }`);
    expect((await gql(t, '{ viewer { payoutFeeCents } }', {}, { key: m.key })).body.data.viewer.payoutFeeCents).toBe(250);
  });
});

describe('KeyCache', () => {
  /** A stand-in for the listening connection: live or not, and a way to deliver a notification. */
  function fakeNotifications(live: boolean) {
    const handlers: ((payload: string) => void)[] = [];
    const resyncs: (() => void)[] = [];
    const n = {
      live,
      on: (_channel: string, h: (payload: string) => void) => (handlers.push(h), () => {}),
      onResync: (h: () => void) => (resyncs.push(h), () => {}),
      notify: (payload: string) => handlers.forEach((h) => h(payload)),
      resync: () => resyncs.forEach((h) => h()),
    };
    return n;
  }
  const entry = (value: string) => async () => ({ merchantId: 'm1', value });

  it('reads through while the connection is not live', async () => {
    const n = fakeNotifications(false);
    const cache = new KeyCache<string>(n as unknown as Notifications);
    expect(await cache.get('k1', entry('a'))).toBe('a');
    expect(await cache.get('k1', entry('b'))).toBe('b');
  });

  it('serves from memory while live, and forgets a key, a merchant or everything when told', async () => {
    const n = fakeNotifications(true);
    const cache = new KeyCache<string>(n as unknown as Notifications);
    expect(await cache.get('k1', entry('a'))).toBe('a');
    expect(await cache.get('k1', entry('b'))).toBe('a');
    n.notify('key:k1');
    expect(await cache.get('k1', entry('c'))).toBe('c');
    n.notify('merchant:m1');
    expect(await cache.get('k1', entry('d'))).toBe('d');
    n.resync();
    expect(await cache.get('k1', entry('e'))).toBe('e');
  });

  it('remembers a bounded number of unknown kids, and forgets one when its key is created', async () => {
    const n = fakeNotifications(true);
    const cache = new KeyCache<string>(n as unknown as Notifications);
    let reads = 0;
    const missing = async () => (reads++, undefined);
    for (let i = 0; i < 10_050; i++) await cache.get(`u${i}`, missing);
    expect(cache.unknownCount).toBe(10_000);
    reads = 0;
    expect(await cache.get('u10049', missing)).toBeUndefined();
    expect(reads).toBe(0);
    // The oldest were let go: asked again, they are read again.
    expect(await cache.get('u0', missing)).toBeUndefined();
    expect(reads).toBe(1);
    n.notify('created:u10049');
    expect(await cache.get('u10049', entry('created'))).toBe('created');
    // The insert's notification arriving late (after the new key was read) costs no second read.
    n.notify('created:u10049');
    expect(await cache.get('u10049', entry('read again'))).toBe('created');
  });

  it('does not keep a read that an invalidation overtook', async () => {
    const n = fakeNotifications(true);
    const cache = new KeyCache<string>(n as unknown as Notifications);
    let release!: () => void;
    const slow = cache.get('k1', async () => {
      await new Promise<void>((r) => (release = r));
      return { merchantId: 'm1', value: 'stale' };
    });
    n.notify('key:k1'); // the key changed while the read was on its way
    release();
    expect(await slow).toBe('stale');
    expect(await cache.get('k1', entry('fresh'))).toBe('fresh');
  });

  it('keeps a read that only unrelated changes overtook, and drops one whose merchant changed', async () => {
    const n = fakeNotifications(true);
    const cache = new KeyCache<string>(n as unknown as Notifications);
    const overtaken = async (kid: string, notifications: string[], found: { merchantId: string; value: string } | undefined) => {
      let release!: () => void;
      const read = cache.get(kid, async () => {
        await new Promise<void>((r) => (release = r));
        return found;
      });
      for (const payload of notifications) n.notify(payload);
      release();
      return read;
    };
    let reads = 0;
    const counted = (value: string | undefined) => async () => (reads++, value === undefined ? undefined : { merchantId: 'm1', value });
    // A busy database: other keys and merchants change while an unknown kid is looked up.
    expect(await overtaken('u1', ['key:other', 'merchant:m2', 'merchant:m1'], undefined)).toBeUndefined();
    expect(await cache.get('u1', counted(undefined))).toBeUndefined();
    expect(reads).toBe(0);
    // A key's merchant changed while the key was read: it is read again next time.
    expect(await overtaken('k2', ['merchant:m1'], { merchantId: 'm1', value: 'old' })).toBe('old');
    expect(await cache.get('k2', counted('new'))).toBe('new');
    expect(reads).toBe(1);
    // Another merchant's change does not spoil it.
    expect(await overtaken('k3', ['merchant:m2', 'key:k2'], { merchantId: 'm1', value: 'kept' })).toBe('kept');
    expect(await cache.get('k3', counted('unread'))).toBe('kept');
    expect(reads).toBe(1);
    // A kid looked up while its key was being created is not remembered as unknown.
    expect(await overtaken('k4', ['created:k4'], undefined)).toBeUndefined();
    expect(await cache.get('k4', counted('created'))).toBe('created');
    expect(reads).toBe(2);
  });
});

describe('what a 401 says (issue 26)', () => {
  const q = '{ balance { availableCents } }';

  it('names the X-API-Key header on REST, and says so when an API key came as a Bearer token', async () => {
    for (const res of [await balanceWith(), await balanceWith('hello'), await balanceWith(forge('tst', 'aaaaaaaaaaaa', 'x'.repeat(43)))]) {
      expect(res.status).toBe(401);
      expect(res.body.error.message).toMatch(/X-API-Key/);
    }
    const bearer = await balanceWith(undefined, { authorization: `Bearer ${shop.key}` });
    expect(bearer.status).toBe(401);
    expect(bearer.body.error.code).toBe('UNAUTHORIZED');
    expect(bearer.body.error.message).toMatch(/Authorization: Bearer/);
    expect(bearer.body.error.message).toMatch(/X-API-Key/);
    // Something else as a Bearer token is not called an API key.
    const other = await balanceWith(undefined, { authorization: 'Bearer abc' });
    expect(other.body.error.message).not.toMatch(/Bearer/);
  });

  it('says the same on GraphQL', async () => {
    const none = await gql(t, q);
    expect(none.body.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
    expect(none.body.errors?.[0]?.message).toMatch(/X-API-Key/);
    const bad = await gql(t, q, {}, { key: 'nope' });
    expect(bad.body.errors?.[0]?.message).toMatch(/X-API-Key/);
    const bearer = await http(t, 'POST', '/graphql', { body: { query: q }, headers: { authorization: `Bearer ${shop.key}` } });
    expect(bearer.status).toBe(401);
    expect(bearer.body.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
    expect(bearer.body.errors?.[0]?.message).toMatch(/Authorization: Bearer/);
    expect(bearer.body.errors?.[0]?.message).toMatch(/X-API-Key/);
    const wrongToken = await http(t, 'POST', '/graphql', { body: { query: q }, headers: { authorization: 'Bearer not-the-token' } });
    expect(wrongToken.body.errors?.[0]?.message).toMatch(/operator token/);
  });

  it('takes an empty X-API-Key (GraphiQL\'s template) as no key: public fields answer, REST still asks for one', async () => {
    const empty = await http(t, 'POST', '/graphql', { body: { query: '{ __typename }' }, headers: { 'x-api-key': '' } });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ data: { __typename: 'Query' } });
    const rest = await balanceWith('');
    expect(rest.status).toBe(401);
    expect(rest.body.error.message).toMatch(/X-API-Key/);
  });
});
