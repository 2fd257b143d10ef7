import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePosition } from '../src/domain/event-position.ts';
import { freshDatabase, usingPostgres } from './support/app.ts';
import { operatorOn, type ServiceProcess, spawnService } from './support/process.ts';
import { sseClient, subscribe } from './support/sse.ts';

/**
 * CONTRACT §9 across instances: a client's connection to one service process drops while
 * another process commits events; it reconnects with the last position it received and gets
 * exactly what it missed, in order, then live events, with events still being committed while
 * it reconnects (the seam between replay and live).
 */

const QUERY = 'subscription($after: String) { payoutEvents(after: $after) { id type position payout { id } } }';

async function payOn(s: ServiceProcess, key: string) {
  const res = await fetch(`${s.url}/api/v1/payouts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({
      amount_cents: 100,
      currency: 'ZAR',
      payout_method: 'eft',
      payment_details: { account_number: '62012345678', branch_code: '250655', account_holder: 'T N', bank_name: 'FNB' },
    }),
  });
  if (res.status !== 201) throw new Error(`payout: ${res.status} ${await res.text()}`);
}

/** `n` payouts on `s`, `width` at a time: their events commit in whatever order the database decides. */
async function payMany(s: ServiceProcess, key: string, n: number, width = 8) {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < n) {
      next++;
      await payOn(s, key);
    }
  }));
}

describe.skipIf(!usingPostgres)('resuming an event stream across service processes (needs PostgreSQL: set DATABASE_URL)', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let shop: { id: string; key: string };

  beforeAll(async () => {
    db = await freshDatabase();
    [a, b] = await Promise.all([spawnService({ DATABASE_URL: db.url! }), spawnService({ DATABASE_URL: db.url! })]);
    const d = await operatorOn(b, 'mutation { createMerchant(input: { name: "Resume Shop" }) { merchant { id } fullKey } }');
    shop = { id: d.createMerchant.merchant.id, key: d.createMerchant.fullKey };
    await operatorOn(b, 'mutation($m: UUID!) { creditBalance(merchantId: $m, amountCents: 100000000) { balance { balanceCents } } }', { m: shop.id });
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.handle.close();
    await db?.drop();
  });

  /** The merchant's stored payout events after `position`, in log order. */
  async function storedAfter(position: string) {
    const p = decodePosition(position)!;
    const { rows } = await sql<{ id: string }>`
      select id from events where merchant_id = ${shop.id}::uuid and (xact_id, seq) > (${p.xact}::xid8, ${p.seq}::bigint)
       order by xact_id, seq`.execute(db.handle.db);
    return rows.map((r) => r.id);
  }

  const stream = (s: ServiceProcess, after: string | null) => {
    const client = sseClient(s.url, false, { 'x-api-key': shop.key });
    const sub = subscribe(client, QUERY, { after });
    return { sub, close: () => (sub.dispose(), client.dispose()), ids: () => sub.results.map((r) => r.data!.payoutEvents.id as string) };
  };

  it('gets exactly the 200 events committed on another instance while it was away, in order, then live ones', async () => {
    // Connected to A; B commits.
    // A stream with no position starts at the head: it is live once it sees a payout's event,
    // so pay one at a time until three have arrived (no guess at how long connecting takes).
    const first = stream(a, null);
    while (first.sub.results.length < 3) {
      await payMany(b, shop.key, 1, 1);
      await first.sub.waitFor(first.sub.results.length + 1, 2_000).catch(() => undefined);
    }
    const last = first.sub.results.at(-1)!.data!.payoutEvents.position as string;
    // The connection drops; 200 events commit on B meanwhile.
    first.close();
    await payMany(b, shop.key, 200);
    // (200, or one more if the opening loop's last payout was still on its way when it closed)
    const missed = await storedAfter(last);
    expect(missed.length).toBeGreaterThanOrEqual(200);
    const m = missed.length;

    // Reconnects to A with its last position while B goes on committing: the seam.
    const during = payMany(b, shop.key, 30, 3);
    const again = stream(a, last);
    // An event is streamed once every older transaction on the server has ended, in any database
    // (event-bus.ts): another test file holding a row lock for up to a minute (bank-files' kill -9
    // test) holds these back as long, so the waits allow for that.
    await again.sub.waitFor(m, 90_000);
    await during;
    await again.sub.waitFor(m + 30, 90_000);
    expect(again.ids().slice(0, m)).toEqual(missed);
    expect(again.ids()).toEqual(await storedAfter(last));

    // And live ones after that.
    await payMany(b, shop.key, 2, 1);
    await again.sub.waitFor(m + 32, 90_000);
    expect(again.ids()).toEqual(await storedAfter(last));
    // Nothing more came before the next event (no duplicate): it is the next one the stream shows.
    await payMany(b, shop.key, 1, 1);
    await again.sub.waitFor(m + 33, 90_000);
    expect(again.ids()).toEqual(await storedAfter(last));
    expect(again.sub.results.every((r) => !r.errors)).toBe(true);

    // Once more the other way round: dropped from A, events committed on A, resumed on B.
    const resumeAt = again.sub.results.at(-1)!.data!.payoutEvents.position as string;
    again.close();
    await payMany(a, shop.key, 20);
    const third = stream(b, resumeAt);
    await third.sub.waitFor(20, 90_000);
    expect(third.ids()).toEqual(await storedAfter(resumeAt));
    third.close();
  }, 300_000); // 255 payouts over HTTP on two service processes, and waits that allow for another file's open transaction
});
