import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE } from '../src/domain/jobs.ts';
import { freshDatabase, startApp, type TestApp, usingPostgres } from './support/app.ts';
import { createMerchant, credit, expectLedgerOk, gql, http, op, type TestMerchant } from './support/client.ts';
import { newPayment } from './support/payments.ts';
import { callService, OPERATOR_TOKEN, type ServiceProcess, spawnService } from './support/process.ts';
import { zarpay } from './support/processes.ts';
import { eventually, type Receiver, startReceiver } from './support/receiver.ts';
import { startYocoDouble, type YocoDouble, yocoSettings } from './support/yoco-double.ts';

/**
 * Refunds (CONTRACT §10) through the sandbox provider, over REST, GraphQL and the CLI: the
 * reservation, the outcome, the balance and the webhooks agree to the cent, and `ledger verify`
 * holds after each. The sandbox confirms a refund after SANDBOX_CONFIRM_DELAY_MS (its own job),
 * or the operator decides it first (`zarpay refund settle`). The Yoco side is in
 * test/yoco-payments.test.ts.
 */
let t: TestApp;
let shop: TestMerchant;
let hooks: Receiver;

beforeAll(async () => {
  hooks = await startReceiver();
  t = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '300', RECONCILE_AFTER_MS: '200' });
  shop = await createMerchant(t, { name: 'Kettle Shop', paymentFeeBps: 250, autoTopup: true, webhookUrl: hooks.url });
});
afterAll(async () => {
  await t?.close();
  await hooks?.close();
});

const balance = async (m = shop) => (await http(t, 'GET', '/api/v1/payouts/balance', { key: m.key })).body.data;
const refundOf = async (id: string, m = shop) => (await http(t, 'GET', `/api/v1/refunds/${id}`, { key: m.key })).body.data;
const refund = (paymentId: string, body?: Record<string, unknown>, headers: Record<string, string> = {}, m = shop) =>
  http(t, 'POST', `/api/v1/payments/${paymentId}/refunds`, { key: m.key, ...(body && { body }), headers });
const webhooksOf = (type: string, refundId: string) =>
  hooks.received.map((r) => JSON.parse(r.body)).filter((e) => e.type === type && e.data.refund_id === refundId);

/** A payment the customer paid (sandbox settlement by the operator), credited by auto top-up. */
async function capturedPayment(amount = 10_000, m = shop): Promise<string> {
  const id = (await newPayment(t, m, { amount })).payment_id;
  await op(t, 'mutation($id: UUID!) { settlePayment(id: $id, outcome: CAPTURED) { payment { id } } }', { id });
  return id;
}

/** A payment paid through the sandbox provider (its attempt can be refunded at the provider). */
async function paidThroughSandbox(amount = 10_000, m = shop): Promise<string> {
  const id = (await newPayment(t, m, { amount })).payment_id;
  const token = /name="token" value="([0-9a-f]{64})"/.exec(String((await http(t, 'GET', `/pay/${id}`)).body))![1]!;
  await fetch(`${t.url}/pay/${id}/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${token}`, redirect: 'manual' });
  await eventually(async () => ((await http(t, 'GET', `/api/v1/payments/${id}`, { key: m.key })).body.data.status === 'captured' ? true : null));
  return id;
}

