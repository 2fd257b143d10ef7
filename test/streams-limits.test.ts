import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePosition } from '../src/domain/event-position.ts';
import { STREAM_LIMITS } from '../src/domain/stream-limits.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, op, type TestMerchant } from './support/client.ts';
import { ROOT } from './support/processes.ts';
import { TcpProxy } from './support/tcp-proxy.ts';
import { eventually, sleep } from './support/receiver.ts';
import { sseClient, subscribe } from './support/sse.ts';
import { openStream, type RawStream, streamCall, TOKEN } from './support/sse-raw.ts';

/**
 * What `/graphql/stream` holds for whom (docs/limits.md, "Event streams"): reservations need
 * credentials and are capped, freed when not connected; a token serves only its principal;
 * operations and connections are capped per principal; a reader that stops reading ends its
 * stream past a bound instead of growing the server's memory.
 */

let t: TestApp;
let a: TestMerchant;
let b: TestMerchant;

beforeAll(async () => {
  t = await startApp();
  a = await createMerchant(t, { name: 'Stream Shop A' });
  b = await createMerchant(t, { name: 'Stream Shop B' });
});
afterAll(() => t?.close());

const asMerchant = (m: TestMerchant) => ({ 'x-api-key': m.key });
const asOperator = () => ({ authorization: `Bearer ${t.config.operatorToken}` });
const counts = () => t.app.graphql.streamCounts();
const PAYOUT_EVENTS = 'subscription($after: String) { payoutEvents(after: $after) { id type position data } }';
/** Each event's ~4 KB `data` twelve times over: a few hundred results fill the sockets' buffers, whatever the kernel's. */
const FAT_PAYOUT_EVENTS = `subscription { payoutEvents { id type position ${Array.from({ length: 12 }, (_, i) => `d${i}: data`).join(' ')} } }`;

/** Reserves a token for `headers`; fails the test unless it is granted. */
async function reserve(headers: Record<string, string>, app: TestApp = t) {
  const res = await streamCall(app.url, 'PUT', headers);
  expect(res.status, res.text).toBe(201);
  return res.text;
}

/** A second merchant key, issued by the operator. */
async function issueKey(m: TestMerchant) {
  const d = await op(t, 'mutation($m: UUID!) { issueApiKey(merchantId: $m) { apiKey { kid } fullKey } }', { m: m.id });
  return { ...m, key: d.issueApiKey.fullKey as string, kid: d.issueApiKey.apiKey.kid as string };
}

/** `n` payout events for `merchantId`, committed straight into the log, `batch` per transaction, `gapMs` apart. */
async function commitEvents(merchantId: string, n: number, batch: number, gapMs: number, app: TestApp = t, padding = 4_000) {
  for (let done = 0; done < n; done += batch) {
    await sql`
      insert into events (id, merchant_id, type, data)
      select gen_random_uuid(), ${merchantId}::uuid, 'payout.created',
             jsonb_build_object('id', gen_random_uuid(), 'status', 'pending', 'n', ${done}::int + g, 'pad', repeat('x', ${padding}::int))
        from generate_series(1, ${Math.min(batch, n - done)}::int) g`.execute(app.database.db);
    // As the service does after its own commits: the bus reads now rather than within a second.
    app.app.services.events.committed();
    if (gapMs) await sleep(gapMs);
  }
}

async function storedAfter(position: string, merchantId: string) {
  const p = decodePosition(position)!;
  const { rows } = await sql<{ id: string }>`
    select id from events where merchant_id = ${merchantId}::uuid and (xact_id, seq) > (${p.xact}::xid8, ${p.seq}::bigint)
     order by xact_id, seq`.execute(t.database.db);
  return rows.map((r) => r.id);
}

