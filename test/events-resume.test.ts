import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePosition, encodePosition } from '../src/domain/event-position.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, http, op, payoutBody, type TestMerchant } from './support/client.ts';
import { eventually } from './support/receiver.ts';
import { sseClient, subscribe, type Subscription } from './support/sse.ts';

/** Streams that resume after a position (CONTRACT §9), in one service process; test/resume.test.ts does it across two. */

let t: TestApp;
let a: TestMerchant;
let b: TestMerchant;

beforeAll(async () => {
  t = await startApp();
  a = await createMerchant(t, { name: 'Shop A' });
  b = await createMerchant(t, { name: 'Shop B' });
  await credit(t, a.id, 10_000_000);
  await credit(t, b.id, 10_000_000);
});
afterAll(() => t?.close());

const PAYOUT_EVENTS = `subscription($m: UUID, $types: [String!], $after: String) {
  payoutEvents(merchantId: $m, types: $types, after: $after) { id type position payout { id status } }
}`;
const asMerchant = (m: TestMerchant) => ({ 'x-api-key': m.key });
const asOperator = () => ({ authorization: `Bearer ${t.config.operatorToken}` });
const pay = async (m: TestMerchant) => (await http(t, 'POST', '/api/v1/payouts', { key: m.key, body: payoutBody(100) })).body.data as { id: string };

/** Opens a stream and waits until the service holds it. */
async function open(headers: Record<string, string>, variables: Record<string, unknown> = {}) {
  const client = sseClient(t.url, false, headers);
  const before = t.app.services.events.subscriberCount;
  const sub = subscribe(client, PAYOUT_EVENTS, variables);
  await eventually(async () => t.app.services.events.subscriberCount > before);
  return {
    sub,
    /** Ends the stream and waits until the service has let it go, so the next `open` counts right. */
    close: async () => {
      const open = t.app.services.events.subscriberCount;
      sub.dispose();
      client.dispose();
      await eventually(async () => t.app.services.events.subscriberCount < open);
    },
  };
}

const events = (sub: Subscription) => sub.results.map((r) => r.data!.payoutEvents as { id: string; type: string; position: string });

/** The stored events after `position` that `merchantId`'s stream carries, in log order. */
async function storedAfter(position: string, merchantId?: string) {
  const p = decodePosition(position)!;
  const { rows } = await sql<{ id: string }>`
    select id from events
     where (xact_id, seq) > (${p.xact}::xid8, ${p.seq}::bigint) and type like 'payout.%'
       and (${merchantId ?? null}::uuid is null or merchant_id = ${merchantId ?? null}::uuid)
     order by xact_id, seq`.execute(t.database.db);
  return rows.map((r) => r.id);
}