describe('refunds over REST', () => {
  it('a partial refund reserves, the sandbox confirms it, and balance, payment, ledger and webhook agree to the cent', async () => {
    const id = await paidThroughSandbox(10_000);
    const before = await balance();
    const res = await refund(id, { amount_cents: 2_500, reason: 'Returned the kettle lid', merchant_reference: 'RET-1' });
    expect(res.status).toBe(201);
    const r = res.body.data;
    expect(r).toEqual({
      refund_id: expect.any(String),
      payment_id: id,
      status: 'pending',
      amount_cents: 2_500,
      currency: 'ZAR',
      reason: 'Returned the kettle lid',
      merchant_reference: 'RET-1',
      created_at: expect.any(String),
    });
    // Reserved at once, like a payout: the balance is unchanged, the available amount is not.
    const reserved = await balance();
    expect(reserved.balance_cents).toBe(before.balance_cents);
    expect(reserved.reserved_cents - before.reserved_cents).toBe(2_500);
    await expectLedgerOk(t);

    const done = await eventually(async () => ((await refundOf(r.refund_id)).status === 'succeeded' ? refundOf(r.refund_id) : null));
    expect(done).toMatchObject({ status: 'succeeded', amount_cents: 2_500, completed_at: expect.any(String) });
    expect(done.failure_reason).toBeUndefined();
    const after = await balance();
    expect(after.balance_cents).toBe(before.balance_cents - 2_500);
    expect(after.reserved_cents).toBe(before.reserved_cents);
    expect(after.totals.refunds_cents - before.totals.refunds_cents).toBe(2_500);
    // The fee is not returned: fees stay as they were.
    expect(after.totals.fees_cents).toBe(before.totals.fees_cents);
    const payment = (await http(t, 'GET', `/api/v1/payments/${id}`, { key: shop.key })).body.data;
    expect(payment).toMatchObject({ status: 'captured', refunded_cents: 2_500, fee_cents: 250 });

    const [event] = await eventually(async () => {
      const got = webhooksOf('refund.succeeded', r.refund_id);
      return got.length ? got : null;
    });
    expect(event.data).toEqual(done);
    const postings = await t.database.db.selectFrom('ledger_transactions').select(['kind', 'refund_id']).where('payment_id', '=', id).orderBy('created_at').execute();
    expect(postings.map((p) => p.kind)).toEqual(['payment_capture', 'refund_reserve', 'refund_settle']);
    expect(postings.slice(1).every((p) => p.refund_id === r.refund_id)).toBe(true);
    await expectLedgerOk(t);

    // The statement shows the refund once, as the movement it made (the reservation moved none),
    // and its closing balance is the balance's.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Johannesburg' }).format(new Date());
    const statement = (await http(t, 'GET', `/api/v1/statements?from=${today}&to=${today}`, { key: shop.key })).body.data;
    expect(statement.entries.filter((e: { reference: string }) => e.reference === r.refund_id)).toEqual([
      expect.objectContaining({ type: 'refund', amount_cents: -2_500 }),
    ]);
    expect(statement.closing_balance_cents).toBe(after.balance_cents);
    const sum = statement.entries.reduce((n: number, e: { amount_cents: number }) => n + e.amount_cents, 0);
    expect(statement.opening_balance_cents + sum).toBe(statement.closing_balance_cents);
  });

  it('refunds in parts up to the amount, then the rest by default, and never more', async () => {
    const id = await capturedPayment(8_000);
    const first = (await refund(id, { amount_cents: 3_000 })).body.data;
    // Over what is left (8000 - 3000 pending): refused, nothing reserved.
    const over = await refund(id, { amount_cents: 5_001 });
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'amount_cents', message: 'must be 1 to 5000 cents, what is still refundable' }] });
    expect((await refund(id, { amount_cents: 0 })).body.error.code).toBe('VALIDATION_FAILED');
    // No body at all: all that is left.
    const rest = await refund(id);
    expect(rest.status).toBe(201);
    expect(rest.body.data.amount_cents).toBe(5_000);
    const none = await refund(id, {});
    expect(none.status).toBe(400);
    expect(none.body.error.message).toContain('nothing is left to refund');

    const list = (await http(t, 'GET', `/api/v1/payments/${id}/refunds`, { key: shop.key })).body.data;
    expect(list.total).toBe(2);
    expect(list.refunds.map((r: any) => r.refund_id)).toEqual([rest.body.data.refund_id, first.refund_id]);
    await expectLedgerOk(t);
  });

  it('amount_cents: null is refused, not a full refund (absent still means what is refundable)', async () => {
    const id = await capturedPayment(7_000);
    // A client whose amount came out NaN sends null: that must not give the whole payment back.
    const res = await refund(id, { amount_cents: null, reason: 'NaN in the till' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'amount_cents', message: expect.stringMatching(/must not be null/) }] });
    const doc = `mutation($in: RefundPaymentInput!) { refundPayment(input: $in) { refund { id amountCents } } }`;
    const viaVariables = await gql(t, doc, { in: { paymentId: id, amountCents: null } }, { key: shop.key });
    expect(viaVariables.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    expect(viaVariables.body.errors?.[0]?.message).toMatch(/amountCents: must not be null/);
    const inline = await gql(t, `mutation { refundPayment(input: { paymentId: "${id}", amountCents: null }) { refund { id } } }`, {}, { key: shop.key });
    expect(inline.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    const listed = (await http(t, 'GET', `/api/v1/payments/${id}/refunds`, { key: shop.key })).body.data;
    expect(listed.total).toBe(0);
    // Left out, over REST and GraphQL alike: all that is refundable (the fee stays kept, so more money first).
    await credit(t, shop.id, 1_000);
    const all = await gql(t, doc, { in: { paymentId: id } }, { key: shop.key });
    expect(all.body.errors, JSON.stringify(all.body.errors)).toBeUndefined();
    expect(all.body.data.refundPayment.refund.amountCents).toBe(7_000);
  });

  it('only a captured payment is refundable; unknown and other merchants\' ids are not found', async () => {
    const open = (await newPayment(t, shop)).payment_id;
    const res = await refund(open, { amount_cents: 100 });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_STATUS_TRANSITION');
    const other = await createMerchant(t, { name: 'Other Shop', autoTopup: true });
    const theirs = await capturedPayment(6_000, other);
    expect((await refund(theirs, { amount_cents: 100 })).body.error.code).toBe('PAYMENT_NOT_FOUND');
    expect((await refund(crypto.randomUUID(), { amount_cents: 100 })).status).toBe(404);
    expect((await refund('not-a-uuid', { amount_cents: 100 })).body.error.code).toBe('PAYMENT_NOT_FOUND');
    const mine = (await refund(theirs, { amount_cents: 100 }, {}, other)).body.data;
    expect((await http(t, 'GET', `/api/v1/refunds/${mine.refund_id}`, { key: shop.key })).body.error.code).toBe('REFUND_NOT_FOUND');
    expect((await http(t, 'GET', `/api/v1/payments/${theirs}/refunds`, { key: shop.key })).body.error.code).toBe('PAYMENT_NOT_FOUND');
    expect((await refund(theirs, { amount_cents: 100, currency: 'USD' }, {}, other)).body.error).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('the money must be available: INSUFFICIENT_BALANCE names both amounts, and nothing is written', async () => {
    const poor = await createMerchant(t, { name: 'Poor Shop' }); // no auto top-up: captures credit nothing
    const id = await capturedPayment(6_000, poor);
    const res = await refund(id, { amount_cents: 6_000 }, {}, poor);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', message: 'available balance is 0 cents; 6000 cents are required' });
    expect(await t.database.db.selectFrom('refunds').select('id').where('payment_id', '=', id).execute()).toEqual([]);
    await credit(t, poor.id, 6_000);
    expect((await refund(id, { amount_cents: 6_000 }, {}, poor)).status).toBe(201);
    await expectLedgerOk(t);
  });

  it('Idempotency-Key: the same request replays the refund (200), another is CONFLICT; concurrent replays make one refund', async () => {
    const id = await capturedPayment(9_000);
    const body = { amount_cents: 1_000, reason: 'wrong size' };
    const key = { 'idempotency-key': `ref-${id}` };
    const answers = await Promise.all([1, 2, 3, 4].map(() => refund(id, body, key)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.data.refund_id)).size).toBe(1);
    expect((await refund(id, { ...body, amount_cents: 1_001 }, key)).body.error.code).toBe('CONFLICT');
    // A key is the merchant's, across payments and refunds alike.
    const other = await capturedPayment(9_000);
    expect((await refund(other, body, key)).body.error.code).toBe('CONFLICT');
    expect((await http(t, 'GET', `/api/v1/payments/${id}/refunds`, { key: shop.key })).body.data.total).toBe(1);
    await expectLedgerOk(t);
  });

  it('concurrent refunds of one payment never exceed its amount', async () => {
    const id = await capturedPayment(10_000);
    const answers = await Promise.all(Array.from({ length: 6 }, () => refund(id, { amount_cents: 3_000 })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 400).every((a) => a.body.error.code === 'VALIDATION_FAILED')).toBe(true);
    await expectLedgerOk(t);
  });
});