describe('reservations (single-connection mode)', () => {
  it('refuses 1,000 reservations without credentials with 401 and holds nothing for them', async () => {
    const before = counts();
    for (let round = 0; round < 20; round++) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => streamCall(t.url, 'PUT', {})));
      for (const res of answers) {
        expect(res.status).toBe(401);
        expect(res.code).toBe('UNAUTHORIZED');
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      }
    }
    expect(counts()).toEqual(before);
    expect(counts().reservations).toBe(0);
  });

  it('refuses bad credentials like every other request (401, or 403 for a revoked key)', async () => {
    expect((await streamCall(t.url, 'PUT', { 'x-api-key': 'sec1-tst-nope' })).code).toBe('UNAUTHORIZED');
    expect((await streamCall(t.url, 'PUT', { authorization: 'Bearer wrong' })).status).toBe(401);
    const spare = await issueKey(a);
    await op(t, `mutation { revokeApiKey(kid: "${spare.kid}") { apiKey { status } } }`);
    const revoked = await streamCall(t.url, 'PUT', asMerchant(spare));
    expect([revoked.status, revoked.code]).toEqual([403, 'FORBIDDEN']);
    expect(counts().reservations).toBe(0);
  });

  it(`lets a key hold ${STREAM_LIMITS.reservationsPerPrincipal} unconnected reservations, refusing more with 429 and Retry-After`, async () => {
    const key = await issueKey(a);
    const tokens = [];
    for (let i = 0; i < STREAM_LIMITS.reservationsPerPrincipal; i++) tokens.push(await reserve(asMerchant(key)));
    // Drawn by the service, never the client's: a token sent with the PUT is ignored.
    expect(new Set(tokens).size).toBe(tokens.length);
    for (const token of tokens) expect(token).toMatch(/^[0-9a-f-]{36}$/);
    const over = await streamCall(t.url, 'PUT', { ...asMerchant(key), [TOKEN]: 'chosen-by-the-client' });
    expect([over.status, over.code]).toEqual([429, 'RATE_LIMIT_EXCEEDED']);
    expect(JSON.parse(over.text).errors[0].message).toMatch(/at most 5 stream reservations/);
    expect(over.headers.get('retry-after')).toBe(String(STREAM_LIMITS.reservationTtlMs / 1000));
    // Another key of the same merchant, and the operator, have places of their own.
    const other = await reserve(asMerchant(b));
    const operator = await reserve(asOperator());
    expect(counts().reservations).toBe(STREAM_LIMITS.reservationsPerPrincipal + 2);

    // Connecting one gives its place back.
    const connected = await openStream(t.url, { ...asMerchant(key), [TOKEN]: tokens[0]! });
    expect(connected.status).toBe(200);
    await reserve(asMerchant(key));
    connected.close();
    for (const [headers, token] of [[asMerchant(b), other], [asOperator(), operator]] as const) {
      const s = await openStream(t.url, { ...headers, [TOKEN]: token });
      s.close();
    }
    await op(t, `mutation { revokeApiKey(kid: "${key.kid}") { apiKey { status } } }`);
    // The revoked key's reservations are freed at once, not after the TTL.
    await eventually(async () => counts().reservations === 0 && counts().connections === 0, 5_000);
  });

  it('serves a token only to the principal that reserved it', async () => {
    const token = await reserve(asMerchant(a));
    const sameMerchantOtherKey = await issueKey(a);
    const subscribeOp = { query: 'subscription { payoutEvents { id } }', extensions: { operationId: 'op-1' } };
    for (const [who, headers, status, code] of [
      ['another merchant', asMerchant(b), 404, 'NOT_FOUND'],
      ['another key of the same merchant', asMerchant(sameMerchantOtherKey), 404, 'NOT_FOUND'],
      ['the operator', asOperator(), 404, 'NOT_FOUND'],
      ['nobody', {}, 401, 'UNAUTHORIZED'],
    ] as const) {
      const connect = await openStream(t.url, { ...headers, [TOKEN]: token });
      expect([connect.status, JSON.parse(await connect.ended.then(() => connect.text())).errors[0].extensions.code], who).toEqual([status, code]);
      const operation = await streamCall(t.url, 'POST', { ...headers, [TOKEN]: token }, subscribeOp);
      expect([operation.status, operation.code], who).toEqual([status, code]);
      const stop = await streamCall(t.url, 'DELETE', { ...headers, [TOKEN]: token }, undefined, '?operationId=op-1');
      expect([stop.status, stop.code], who).toEqual([status, code]);
      const byQuery = await openStream(t.url, headers, undefined, `?token=${token}`);
      await byQuery.ended;
      expect(byQuery.status, who).toBe(status);
    }
    // Nothing of it was used: its owner connects it and runs an operation on it.
    const before = t.app.services.events.subscriberCount;
    const mine = await openStream(t.url, { ...asMerchant(a), [TOKEN]: token });
    expect(mine.status).toBe(200);
    const started = await streamCall(t.url, 'POST', { ...asMerchant(a), [TOKEN]: token }, subscribeOp);
    expect(started.status).toBe(202);
    await eventually(async () => t.app.services.events.subscriberCount === before + 1);
    expect((await streamCall(t.url, 'DELETE', { ...asMerchant(a), [TOKEN]: token }, undefined, '?operationId=op-1')).status).toBe(200);
    await eventually(async () => t.app.services.events.subscriberCount === before);
    mine.close();
    await eventually(async () => counts().connections === 0 && counts().operations === 0);
  });
});

