import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { confirmationSms, gsm7, isGsm7, SMS_LIMIT } from '../src/domain/customer-sms.ts';
import { QUEUE } from '../src/domain/jobs.ts';
import { bulkSms, SmsRefused } from '../src/outside/sms.ts';
import { startApp, type TestApp } from './support/app.ts';
import { startBulkSmsDouble } from './support/bulksms.ts';
import { createMerchant, gql, http, op, type TestMerchant } from './support/client.ts';
import { newPayment, paymentBody, press, waitForStatus } from './support/payments.ts';
import { zarpay } from './support/processes.ts';
import { eventually } from './support/receiver.ts';

/**
 * Customer confirmations by SMS (issue 26, CONTRACT §10): `customer_info.phone` in E.164 gets the
 * payment's confirmation through BulkSMS's JSON REST API, here a double that speaks it
 * (test/support/bulksms.ts). Failed sends are retried with backoff and never touch the payment.
 */
let t: TestApp;
let gateway: Awaited<ReturnType<typeof startBulkSmsDouble>>;
let shop: TestMerchant;

beforeAll(async () => {
  gateway = await startBulkSmsDouble();
  t = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '50', SMS_URL: gateway.url, SMS_API_KEY: gateway.apiKey });
  shop = await createMerchant(t, { name: 'Kasi Coffee' });
});
afterAll(async () => {
  await t?.close();
  await gateway?.close();
});

const textsTo = (to: string) => gateway.received.filter((m) => m.to === to);
const record = async (paymentId: string) => (await t.database.db.selectFrom('customer_sms').selectAll().where('payment_id', '=', paymentId).execute())[0];
const jobOf = (paymentId: string) => t.database.db.selectFrom('jobs').selectAll().where('queue', '=', QUEUE.customerSms).where('key', '=', paymentId).executeTakeFirst();
/** Waits until try number `attempts` is recorded and no runner holds the job. */
const settledTry = (paymentId: string, attempts: number) =>
  eventually(async () => {
    const [r, j] = [await record(paymentId), await jobOf(paymentId)];
    return r && r.attempts === attempts && (!j || j.locked_by === null) ? { record: r, job: j } : null;
  }, 15_000);
const dueNow = (paymentId: string) => t.database.db.updateTable('jobs').set({ run_at: new Date() }).where('queue', '=', QUEUE.customerSms).where('key', '=', paymentId).execute();
const capture = (id: string) => op(t, `mutation { settlePayment(id: "${id}", outcome: CAPTURED) { payment { id } } }`);