describe('refunds that fail', () => {
  it('a refund the provider fails releases its reservation; refund.failed is sent and audited', async () => {
    const id = await capturedPayment(7_000);
    const before = await balance();
    const r = (await refund(id, { amount_cents: 7_000 })).body.data;
    const failed = await op(t, 'mutation($id: UUID!) { settleRefund(id: $id, outcome: FAILED) { refund { status failureReason } } }', { id: r.refund_id });
    expect(failed.settleRefund.refund).toEqual({ status: 'FAILED', failureReason: 'settled by operator' });
    expect(await balance()).toEqual(before);
    expect(await refundOf(r.refund_id)).toMatchObject({ status: 'failed', failure_reason: 'settled by operator', completed_at: expect.any(String) });
    expect((await http(t, 'GET', `/api/v1/payments/${id}`, { key: shop.key })).body.data.refunded_cents).toBe(0);
    await eventually(async () => (webhooksOf('refund.failed', r.refund_id).length === 1 ? true : null));
    const audit = await op(t, 'query($id: UUID) { auditLog(paymentId: $id) { action actor } }', { id });
    expect(audit.auditLog.map((a: any) => a.action)).toContain('refund.failed');
    // Decided once: a second outcome changes nothing.
    const again = await gql(t, 'mutation($id: UUID!) { settleRefund(id: $id, outcome: SUCCEEDED) { refund { status } } }', { id: r.refund_id }, { operator: true });
    expect(again.body.errors![0]!.extensions!.code).toBe('INVALID_STATUS_TRANSITION');
    // What was released is refundable again.
    expect((await refund(id, { amount_cents: 7_000 })).status).toBe(201);
    await expectLedgerOk(t);
  });

  it('a provider that refuses outright (nothing to refund at the sandbox): failed at once, released, audited', async () => {
    const id = await paidThroughSandbox(6_000);
    // The sandbox's books lose the checkout: it will refuse the refund.
    await t.database.db.deleteFrom('sandbox.checkouts').execute();
    const before = await balance();
    const r = (await refund(id, { amount_cents: 1_000 })).body.data;
    await t.app.services.runner.runDue([QUEUE.refund]);
    const done = await eventually(async () => ((await refundOf(r.refund_id)).status === 'failed' ? refundOf(r.refund_id) : null));
    expect(done.failure_reason).toMatch(/^the provider refused the refund: .*nothing to refund/);
    expect(await balance()).toEqual(before);
    const audit = await op(t, 'query($id: UUID) { auditLog(paymentId: $id) { action actor detail } }', { id });
    expect(audit.auditLog).toContainEqual(expect.objectContaining({ action: 'refund.failed', actor: 'system:refunds' }));
    await expectLedgerOk(t);
  });
});