describe('operations and connections per principal', () => {
  it(`runs at most ${STREAM_LIMITS.operationsPerPrincipal} operations at once for one key, over both modes`, async () => {
    const key = await issueKey(b);
    const max = STREAM_LIMITS.operationsPerPrincipal;
    const before = t.app.services.events.subscriberCount;
    const run = (operationId: string) =>
      streamCall(t.url, 'POST', { ...asMerchant(key), [TOKEN]: token }, { query: 'subscription { payoutEvents { id } }', extensions: { operationId } });
    // One connection carrying one operation, and the rest each on a connection of its own.
    const token = await reserve(asMerchant(key));
    const single = await openStream(t.url, { ...asMerchant(key), [TOKEN]: token });
    expect(single.status).toBe(200);
    expect((await run('1')).status).toBe(202);
    const streams: RawStream[] = [];
    for (let i = 1; i < max; i++) streams.push(await openStream(t.url, asMerchant(key), { query: 'subscription { payoutEvents { id } }' }));
    await eventually(async () => t.app.services.events.subscriberCount === before + max);
    expect(counts()).toMatchObject({ operations: max, connections: max });

    const refused = await run('2');
    expect([refused.status, refused.code]).toEqual([429, 'RATE_LIMIT_EXCEEDED']);
    expect(JSON.parse(refused.text).errors[0].message).toMatch(/at most 20 operations/);
    const distinct = await openStream(t.url, asMerchant(key), { query: 'subscription { payoutEvents { id } }' });
    await distinct.ended;
    expect(distinct.status).toBe(429);
    expect(JSON.parse(distinct.text()).errors[0]).toMatchObject({ extensions: { code: 'RATE_LIMIT_EXCEEDED' }, message: expect.stringMatching(/at most 20 operations/) });
    // Other keys are not affected.
    const client = sseClient(t.url, true, asMerchant(b));
    const other = subscribe(client, 'subscription { payoutEvents { id } }');
    await eventually(async () => t.app.services.events.subscriberCount === before + max + 1);
    // Ending one frees its place.
    streams.pop()!.close();
    await eventually(async () => t.app.services.events.subscriberCount === before + max);
    expect((await run('3')).status).toBe(202);
    for (const s of [...streams, single]) s.close();
    other.dispose();
    client.dispose();
    await eventually(async () => t.app.services.events.subscriberCount === before && counts().operations === 0 && counts().connections === 0);
  });

  it(`holds at most ${STREAM_LIMITS.connectionsPerPrincipal} connections open for one key, idle ones included`, async () => {
    const key = await issueKey(b);
    const open: RawStream[] = [];
    while (open.length < STREAM_LIMITS.connectionsPerPrincipal) {
      const s = await openStream(t.url, { ...asMerchant(key), [TOKEN]: await reserve(asMerchant(key)) });
      expect(s.status).toBe(200);
      open.push(s);
    }
    const one = await openStream(t.url, { ...asMerchant(key), [TOKEN]: await reserve(asMerchant(key)) });
    await one.ended;
    expect([one.status, JSON.parse(one.text()).errors[0].extensions.code]).toEqual([429, 'RATE_LIMIT_EXCEEDED']);
    const distinct = await openStream(t.url, asMerchant(key), { query: 'subscription { payoutEvents { id } }' });
    expect(distinct.status).toBe(429);
    for (const s of open) s.close();
    await eventually(async () => counts().connections === 0);
  });
});

