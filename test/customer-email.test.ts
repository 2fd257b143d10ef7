import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE } from '../src/domain/jobs.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, http, op, type TestMerchant } from './support/client.ts';
import { eventually } from './support/receiver.ts';
import { newPayment, press, waitForStatus } from './support/payments.ts';
import { startSmtpServer } from './support/smtp.ts';

/** Customer confirmations (issue 14, item 5), received on a local SMTP server. */
let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let shop: TestMerchant;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '50', SMTP_URL: smtp.url, SMTP_FROM: 'Kasi Payments <pay@kasi.example>' });
  shop = await createMerchant(t, { name: 'Kasi Coffee' });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const mailsTo = (to: string) => smtp.received.filter((m) => m.to === to);
const rows = (paymentId: string) => t.database.db.selectFrom('customer_emails').selectAll().where('payment_id', '=', paymentId).execute();

describe('customer confirmation by e-mail', () => {
  it('sends one confirmation after capture: merchant, amount in rand, order id and, for purchase, the voucher code', async () => {
    const p = await newPayment(t, shop, { amount: 12_345, intent_type: 'purchase', merchant_order_id: 'ORD-7781', customer_info: { email: 'thandi@example.co.za' } });
    await press(t, p.payment_id, 'pay');
    const paid = await waitForStatus(t, shop, p.payment_id, 'captured');
    const [mail] = await eventually(async () => (mailsTo('thandi@example.co.za').length ? mailsTo('thandi@example.co.za') : null), 10_000);
    expect(mail!.from).toBe('"Kasi Payments" <pay@kasi.example>');
    expect(mail!.subject).toBe('Your payment of R 123.45 to Kasi Coffee');
    expect(mail!.text).toContain('Thank you for your payment to Kasi Coffee.');
    expect(mail!.text).toContain('Amount paid: R 123.45');
    expect(mail!.text).toContain('Order: ORD-7781');
    expect(mail!.text).toContain(`Payment reference: ${p.payment_id}`);
    expect(mail!.text).toContain(`Your voucher code: ${paid.voucher_code}`);
    expect(mail!.messageId).toBe(`<payment-${p.payment_id}@localhost>`);
    // The sender records the outcome after the server has taken the message: wait for it.
    const sent = await eventually(async () => ((await rows(p.payment_id))[0]?.status === 'sent' ? rows(p.payment_id) : null), 10_000);
    expect(sent).toEqual([expect.objectContaining({ status: 'sent', attempts: 1, last_error: null })]);
    // Senders running again find nothing left to send.
    expect(await t.app.services.runner.runDue([QUEUE.customerEmail])).toBe(0);
    expect(mailsTo('thandi@example.co.za')).toHaveLength(1);
  });

  it('purchase_and_redeem says the voucher was redeemed and shows no code', async () => {
    const p = await newPayment(t, shop, { customer_info: { email: 'sipho@example.co.za', phone: '+27 82 555 0101' } });
    await op(t, `mutation { settlePayment(id: "${p.payment_id}", outcome: CAPTURED) { payment { id } } }`);
    const [mail] = await eventually(async () => (mailsTo('sipho@example.co.za').length ? mailsTo('sipho@example.co.za') : null), 10_000);
    expect(mail!.text).toContain('Your voucher has been redeemed with Kasi Coffee.');
    expect(mail!.text).not.toMatch(/voucher code/i);
    const code = (await http(t, 'GET', `/api/v1/payments/${p.payment_id}`, { key: shop.key })).body.data.voucher_code;
    expect(mail!.text).not.toContain(code);
  });

  it('sends nothing for a payment without an e-mail, or one that failed or was cancelled', async () => {
    const none = await newPayment(t, shop, { customer_info: { phone: '+27 82 555 0102' } });
    const failed = await newPayment(t, shop, { customer_info: { email: 'failed@example.co.za' } });
    const cancelled = await newPayment(t, shop, { customer_info: { email: 'cancelled@example.co.za' } });
    await op(t, `mutation { settlePayment(id: "${none.payment_id}", outcome: CAPTURED) { payment { id } } }`);
    await press(t, failed.payment_id, 'decline');
    await waitForStatus(t, shop, failed.payment_id, 'failed');
    await press(t, cancelled.payment_id, 'cancel');
    await t.app.services.runner.runDue([QUEUE.customerEmail]);
    for (const p of [none, failed, cancelled]) expect(await rows(p.payment_id)).toEqual([]);
    expect(mailsTo('failed@example.co.za')).toEqual([]);
    expect(mailsTo('cancelled@example.co.za')).toEqual([]);
  });

  it('a server that refuses for now gets the e-mail again later, still once', async () => {
    smtp.refuse(1);
    const p = await newPayment(t, shop, { customer_info: { email: 'retry@example.co.za' } });
    await op(t, `mutation { settlePayment(id: "${p.payment_id}", outcome: CAPTURED) { payment { id } } }`);
    const [first] = await eventually(async () => {
      const r = await rows(p.payment_id);
      return r[0]?.attempts === 1 ? r : null;
    }, 10_000);
    expect(first).toMatchObject({ status: 'pending', last_error: expect.stringContaining('451') });
    const job = () => t.database.db.selectFrom('jobs').selectAll().where('queue', '=', QUEUE.customerEmail).where('key', '=', p.payment_id).executeTakeFirstOrThrow();
    expect((await job()).run_at.getTime()).toBeGreaterThan(Date.now());
    // Due now instead of in 5 s: the retry goes through.
    await t.database.db.updateTable('jobs').set({ run_at: new Date() }).where('queue', '=', QUEUE.customerEmail).where('key', '=', p.payment_id).execute();
    await eventually(async () => (mailsTo('retry@example.co.za').length ? true : null), 10_000);
    // The sender records the outcome after the server has taken the message: wait for it.
    const sent = await eventually(async () => {
      const r = await rows(p.payment_id);
      return r[0]?.status === 'sent' ? r : null;
    }, 10_000);
    expect(sent).toEqual([expect.objectContaining({ status: 'sent', attempts: 2 })]);
    expect(mailsTo('retry@example.co.za')).toHaveLength(1);
  });
});

describe('without SMTP_URL', () => {
  it('queues and sends nothing', async () => {
    const quiet = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '50' });
    try {
      expect(quiet.app.services.runner.queueNames).not.toContain(QUEUE.customerEmail);
      const m = await createMerchant(quiet);
      const p = await newPayment(quiet, m, { customer_info: { email: 'nobody@example.co.za' } });
      await op(quiet, `mutation { settlePayment(id: "${p.payment_id}", outcome: CAPTURED) { payment { id } } }`);
      expect(await quiet.database.db.selectFrom('customer_emails').selectAll().execute()).toEqual([]);
    } finally {
      await quiet.close();
    }
  });
});