describe('refunds over GraphQL and the CLI', () => {
  it('refundPayment, Payment.refunds and refundedCents, refund(id), with the REST rules', async () => {
    const id = await capturedPayment(6_000);
    const doc = `mutation($in: RefundPaymentInput!) { refundPayment(input: $in) { refund { id status amountCents reason merchantReference payment { id } } } }`;
    const made = await gql(t, doc, { in: { paymentId: id, amountCents: 1_500, reason: 'late delivery', merchantReference: 'GQ-1', idempotencyKey: `gq-${id}` } }, { key: shop.key });
    expect(made.body.errors).toBeUndefined();
    const r = made.body.data.refundPayment.refund;
    expect(r).toMatchObject({ status: 'PENDING', amountCents: 1_500, reason: 'late delivery', merchantReference: 'GQ-1', payment: { id } });
    // The same key and input replay; REST sees the same refund.
    const replay = await gql(t, doc, { in: { paymentId: id, amountCents: 1_500, reason: 'late delivery', merchantReference: 'GQ-1', idempotencyKey: `gq-${id}` } }, { key: shop.key });
    expect(replay.body.data.refundPayment.refund.id).toBe(r.id);
    const over = await gql(t, doc, { in: { paymentId: id, amountCents: 5_000 } }, { key: shop.key });
    expect(over.body.errors![0]!.extensions!.code).toBe('VALIDATION_FAILED');
    const operatorTry = await gql(t, doc, { in: { paymentId: id } }, { operator: true });
    expect(operatorTry.body.errors![0]!.extensions!.code).toBe('FORBIDDEN');

    await op(t, 'mutation($id: UUID!) { settleRefund(id: $id, outcome: SUCCEEDED) { refund { id } } }', { id: r.id });
    const read = await gql(t, 'query($id: UUID!, $r: UUID!) { payment(id: $id) { refundedCents refunds { id status } } refund(id: $r) { status completedAt } }', { id, r: r.id }, { key: shop.key });
    expect(read.body.data).toEqual({ payment: { refundedCents: 1_500, refunds: [{ id: r.id, status: 'SUCCEEDED' }] }, refund: { status: 'SUCCEEDED', completedAt: expect.any(String) } });
    const bal = await gql(t, '{ balance { totals { refundsCents } } }', {}, { key: shop.key });
    expect(bal.body.data.balance.totals.refundsCents).toBe((await balance()).totals.refunds_cents);
    await expectLedgerOk(t);
  });

  it('zarpay refund list / show / settle, and ledger verify', async () => {
    const env = { ZARPAY_URL: t.url, OPERATOR_TOKEN: t.config.operatorToken };
    const id = await capturedPayment(6_500);
    const r = (await refund(id, { amount_cents: 6_500 })).body.data;
    const listed = await zarpay(['refund', 'list', '--payment', id], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.json).toEqual({ refunds: [{ ...r }], total: 1 });
    const byMerchant = await zarpay(['refund', 'list', '--merchant', shop.id], env);
    expect(byMerchant.json.refunds.map((x: any) => x.refund_id)).toContain(r.refund_id);
    const settled = await zarpay(['refund', 'settle', r.refund_id, '--outcome', 'succeeded'], env);
    expect(settled.code, settled.stderr).toBe(0);
    expect(settled.json).toMatchObject({ refund_id: r.refund_id, status: 'succeeded', amount_cents: 6_500 });
    const shown = await zarpay(['refund', 'show', r.refund_id], env);
    expect(shown.json).toEqual(await refundOf(r.refund_id));
    const bad = await zarpay(['refund', 'settle', r.refund_id, '--outcome', 'maybe'], env);
    expect(bad.code).toBe(1);
    const verify = await zarpay(['ledger', 'verify'], env);
    expect(verify.code, verify.stderr).toBe(0);
    expect(verify.json.ok).toBe(true);
  });
});