describe('a reader that falls behind', () => {
  it('ends, past 1,000 events it has not taken, with RATE_LIMIT_EXCEEDED after the last one it got; resuming after it loses nothing', async () => {
    const m = await createMerchant(t, { name: 'Slow Reader' });
    const before = t.app.services.events.subscriberCount;
    const slow = await openStream(t.url, asMerchant(m), { query: FAT_PAYOUT_EVENTS });
    await eventually(async () => t.app.services.events.subscriberCount === before + 1);
    slow.response.pause();

    // 1,500 events, 50 per transaction: each batch is taken at once by a reader that reads (the
    // next test); this one reads nothing, so they wait, and the server holds no more than its bound.
    await commitEvents(m.id, 1_500, 50, 20);
    await eventually(async () => t.app.services.events.subscriberCount === before, 20_000);

    slow.response.resume();
    const messages = await slow.ended;
    const nexts = messages.filter((msg) => msg.event === 'next');
    const last = nexts.at(-1)!.data;
    expect(last.errors[0]).toMatchObject({ extensions: { code: 'RATE_LIMIT_EXCEEDED' }, message: expect.stringMatching(/fell more than 1000 events behind/) });
    expect(messages.at(-1)!.event).toBe('complete');
    const received = nexts.slice(0, -1).map((msg) => msg.data.data.payoutEvents as { id: string; position: string });
    expect(received.length).toBeGreaterThan(0);
    expect(received.length).toBeLessThan(1_500 - STREAM_LIMITS.queuedEventsPerStream + 1);
    // What it got is the log's first events, in order; resuming after the last gives exactly the rest.
    const all = await storedAfter(received[0]!.position, m.id);
    expect(received.slice(1).map((e) => e.id)).toEqual(all.slice(0, received.length - 1));
    const resumeAt = received.at(-1)!.position;
    const rest = await storedAfter(resumeAt, m.id);
    const client = sseClient(t.url, false, asMerchant(m));
    const again = subscribe(client, PAYOUT_EVENTS, { after: resumeAt });
    await again.waitFor(rest.length, 30_000);
    expect(again.results.map((r) => r.data.payoutEvents.id)).toEqual(rest);
    again.dispose();
    client.dispose();
    await eventually(async () => counts().operations === 0 && counts().connections === 0);
  });

  it('zarpay events tail resumes after falling behind and prints every event once', { timeout: 120_000 }, async () => {
    const m = await createMerchant(t, { name: 'Tailed' });
    const before = t.app.services.events.subscriberCount;
    // Between the tail and the service, a proxy that can stop reading what the service sends, as
    // a slow network would: graphql-sse's client itself reads as fast as it can.
    const proxy = new TcpProxy('127.0.0.1', Number(new URL(t.url).port));
    await proxy.start();
    const tail = spawn(process.execPath, ['bin/zarpay.js', 'events', 'tail', '--merchant', m.id], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ZARPAY_URL: `http://127.0.0.1:${proxy.port}`, OPERATOR_TOKEN: t.config.operatorToken },
    });
    try {
      let out = '';
      tail.stdout.on('data', (c: Buffer) => (out += c));
      await eventually(async () => t.app.services.events.subscriberCount === before + 2, 30_000);
      proxy.hold();
      await commitEvents(m.id, 2_500, 100, 10, t, 6_000);
      const ids = (await sql<{ id: string }>`select id from events where merchant_id = ${m.id}::uuid order by xact_id, seq`.execute(t.database.db)).rows.map((r) => r.id);
      // The service ended the payout stream it could not deliver (paymentEvents stays).
      await eventually(async () => t.app.services.events.subscriberCount === before + 1, 30_000);
      proxy.release();
      const printed = await eventually(async () => {
        const lines = out.split('\n').slice(0, -1).map((l) => JSON.parse(l).id as string);
        return lines.length >= ids.length ? lines : undefined;
      }, 60_000);
      expect(printed).toEqual(ids);
      expect(tail.exitCode).toBeNull();
      const exited = new Promise<number | null>((resolve) => tail.once('exit', resolve));
      tail.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      tail.kill('SIGKILL');
      await proxy.stop();
    }
  });

  it('keeps a reader that takes what it is sent, however many events in all', { timeout: 120_000 }, async () => {
    const m = await createMerchant(t, { name: 'Steady Reader' });
    const before = t.app.services.events.subscriberCount;
    const client = sseClient(t.url, true, asMerchant(m));
    const sub = subscribe(client, PAYOUT_EVENTS);
    await eventually(async () => t.app.services.events.subscriberCount === before + 1);
    // The bound is on events waiting for the reader, not on events sent: 1,500 in all, never
    // more than 100 outstanding (each batch is read before the next commits).
    for (let sent = 100; sent <= 1_500; sent += 100) {
      await commitEvents(m.id, 100, 100, 0);
      await sub.waitFor(sent, 30_000);
    }
    expect(sub.results.every((r) => !r.errors)).toBe(true);
    sub.dispose();
    client.dispose();
  });
});