describe('payoutEvents(after:)', () => {
  it('replays what a merchant missed, in order, then goes on live with no duplicate', async () => {
    const first = await open(asMerchant(a));
    await pay(a);
    await pay(a);
    const [, second] = await first.sub.waitFor(2);
    const resumeAt = second!.data!.payoutEvents.position as string;
    expect(decodePosition(resumeAt)).toBeDefined();
    await first.close();

    // Missed while away: A's payouts and an approval, and B's, which A must not see.
    const missed = [await pay(a), await pay(b), await pay(a)];
    await op(t, `mutation { approvePayout(id: "${missed[0]!.id}") { payout { id } } }`);

    const again = await open(asMerchant(a), { after: resumeAt });
    const expected = await storedAfter(resumeAt, a.id);
    expect(expected).toHaveLength(3);
    await again.sub.waitFor(3);
    const live = await pay(a);
    await again.sub.waitFor(4);
    const got = events(again.sub);
    expect(got.slice(0, 3).map((e) => e.id)).toEqual(expected);
    expect(got.map((e) => e.type)).toEqual(['payout.created', 'payout.created', 'payout.approved', 'payout.created']);
    expect(again.sub.results[3]!.data!.payoutEvents.payout.id).toBe(live.id);
    // Positions only ever increase along the stream.
    const positions = got.map((e) => decodePosition(e.position)!);
    for (let i = 1; i < positions.length; i++) expect(BigInt(positions[i]!.xact) * 2n ** 32n + BigInt(positions[i]!.seq)).toBeGreaterThan(BigInt(positions[i - 1]!.xact) * 2n ** 32n + BigInt(positions[i - 1]!.seq));
    // Nothing more came before the next event: no duplicate of what was replayed.
    const marker = await pay(a);
    const [, , , , fifth] = await again.sub.waitFor(5);
    expect(fifth!.data!.payoutEvents.payout.id).toBe(marker.id);
    await again.close();
  });

  it('replays for the operator every merchant\'s events, or one merchant\'s, with the type filter', async () => {
    const anchor = await open(asOperator());
    await pay(b);
    const [mark] = await anchor.sub.waitFor(1);
    const resumeAt = mark!.data!.payoutEvents.position as string;
    await anchor.close();
    const pa = await pay(a);
    await pay(b);
    await op(t, `mutation { rejectPayout(id: "${pa.id}", reason: "wrong account") { payout { id } } }`);

    const all = await open(asOperator(), { after: resumeAt });
    const onlyA = await open(asOperator(), { after: resumeAt, m: a.id });
    const rejections = await open(asOperator(), { after: resumeAt, types: ['payout.rejected'] });
    await all.sub.waitFor(3);
    await onlyA.sub.waitFor(2);
    await rejections.sub.waitFor(1);
    expect(events(all.sub).map((e) => e.id)).toEqual(await storedAfter(resumeAt));
    expect(events(onlyA.sub).map((e) => e.id)).toEqual(await storedAfter(resumeAt, a.id));
    expect(events(rejections.sub).map((e) => [e.type, e.id])).toEqual([['payout.rejected', (await storedAfter(resumeAt, a.id))[1]]]);
    for (const s of [all, onlyA, rejections]) await s.close();
  });

  it('replays more than a page of stored events and then goes live', async () => {
    const anchor = await open(asMerchant(b));
    await pay(b);
    const [mark] = await anchor.sub.waitFor(1);
    const resumeAt = mark!.data!.payoutEvents.position as string;
    await anchor.close();
    // 1,200 events in one transaction: more than two of the replay's pages of 500.
    await sql`
      insert into events (id, merchant_id, type, data)
      select gen_random_uuid(), ${b.id}::uuid, 'payout.created', jsonb_build_object('id', gen_random_uuid(), 'status', 'pending', 'n', n)
        from generate_series(1, 1200) n`.execute(t.database.db);
    const again = await open(asMerchant(b), { after: resumeAt });
    await again.sub.waitFor(1200, 20_000);
    const live = await pay(b);
    await again.sub.waitFor(1201);
    const got = events(again.sub).map((e) => e.id);
    expect(got.slice(0, 1200)).toEqual(await storedAfter(resumeAt, b.id).then((ids) => ids.slice(0, 1200)));
    expect(again.sub.results[1200]!.data!.payoutEvents.payout.id).toBe(live.id);
    expect(new Set(got).size).toBe(1201);
    await again.close();
  });

  it('refuses a position it never gave out, or one older than the replay window, with VALIDATION_FAILED', async () => {
    const anchor = await open(asMerchant(a));
    await pay(a);
    const [mark] = await anchor.sub.waitFor(1);
    const position = mark!.data!.payoutEvents.position as string;
    await anchor.close();

    const refusal = async (after: string) => {
      const client = sseClient(t.url, false, asMerchant(a));
      const sub = subscribe(client, PAYOUT_EVENTS, { after });
      await sub.ended;
      client.dispose();
      return sub.results[0]!.errors?.[0];
    };
    expect(await refusal('not-a-position')).toMatchObject({ extensions: { code: 'VALIDATION_FAILED' }, message: expect.stringMatching(/^after: /) });
    const p = decodePosition(position)!;
    expect(await refusal(encodePosition({ xact: p.xact, seq: p.seq + 1_000_000 }))).toMatchObject({
      extensions: { code: 'VALIDATION_FAILED' },
      message: 'after: not a position of this event log',
    });
    // Eight days ago: past the default window of seven.
    await sql`update events set created_at = now() - interval '8 days' where seq = ${p.seq}`.execute(t.database.db);
    expect(await refusal(position)).toMatchObject({ extensions: { code: 'VALIDATION_FAILED' }, message: expect.stringMatching(/^after: older than the replay window \(7 days\)/) });
  });
});