describe('a refund whose outcome never comes (issue 31)', () => {
  it('zarpay stats flags it once overdue, refund list --stale finds it, and zarpay refund resolve ends it once, the note in the audit log', async () => {
    const env = { ZARPAY_URL: t.url, OPERATOR_TOKEN: t.config.operatorToken, ZARPAY_OPERATOR: 'thandi' };
    // Settled by hand, so its refund has no provider to ask: pending until someone decides.
    const id = await capturedPayment(7_500);
    const before = await balance();
    const r = (await refund(id, { amount_cents: 7_000 })).body.data;
    const early = await zarpay(['refund', 'resolve', r.refund_id, '--outcome', 'failed', '--note', 'checked'], env);
    expect(early.code).toBe(1);
    expect(early.json).toMatchObject({ code: 'INVALID_STATUS_TRANSITION', message: expect.stringContaining('REFUND_PENDING_ALERT_MS') });
    expect((await zarpay(['stats'], env)).json.refunds_pending_stale).toBe(0);

    // Asked for 25 hours ago: past REFUND_PENDING_ALERT_MS (24 hours).
    await t.database.db.updateTable('refunds').set({ created_at: new Date(Date.now() - 25 * 3600_000) }).where('id', '=', r.refund_id).execute();
    const stats = await zarpay(['stats'], env);
    expect(stats.code, stats.stderr).toBe(0);
    expect(stats.json).toMatchObject({ refunds_pending_stale: 1, oldest_pending_refund_at: expect.any(String) });
    expect((await zarpay(['stats', '--format', 'table'], env)).stdout).toMatch(/refunds pending: +\d+, 1 overdue \(zarpay refund list --stale/);
    expect(await (await fetch(`${t.url}/metrics`)).text()).toMatch(/^zarpay_refunds_pending_stale 1$/m);
    const stale = await zarpay(['refund', 'list', '--stale'], env);
    expect(stale.json).toEqual({ refunds: [await refundOf(r.refund_id)], total: 1 });

    const noNote = await zarpay(['refund', 'resolve', r.refund_id, '--outcome', 'failed'], env);
    expect(noNote.code).toBe(1);
    expect(noNote.json.message).toContain('--note');
    const blank = await zarpay(['refund', 'resolve', r.refund_id, '--outcome', 'failed', '--note', ' '], env);
    expect(blank.json).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('--note') });
    const resolved = await zarpay(['refund', 'resolve', r.refund_id, '--outcome', 'failed', '--note', 'provider support: never made (ticket 4411)'], env);
    expect(resolved.code, resolved.stderr).toBe(0);
    expect(resolved.json).toMatchObject({ refund_id: r.refund_id, status: 'failed', failure_reason: 'resolved by the operator after checking with the provider' });
    expect(resolved.json).toEqual(await refundOf(r.refund_id));
    // The one settlement: released, refund.failed sent, audited with who and the note.
    expect(await balance()).toEqual(before);
    await eventually(async () => (webhooksOf('refund.failed', r.refund_id).length === 1 ? true : null));
    const audit = await op(t, 'query($id: UUID) { auditLog(paymentId: $id) { action actor detail } }', { id });
    expect(audit.auditLog[0]).toMatchObject({ action: 'refund.failed', actor: 'operator:thandi', detail: { refund_id: r.refund_id, note: 'provider support: never made (ticket 4411)' } });
    expect((await zarpay(['stats'], env)).json.refunds_pending_stale).toBe(0);

    const again = await zarpay(['refund', 'resolve', r.refund_id, '--outcome', 'succeeded', '--note', 'again'], env);
    expect(again.json).toMatchObject({ code: 'INVALID_STATUS_TRANSITION', message: 'refund is already failed' });
    expect((await zarpay(['ledger', 'verify'], env)).json.ok).toBe(true);
  }, 120_000);
});