describe('with short limits (a TTL of 300 ms, a stalled connection cut after 1 s)', () => {
  let short: TestApp;
  beforeAll(async () => {
    short = await startApp({}, { streamLimits: { reservationTtlMs: 300, stalledConnectionMs: 1_000 } });
  });
  afterAll(() => short?.close());

  it('frees a reservation not connected within the TTL, with the operations sent to it', async () => {
    const m = await createMerchant(short);
    const token = await reserve(asMerchant(m), short);
    // graphql-sse lets operations run on a reservation before it is connected (their results wait for it).
    const before = short.app.services.events.subscriberCount;
    const started = await streamCall(short.url, 'POST', { ...asMerchant(m), [TOKEN]: token }, { query: 'subscription { payoutEvents { id } }', extensions: { operationId: 'x' } });
    expect(started.status).toBe(202);
    expect(short.app.graphql.streamCounts()).toEqual({ reservations: 1, connections: 0, operations: 1 });
    await eventually(async () => short.app.services.events.subscriberCount === before + 1);
    // After the TTL the reservation is gone, and graphql-sse has let go of it and its operation.
    await eventually(async () => short.app.graphql.streamCounts().reservations === 0, 5_000);
    await eventually(async () => short.app.services.events.subscriberCount === before, 5_000);
    expect(short.app.graphql.streamCounts()).toEqual({ reservations: 0, connections: 0, operations: 0 });
    const late = await openStream(short.url, { ...asMerchant(m), [TOKEN]: token });
    expect(late.status).toBe(404);
    await late.ended;
    expect(JSON.parse(late.text()).errors[0]).toMatchObject({ extensions: { code: 'NOT_FOUND' }, message: expect.stringMatching(/within 1 s is freed/) });
  });

  it('cuts a connection whose reader has taken nothing while results waited, and gives its places back', async () => {
    const m = await createMerchant(short);
    const before = short.app.services.events.subscriberCount;
    const stuck = await openStream(short.url, asMerchant(m), { query: FAT_PAYOUT_EVENTS });
    await eventually(async () => short.app.services.events.subscriberCount === before + 1);
    expect(short.app.graphql.streamCounts()).toMatchObject({ connections: 1, operations: 1 });
    stuck.response.pause();
    // Enough to fill the sockets' buffers and the connection's window; the reader never reads again.
    await commitEvents(m.id, 400, 50, 20, short);
    await eventually(async () => short.app.graphql.streamCounts().connections === 0, 20_000);
    expect(short.app.graphql.streamCounts()).toEqual({ reservations: 0, connections: 0, operations: 0 });
    await eventually(async () => short.app.services.events.subscriberCount === before);
    stuck.close();
  });
});