describe('customer confirmation by SMS', () => {
  it('texts the customer after capture: merchant, amount, order and, for purchase, the voucher code, in one GSM-7 SMS', async () => {
    const p = await newPayment(t, shop, { amount: 12_345, intent_type: 'purchase', merchant_order_id: 'ORD-7781', customer_info: { phone: '+27 82 555 0101' } });
    await press(t, p.payment_id, 'pay');
    const paid = await waitForStatus(t, shop, p.payment_id, 'captured');
    const [sms] = await eventually(async () => (textsTo('+27825550101').length ? textsTo('+27825550101') : null), 10_000);
    expect(sms!.body).toBe(`Kasi Coffee: payment of R 123.45 received, order ORD-7781. Voucher code: ${paid.voucher_code}. Anyone with this code can use it.`);
    expect(sms!.body.length).toBeLessThanOrEqual(SMS_LIMIT);
    expect(isGsm7(sms!.body)).toBe(true);
    expect(sms!.auth).toBe(gateway.apiKey);
    expect(sms!.userSuppliedId).toBe(p.payment_id.replaceAll('-', '').slice(0, 20));
    const sent = await eventually(async () => ((await record(p.payment_id))?.status === 'sent' ? record(p.payment_id) : null), 10_000);
    expect(sent).toMatchObject({ status: 'sent', attempts: 1, last_error: null, gateway_message_id: sms!.id });
    expect(await t.app.services.runner.runDue([QUEUE.customerSms])).toBe(0);
    expect(textsTo('+27825550101')).toHaveLength(1);
  });

  it('purchase_and_redeem says the voucher was redeemed and carries no code; e-mail off does not stop the SMS', async () => {
    const p = await newPayment(t, shop, { merchant_order_id: 'ORD-7782', customer_info: { email: 'sipho@example.co.za', phone: '+27825550102' } });
    await capture(p.payment_id);
    const [sms] = await eventually(async () => (textsTo('+27825550102').length ? textsTo('+27825550102') : null), 10_000);
    expect(sms!.body).toBe('Kasi Coffee: payment of R 123.45 received, order ORD-7782. Your voucher has been redeemed.');
    expect(await t.database.db.selectFrom('customer_emails').selectAll().where('payment_id', '=', p.payment_id).execute()).toEqual([]);
  });

  it('sends nothing for a payment without a phone, or one that failed', async () => {
    const none = await newPayment(t, shop, { customer_info: { email: 'only-mail@example.co.za' } });
    const failed = await newPayment(t, shop, { customer_info: { phone: '+27825550103' } });
    // The positive control: in the same run, a captured payment with a phone gets its SMS.
    const control = await newPayment(t, shop, { customer_info: { phone: '+27825550104' } });
    await capture(control.payment_id);
    await capture(none.payment_id);
    await press(t, failed.payment_id, 'decline');
    await waitForStatus(t, shop, failed.payment_id, 'failed');
    await t.app.services.runner.runDue([QUEUE.customerSms]);
    await eventually(async () => textsTo('+27825550104').length === 1);
    expect(await record(none.payment_id)).toBeUndefined();
    expect(await record(failed.payment_id)).toBeUndefined();
    expect(textsTo('+27825550103')).toEqual([]);
  });
});

describe('customer_info.phone is E.164', () => {
  const refused = async (phone: unknown) => {
    const res = await http(t, 'POST', '/api/v1/payments/init', { key: shop.key, body: paymentBody({ customer_info: { phone } }) });
    return { status: res.status, error: res.body.error };
  };

  it('refuses a local, short, long or extended number with VALIDATION_FAILED naming the field', async () => {
    // (A 5-digit +27 82… is a valid South African mobile number by the numbering plan libphonenumber keeps.)
    for (const phone of ['0825550101', '27825550101', '+27 21 555', '+27 82 555 0101 9', '+27825550101 ext 2', 'call me', '+999 123 4567']) {
      const res = await refused(phone);
      expect(res.status, phone).toBe(400);
      expect(res.error, phone).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'customer info, phone: must be a phone number in international (E.164) form, such as +27825550123',
      });
    }
    const gq = await gql(
      t,
      'mutation($i: InitiatePaymentInput!) { initiatePayment(input: $i) { payment { id } } }',
      { i: { amount: 12_345, currency: 'ZAR', merchantOrderId: 'gql-phone', customerInfo: { phone: '082 555 0101' } } },
      { key: shop.key },
    );
    expect(gq.body.errors?.[0]).toMatchObject({ message: expect.stringContaining('customer info, phone: must be a phone number in international (E.164) form'), extensions: { code: 'VALIDATION_FAILED' } });
  });

  it('keeps a valid number in E.164, without the spaces it was written with', async () => {
    const p = await newPayment(t, shop, { customer_info: { phone: '+27 (82) 555-0199' } });
    const row = await t.database.db.selectFrom('payments').select('customer_phone').where('id', '=', p.payment_id).executeTakeFirstOrThrow();
    expect(row.customer_phone).toBe('+27825550199');
  });
});

