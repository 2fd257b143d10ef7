import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, usingPostgres } from './support/app.ts';
import { createMerchant, credit, expectLedgerOk, http, op, payoutBody } from './support/client.ts';

// Real concurrency needs a real server: PGlite runs one statement at a time.
describe.skipIf(!usingPostgres)('concurrent payout creation (needs PostgreSQL: set DATABASE_URL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t?.close());

  it('reserves exactly what the balance covers: 200 requests, room for 100', async () => {
    const m = await createMerchant(t, { payoutFeeCents: 100 });
    await credit(t, m.id, 100 * 1_100);
    const results = await Promise.all(
      Array.from({ length: 200 }, () => http(t, 'POST', '/api/v1/payouts', { key: m.key, body: payoutBody(1_000) })),
    );
    const byStatus = results.reduce<Record<string, number>>((acc, r) => {
      const k = r.status === 201 ? 'created' : r.body.error?.code;
      acc[k] = (acc[k] ?? 0) + 1;
      return acc;
    }, {});
    expect(byStatus).toEqual({ created: 100, INSUFFICIENT_BALANCE: 100 });
    const balance = (await http(t, 'GET', '/api/v1/payouts/balance', { key: m.key })).body.data;
    expect(balance).toMatchObject({ balance_cents: 110_000, reserved_cents: 110_000, available_cents: 0 });
    await expectLedgerOk(t);
  });

  it('keeps invariants while moves and creations race on one merchant', async () => {
    const m = await createMerchant(t, { payoutFeeCents: 50 });
    await credit(t, m.id, 40 * 1_050);
    const created = await Promise.all(
      Array.from({ length: 40 }, () => http(t, 'POST', '/api/v1/payouts', { key: m.key, body: payoutBody(1_000) })),
    );
    const ids = created.map((r) => r.body.data.id as string);
    // Reject half while new creations compete for the released money.
    await Promise.all([
      ...ids.slice(0, 20).map((id) => op(t, `mutation { rejectPayout(id: "${id}", reason: "r") { payout { id } } }`)),
      ...Array.from({ length: 30 }, () => http(t, 'POST', '/api/v1/payouts', { key: m.key, body: payoutBody(1_000) })),
    ]);
    const balance = (await http(t, 'GET', '/api/v1/payouts/balance', { key: m.key })).body.data;
    expect(balance.available_cents).toBeGreaterThanOrEqual(0);
    expect(balance.reserved_cents).toBeLessThanOrEqual(balance.balance_cents);
    await expectLedgerOk(t);
  });

  it('refuses a double approval race: exactly one wins', async () => {
    const m = await createMerchant(t);
    await credit(t, m.id, 10_000);
    const p = (await http(t, 'POST', '/api/v1/payouts', { key: m.key, body: payoutBody(1_000) })).body.data;
    await op(t, `mutation { approvePayout(id: "${p.id}") { payout { id } } }`);
    await op(t, `mutation { startPayoutTransfer(id: "${p.id}") { payout { id } } }`);
    const attempts = await Promise.allSettled(
      Array.from({ length: 10 }, () => op(t, `mutation { completePayout(id: "${p.id}") { payout { id } } }`)),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    const balance = (await http(t, 'GET', '/api/v1/payouts/balance', { key: m.key })).body.data;
    expect(balance.balance_cents).toBe(9_000);
    await expectLedgerOk(t);
  });
});
