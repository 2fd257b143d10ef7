import { expect } from 'vitest';
import { QUEUE } from '../../src/domain/jobs.ts';
import type { TestApp } from './app.ts';
import { http, op, type TestMerchant } from './client.ts';
import { getPayment, newPayment, press } from './payments.ts';
import type { DoubleCheckout, YocoDouble } from './yoco-double.ts';

/**
 * A shop that takes payments through the Yoco double in a service whose job runner runs only
 * when the test asks it to (RUN_RECONCILER=false): the customer's steps, Yoco's notifications and
 * the refund jobs, each when the test decides.
 */
export function yocoShop(t: TestApp, yoco: YocoDouble, shop: TestMerchant) {
  const webhook = () => `${t.url}/providers/yoco/webhook`;

  /** Initiates a payment and presses Pay; returns it with Yoco's checkout. */
  async function startCheckout(extra: Record<string, unknown> = {}): Promise<{ id: string; checkout: DoubleCheckout }> {
    const p = await newPayment(t, shop, extra);
    expect((await press(t, p.payment_id, 'pay')).status).toBe(303);
    const checkout = [...yoco.checkouts.values()].find((c) => c.metadata?.paymentId === p.payment_id);
    if (!checkout) throw new Error('no Yoco checkout was created');
    return { id: p.payment_id, checkout };
  }

  return {
    webhook,
    startCheckout,
    /** A payment paid through Yoco and captured by its notification. */
    async paidWithYoco(amount = 20_000): Promise<{ id: string; checkout: DoubleCheckout }> {
      const started = await startCheckout({ amount });
      yoco.pay(started.checkout.id);
      expect(await yoco.notify(started.checkout.id, { to: webhook() })).toEqual([{ status: 200 }]);
      expect((await getPayment(t, shop, started.id)).body.data.status).toBe('captured');
      return started;
    },
    /** A payment the customer cancelled here and then paid in Yoco's tab still open: the money is owed back. */
    async paidAfterCancel(amount = 20_000): Promise<{ id: string; checkout: DoubleCheckout }> {
      const started = await startCheckout({ amount });
      await press(t, started.id, 'cancel');
      yoco.pay(started.checkout.id);
      expect(await yoco.notify(started.checkout.id, { to: webhook() })).toEqual([{ status: 200 }]);
      expect((await getPayment(t, shop, started.id)).body.data.status).toBe('cancelled');
      return started;
    },
    refund: async (paymentId: string, amountCents: number) =>
      (await http(t, 'POST', `/api/v1/payments/${paymentId}/refunds`, { key: shop.key, body: { amount_cents: amountCents } })).body.data,
    refundOf: async (refundId: string) => (await http(t, 'GET', `/api/v1/refunds/${refundId}`, { key: shop.key })).body.data,
    balance: async () => (await http(t, 'GET', '/api/v1/payouts/balance', { key: shop.key })).body.data,
    /** Runs the refund requests and refunds owed that are due, making every request due first (their backoff is not what these tests are about). */
    async requestRefunds() {
      await t.database.db.updateTable('jobs').set({ run_at: new Date(0) }).where('queue', 'in', [QUEUE.refund, QUEUE.refundOwed]).where('status', '=', 'queued').execute();
      await t.app.services.runner.runDue([QUEUE.refund, QUEUE.refundOwed]);
    },
    auditOf: async (paymentId: string) =>
      (await op(t, `{ auditLog(paymentId: "${paymentId}") { actor action detail } }`)).auditLog as { actor: string; action: string; detail: any }[],
    eventsOf: async (paymentId: string) =>
      (await t.database.db.selectFrom('events').select('type').where('payment_id', '=', paymentId).orderBy('seq').execute()).map((e) => e.type),
    postingsOf: async (paymentId: string) =>
      (await t.database.db.selectFrom('ledger_transactions').select('kind').where('payment_id', '=', paymentId).orderBy('created_at').execute()).map((e) => e.kind),
    owedOf: async (paymentId: string) =>
      t.database.db.selectFrom('payment_attempts').select(['refund_status', 'refund_ref']).where('payment_id', '=', paymentId).where('refund_status', 'is not', null).executeTakeFirstOrThrow(),
  };
}