describe('a gateway that fails', () => {
  it('a 5xx is retried with backoff, and the SMS goes once the gateway is back; the payment is untouched', async () => {
    gateway.refuse(1, 503, '+27825550110');
    const p = await newPayment(t, shop, { intent_type: 'purchase', customer_info: { phone: '+27825550110' } });
    await capture(p.payment_id);
    const first = await settledTry(p.payment_id, 1);
    expect(first.record).toMatchObject({ status: 'pending', last_error: expect.stringContaining('503 Service Unavailable') });
    expect(first.job).toMatchObject({ status: 'queued' });
    expect(first.job!.run_at.getTime()).toBeGreaterThan(Date.now() + 2_000);
    expect(textsTo('+27825550110')).toEqual([]);
    // The payment is captured, its voucher issued, its event recorded, whatever the gateway says.
    const payment = (await http(t, 'GET', `/api/v1/payments/${p.payment_id}`, { key: shop.key })).body.data;
    expect(payment).toMatchObject({ status: 'captured', voucher_code: expect.stringMatching(/^\d{4}-\d{4}-\d{4}-\d{4}$/) });

    await dueNow(p.payment_id);
    const second = await settledTry(p.payment_id, 2);
    expect(second.record).toMatchObject({ status: 'sent', last_error: null });
    expect(textsTo('+27825550110')).toHaveLength(1);
    expect(textsTo('+27825550110')[0]!.body).toContain(`Voucher code: ${payment.voucher_code}`);
  });

  it('an unreachable gateway, 429 and 401 (credentials an operator fixes) are retried, not failed; payments go on being captured', async () => {
    for (const [phone, fail, expected] of [
      ['+27825550111', () => gateway.refuse(1, 429, '+27825550111'), '429 Too Many Requests'],
      ['+27825550112', () => gateway.refuse(1, 401, '+27825550112'), '401 Authentication Failed'],
      ['+27825550113', () => gateway.down(), 'SMS gateway unreachable'],
    ] as const) {
      fail();
      const p = await newPayment(t, shop, { customer_info: { phone } });
      const captured = await op(t, `mutation { settlePayment(id: "${p.payment_id}", outcome: CAPTURED) { payment { status } } }`);
      expect(captured.settlePayment.payment.status).toBe('CAPTURED');
      const first = await settledTry(p.payment_id, 1);
      gateway.down(false);
      expect(first.record, phone).toMatchObject({ status: 'pending', last_error: expect.stringContaining(expected) });
      expect(first.job, phone).toMatchObject({ status: 'queued' });
      const event = await t.database.db.selectFrom('events').select('type').where('payment_id', '=', p.payment_id).where('type', '=', 'payment.captured').execute();
      expect(event).toHaveLength(1);
    }
  });

  it('a number the gateway will not send to (FAILED.BLOCKED) is final at once', async () => {
    gateway.block('+27825550114');
    const p = await newPayment(t, shop, { customer_info: { phone: '+27825550114' } });
    await capture(p.payment_id);
    const first = await settledTry(p.payment_id, 1);
    expect(first.record).toMatchObject({ status: 'failed', last_error: expect.stringContaining('FAILED.BLOCKED') });
    expect(first.job).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('gives up after 7 tries (failed, listed), and `zarpay payment notify` sends it again', async () => {
    gateway.refuse(7, 500, '+27825550115');
    const p = await newPayment(t, shop, { intent_type: 'purchase', customer_info: { phone: '+27825550115' } });
    await capture(p.payment_id);
    let tries = 1;
    await settledTry(p.payment_id, 1);
    while ((await jobOf(p.payment_id))!.status !== 'failed') {
      expect(tries, 'tries are bounded').toBeLessThan(20);
      await dueNow(p.payment_id);
      await settledTry(p.payment_id, ++tries);
    }
    expect(tries).toBe(7);
    const listed = await op(t, `{ jobs(queue: "${QUEUE.customerSms}", status: FAILED) { key attempts lastError } }`);
    expect(listed.jobs).toContainEqual({ key: p.payment_id, attempts: 7, lastError: expect.stringContaining('500 Internal Server Error') });
    expect(textsTo('+27825550115')).toEqual([]);

    const resent = await op(t, `mutation($id: UUID!) { notifyPayment(id: $id, channels: [SMS]) { channels { channel state } } }`, { id: p.payment_id });
    expect(resent.notifyPayment.channels).toEqual([{ channel: 'SMS', state: 'queued' }]);
    const [sms] = await eventually(async () => (textsTo('+27825550115').length ? textsTo('+27825550115') : null), 15_000);
    expect(sms!.body).toContain('Voucher code: ');
    expect(await eventually(async () => ((await record(p.payment_id))?.status === 'sent' ? record(p.payment_id) : null))).toMatchObject({ resends: 1, attempts: 8 });
  });

  it('notify without channels resends on every channel that is on and has an address (here SMS only)', async () => {
    const p = await newPayment(t, shop, { customer_info: { email: 'both@example.co.za', phone: '+27825550116' } });
    await capture(p.payment_id);
    // Sent and its outcome written: a runner still finishing it would answer 'sending'.
    await eventually(async () => ((await record(p.payment_id))?.status === 'sent' ? true : null), 10_000);
    expect(textsTo('+27825550116')).toHaveLength(1);
    const resent = await op(t, `mutation($id: UUID!) { notifyPayment(id: $id) { channels { channel state } } }`, { id: p.payment_id });
    expect(resent.notifyPayment.channels).toEqual([{ channel: 'SMS', state: 'queued' }]);
    await eventually(async () => (textsTo('+27825550116').length === 2 ? true : null), 10_000);
    const email = await gql(t, `mutation($id: UUID!) { notifyPayment(id: $id, channels: [EMAIL]) { channels { channel } } }`, { id: p.payment_id }, { operator: true });
    expect(email.body.errors?.[0]).toMatchObject({ message: 'channels: e-mail is off (SMTP_URL is not set)', extensions: { code: 'VALIDATION_FAILED' } });
    const noPhone = await newPayment(t, shop, { customer_info: { email: 'mail-only@example.co.za' } });
    await capture(noPhone.payment_id);
    const nothing = await gql(t, `mutation($id: UUID!) { notifyPayment(id: $id) { channels { channel } } }`, { id: noPhone.payment_id }, { operator: true });
    expect(nothing.body.errors?.[0]).toMatchObject({ message: expect.stringContaining('nothing to send'), extensions: { code: 'VALIDATION_FAILED' } });
  });
});

describe('zarpay payment notify (the operator CLI)', { timeout: 60_000 }, () => {
  it('sends the SMS again and prints what it queued; a channel that is off is VALIDATION_FAILED', async () => {
    const env = { ZARPAY_URL: t.url, OPERATOR_TOKEN: t.config.operatorToken };
    const p = await newPayment(t, shop, { customer_info: { phone: '+27825550140' } });
    await capture(p.payment_id);
    // Sent and its outcome written: a runner still finishing it would answer 'sending'.
    await eventually(async () => ((await record(p.payment_id))?.status === 'sent' ? true : null), 10_000);
    expect(textsTo('+27825550140')).toHaveLength(1);
    const notified = await zarpay(['payment', 'notify', p.payment_id, '--sms'], env);
    expect(notified.code, notified.stderr).toBe(0);
    expect(notified.json).toEqual({ payment_id: p.payment_id, channels: [{ channel: 'sms', state: 'queued' }] });
    await eventually(async () => (textsTo('+27825550140').length === 2 ? true : null), 10_000);
    const off = await zarpay(['payment', 'notify', p.payment_id, '--email'], env);
    expect(off.code).toBe(1);
    expect(off.json).toMatchObject({ code: 'VALIDATION_FAILED', message: 'channels: e-mail is off (SMTP_URL is not set)' });
  });
});

describe('the BulkSMS adapter against the double', () => {
  const sms = { to: '+27825550120', body: 'hello', reference: 'ref-1' };
  const refusal = async (send: () => Promise<unknown>) => {
    try {
      await send();
    } catch (e) {
      return e as SmsRefused;
    }
    throw new Error('sent');
  };

  it('sends with Basic auth and returns the gateway id; classifies each refusal', async () => {
    const port = bulkSms({ url: gateway.url, apiKey: gateway.apiKey });
    const { id } = await port.send(sms);
    expect(gateway.received.find((m) => m.id === id)).toMatchObject({ to: '+27825550120', body: 'hello', userSuppliedId: 'ref-1' });
    const wrongKey = await refusal(() => bulkSms({ url: gateway.url, apiKey: 'zarpay-token:wrong' }).send(sms));
    expect(wrongKey).toMatchObject({ name: 'SmsRefused', status: 401, permanent: false, message: 'SMS gateway: 401 Authentication Failed: the username or password is not valid' });
    for (const status of [403, 429, 500, 502, 503] as const) {
      gateway.refuse(1, status, sms.to);
      expect(await refusal(() => port.send(sms)), String(status)).toMatchObject({ status, permanent: false });
    }
    const bad = await refusal(() => port.send({ ...sms, to: 'not-a-number' }));
    expect(bad).toMatchObject({ status: 400, permanent: true });
    const wrongPath = await refusal(() => bulkSms({ url: gateway.url.replace('/v1/messages', '/v2/nothing'), apiKey: gateway.apiKey }).send(sms));
    expect(wrongPath).toMatchObject({ status: 404, permanent: false });
    const closed = await refusal(() => bulkSms({ url: 'http://127.0.0.1:9/v1/messages', apiKey: gateway.apiKey }).send(sms));
    expect(closed).toMatchObject({ permanent: false, message: expect.stringContaining('unreachable') });
    expect(closed.status).toBeUndefined();
  });
});

describe('the message text', () => {
  const facts = {
    paymentId: '3f1c9a52-8a43-4c1e-9a57-5d2f0e2b7c11',
    merchantName: 'Kasi Coffee',
    amountCents: 300_000,
    merchantOrderId: 'ORD-1',
    intentType: 'purchase' as const,
    description: null,
    voucherCode: '1234-5678-9012-3456',
    paidAt: new Date('2026-11-25T10:00:00Z'),
  };

  it('fits one GSM-7 SMS whatever the merchant wrote, and always carries the whole voucher code', () => {
    const long = confirmationSms({ ...facts, merchantName: 'Ñandú’s “Very” Long — Café and Bakery of Soweto Extension 12 ☕', merchantOrderId: 'O'.repeat(255) });
    expect(long.length).toBeLessThanOrEqual(SMS_LIMIT);
    expect(isGsm7(long)).toBe(true);
    expect(long).toContain('Voucher code: 1234-5678-9012-3456');
    expect(long).toBe(`Ñandu's "Very" Long - Café and Bakery of: payment of R 3000.00 received, order ${'O'.repeat(30)}. Voucher code: 1234-5678-9012-3456`);
    expect(gsm7('Crème brûlée\nà la carte')).toBe('Crème brulée à la carte');
    expect(confirmationSms({ ...facts, merchantName: 'A' })).toBe('A: payment of R 3000.00 received, order ORD-1. Voucher code: 1234-5678-9012-3456. Anyone with this code can use it.');
  });

  it('carries no link, whatever the merchant put in its name or order id: schemes go, domains and addresses are broken up', () => {
    const tricks = ['https://evil.example/x', 'evil.example/x', 'www.evil.co.za', 'WWW.Evil.CO.ZA/pay', 'hXXps://pay.evil.com', 'pay@evil.com', '10.0.0.1/login', 'evil.co.za?x=1'];
    for (const trick of tricks) {
      for (const text of [confirmationSms({ ...facts, merchantOrderId: trick }), confirmationSms({ ...facts, merchantName: trick })]) {
        expect(text, trick).not.toMatch(/:\/\//);
        // A dot between a name and a label (evil.example, co.za) is what phones make links of.
        expect(text, trick).not.toMatch(/[\p{L}\p{N}]\.\p{L}/u);
        expect(text, trick).not.toMatch(/\d\.\d+\.\d+\.\d/);
        expect(text, trick).toContain('Voucher code: 1234-5678-9012-3456');
      }
    }
    expect(confirmationSms({ ...facts, merchantOrderId: 'https://evil.example/x' })).toContain('order evil example/x.');
    expect(confirmationSms({ ...facts, merchantOrderId: 'evil.example/x' })).toContain('order evil example/x.');
    expect(confirmationSms({ ...facts, merchantName: 'www.evil.co.za' })).toMatch(/^www evil co za: payment of R 3000\.00/);
    // Order ids with dots that are no domain stay as written.
    expect(confirmationSms({ ...facts, merchantOrderId: 'INV.2026.0042' })).toContain('order INV.2026.0042.');
  });
});

describe('settings', () => {
  const base = { SERVICE_ENV: 'tst', DATA_DIR: '/tmp/zarpay-sms-settings' };
  it('SMS_URL and SMS_API_KEY go together; https in prd; the key is token-id:token-secret', () => {
    expect(loadConfig({ ...base }).sms).toBeNull();
    expect(loadConfig({ ...base, SMS_URL: 'https://api.bulksms.com/v1/messages', SMS_API_KEY: 'id:secret' }).sms).toEqual({ url: 'https://api.bulksms.com/v1/messages', apiKey: 'id:secret' });
    expect(() => loadConfig({ ...base, SMS_URL: 'https://api.bulksms.com/v1/messages' })).toThrow('SMS_URL and SMS_API_KEY are set together');
    expect(() => loadConfig({ ...base, SMS_URL: 'https://api.bulksms.com/v1/messages', SMS_API_KEY: 'no-colon' })).toThrow('SMS_API_KEY must be the BulkSMS API token as token-id:token-secret');
    const prd = { SERVICE_ENV: 'prd', OPERATOR_TOKEN: 'o'.repeat(32), SERVICE_SECRET: 's'.repeat(32), DATABASE_URL: 'postgres://x/y', PUBLIC_BASE_URL: 'https://pay.example', YOCO_SECRET_KEY: 'sk_test_x', YOCO_WEBHOOK_SECRET: 'whsec_AAAA' };
    expect(() => loadConfig({ ...prd, SMS_URL: 'http://api.bulksms.com/v1/messages', SMS_API_KEY: 'id:secret' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...prd, SMS_URL: 'http://api.bulksms.com/v1/messages', SMS_API_KEY: 'id:secret' })).toThrow('SMS_URL must be an https address in prd');
    expect(loadConfig({ ...prd, SMS_URL: 'https://api.bulksms.com/v1/messages', SMS_API_KEY: 'id:secret' }).sms?.url).toBe('https://api.bulksms.com/v1/messages');
  });

  // A second service over a fresh database: slow to start on a loaded machine with the embedded one.
  it('without SMS_URL nothing is queued or sent', { timeout: 60_000 }, async () => {
    // E-mail on (to a server that is not there) as the positive control: the capture queues its
    // confirmations, and only the SMS, which is off, is left out.
    const quiet = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '50', SMTP_URL: 'smtp://127.0.0.1:9', SMTP_FROM: 'zarpay <no-reply@zarpay.example>' });
    try {
      expect(quiet.app.services.runner.queueNames).not.toContain(QUEUE.customerSms);
      const m = await createMerchant(quiet);
      const p = await newPayment(quiet, m, { customer_info: { phone: '+27825550130', email: 'someone@example.co.za' } });
      await op(quiet, `mutation { settlePayment(id: "${p.payment_id}", outcome: CAPTURED) { payment { id } } }`);
      expect(await quiet.database.db.selectFrom('customer_emails').select('payment_id').execute()).toEqual([{ payment_id: p.payment_id }]);
      expect(await quiet.database.db.selectFrom('customer_sms').selectAll().execute()).toEqual([]);
      expect(await quiet.database.db.selectFrom('jobs').selectAll().where('queue', '=', QUEUE.customerSms).execute()).toEqual([]);
    } finally {
      await quiet.close();
    }
  });
});