describe('ledger verify', () => {
  it('notices a refund whose reservation is missing from reserved_cents', async () => {
    const m = await createMerchant(t, { name: 'Audit Shop', autoTopup: true });
    const id = await capturedPayment(6_000, m);
    await refund(id, { amount_cents: 1_000 }, {}, m);
    // Forget the reservation behind the ledger's back: verify names the broken invariant.
    await t.database.db.updateTable('refunds').set({ status: 'failed' }).where('payment_id', '=', id).execute();
    const report = await t.app.services.balances.verify({ kind: 'operator' });
    expect(report.ok).toBe(false);
    expect(report.problems).toContainEqual(expect.objectContaining({ merchant_id: m.id, check: 'reserved_cents = gross of pending, approved, processing payouts + pending refunds' }));
    await t.database.db.updateTable('refunds').set({ status: 'pending' }).where('payment_id', '=', id).execute();
    await expectLedgerOk(t);
  });
});

/**
 * kill -9 in the middle of a refund: Yoco made it, zarpay died before it heard so. The next
 * process asks again under the same key once the dead one's claim has run out, learns Yoco's
 * refund id from the replayed answer, and Yoco's notification settles the refund once.
 */
describe.skipIf(!usingPostgres)('a refund across kill -9 (needs PostgreSQL: set DATABASE_URL)', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let yoco: YocoDouble;
  const running: ServiceProcess[] = [];
  const service = async () => {
    const s = await spawnService({
      DATABASE_URL: db.url!,
      ...yocoSettings(yoco),
      RECONCILE_AFTER_MS: '1000',
    });
    running.push(s);
    return s;
  };
  beforeAll(async () => {
    db = await freshDatabase();
    yoco = await startYocoDouble({ secretKey: `sk_live_${'c'.repeat(24)}` });
  });
  afterAll(async () => {
    for (const s of running) await s.stop();
    await yoco?.close();
    await db?.handle.close();
    await db?.drop();
  });
  const call = callService;
  const operator = async (s: ServiceProcess, query: string) =>
    (await call(s, '/graphql', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${OPERATOR_TOKEN}` }, body: JSON.stringify({ query }) })).json().data;

  it('Yoco made the refund, zarpay died before it heard: the next process finishes it once', async () => {
    const first = await service();
    const key = (await operator(first, 'mutation { createMerchant(input: { name: "Crash Kettles", autoTopup: true }) { fullKey } }')).createMerchant.fullKey as string;
    const init = await call(first, '/api/v1/payments/init', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 30_000, currency: 'ZAR', merchant_order_id: 'KILL-1', intent_type: 'purchase' }),
    });
    const id = init.json().data.payment_id as string;
    const token = /name="token" value="([0-9a-f]{64})"/.exec((await call(first, `/pay/${id}`)).text)![1]!;
    await call(first, `/pay/${id}/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${token}` });
    const checkoutId = [...yoco.checkouts.values()].find((c) => c.metadata?.paymentId === id)!.id;
    yoco.pay(checkoutId);
    expect(await yoco.notify(checkoutId, { to: `${first.url}/providers/yoco/webhook` })).toEqual([{ status: 200 }]);

    // Yoco will make the refund and keep its answer for the key; the answer never comes back.
    yoco.failNext(1, 'processed-timeout');
    const refundId = (
      await call(first, `/api/v1/payments/${id}/refunds`, { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount_cents: 12_000 }) })
    ).json().data.refund_id as string;
    await eventually(async () => (yoco.checkout(checkoutId).refunds.length === 1 ? true : null));
    await first.kill9();
    // Yoco tells the dead process; that is lost.
    expect((await yoco.notify(checkoutId, { to: `${first.url}/providers/yoco/webhook`, event: 'refund.succeeded' }))[0]!.error).toBeDefined();

    const second = await service();
    // Once the claim has run out, the same key again: Yoco replays its answer, nothing new is made.
    await eventually(async () => {
      const [row] = await db.handle.db.selectFrom('refunds').select('provider_refund_ref').where('id', '=', refundId).execute();
      return row?.provider_refund_ref ?? null;
    }, 60_000);
    expect(yoco.checkout(checkoutId).refunds).toHaveLength(1);
    const keys = yoco.requests.filter((r) => r.path === `/api/checkouts/${checkoutId}/refund`).map((r) => r.headers['idempotency-key']);
    expect(keys).toEqual([refundId, refundId]);
    // Yoco's retry of the notification reaches the live process, twice.
    expect(await yoco.notify(checkoutId, { to: `${second.url}/providers/yoco/webhook`, event: 'refund.succeeded', times: 2 })).toEqual([{ status: 200 }, { status: 200 }]);
    const refund = (await call(second, `/api/v1/refunds/${refundId}`, { key })).json().data;
    expect(refund).toMatchObject({ status: 'succeeded', amount_cents: 12_000 });
    const postings = await db.handle.db.selectFrom('ledger_transactions').select('kind').where('payment_id', '=', id).execute();
    expect(postings.map((p) => p.kind).sort()).toEqual(['payment_capture', 'refund_reserve', 'refund_settle']);
    const events = await db.handle.db.selectFrom('events').select('type').where('payment_id', '=', id).orderBy('seq').execute();
    expect(events.map((e) => e.type)).toEqual(['payment.captured', 'refund.succeeded']);
    expect((await operator(second, '{ ledgerVerification }')).ledgerVerification).toMatchObject({ ok: true });
    await second.stop();
  }, 150_000);
});
