import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE } from '../src/domain/jobs.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, gql, http, op, type TestMerchant } from './support/client.ts';
import { eventually } from './support/receiver.ts';
import { startSmtpServer } from './support/smtp.ts';

/**
 * One-off payment requests (CONTRACT §11, docs/links.md): `requestPayment` makes a payment with
 * the customer's e-mail and e-mails the customer its page through the mail port, as a retried
 * job; bad input and a viewer change nothing.
 */

let t: TestApp;
let shop: TestMerchant;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

const REQUEST = `mutation($i: RequestPaymentInput!) {
  requestPayment(input: $i) { paymentUrl emailQueued qrCode { content imageUrl } payment { id status amount description merchantOrderId customer { email } } }
}`;
const mailsTo = (to: string) => smtp.received.filter((m) => m.to === to);
const jobsOf = (paymentId: string) => t.database.db.selectFrom('jobs').selectAll().where('queue', '=', QUEUE.paymentRequestEmail).where('key', '=', paymentId).execute();
const paymentCount = async () => Number((await t.database.db.selectFrom('payments').select((eb) => eb.fn.countAll().as('n')).where('merchant_id', '=', shop.id).executeTakeFirstOrThrow()).n);
const codeOf = (res: { body: { errors?: { extensions?: { code?: string } }[] } }) => res.body.errors?.[0]?.extensions?.code;

/** A person of the shop signed in to the dashboard: the cookie and CSRF token of their session. */
async function signedIn(email: string, role: 'OWNER' | 'VIEWER') {
  const d = await op(t, 'mutation($m: UUID, $e: String!, $r: PersonRole!) { invitePerson(merchantId: $m, email: $e, role: $r) { inviteUrl } }', { m: shop.id, e: email, r: role });
  const res = await http(t, 'POST', '/dashboard/invite', { body: { token: new URL(d.invitePerson.inviteUrl).hash.slice(1), password: 'correct horse battery' } });
  const cookies = res.headers.getSetCookie();
  const value = (name: string) => cookies.find((c) => c.startsWith(`${name}=`))!.split(';')[0]!.slice(name.length + 1);
  return { cookie: `zarpay_session=${value('zarpay_session')}`, 'x-csrf-token': value('zarpay_csrf') };
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startApp({ SMTP_URL: smtp.url, SMTP_FROM: 'Plumb Right <pay@plumb.example>' });
  shop = await createMerchant(t, { name: 'Plumb Right' });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('requestPayment', () => {
  it("makes the payment with the customer's e-mail and e-mails the customer its page; the same order id again sends nothing more", async () => {
    const input = { amountCents: 45_000, description: 'Invoice 1042: geyser valve', customerEmail: 'thandi@example.co.za', merchantOrderId: 'INV-1042' };
    const res = await gql(t, REQUEST, { i: input }, { key: shop.key });
    expect(res.body.errors).toBeUndefined();
    const made = res.body.data!.requestPayment;
    expect(made).toMatchObject({
      emailQueued: true,
      payment: { status: 'CREATED', amount: 45_000, description: 'Invoice 1042: geyser valve', merchantOrderId: 'INV-1042', customer: { email: 'thandi@example.co.za' } },
    });
    expect(made.paymentUrl).toBe(`${t.config.publicBaseUrl}/pay/${made.payment.id}`);
    expect(made.qrCode.content).toBe(made.paymentUrl);

    const [mail] = await eventually(async () => (mailsTo('thandi@example.co.za').length ? mailsTo('thandi@example.co.za') : null), 10_000);
    expect(mail!.from).toBe('"Plumb Right" <pay@plumb.example>');
    expect(mail!.subject).toBe('Plumb Right asks you to pay R 450.00');
    expect(mail!.text).toContain(`Pay here: ${made.paymentUrl}`);
    expect(mail!.text).toContain('for Invoice 1042: geyser valve');
    expect(mail!.messageId).toBe(`<payment-request-${made.payment.id}@localhost>`);
    await eventually(async () => (await jobsOf(made.payment.id)).length === 0);

    const again = (await gql(t, REQUEST, { i: input }, { key: shop.key })).body.data!.requestPayment;
    expect(again).toMatchObject({ emailQueued: false, payment: { id: made.payment.id } });
    expect(await jobsOf(made.payment.id)).toEqual([]);
    expect(await t.app.services.runner.runDue([QUEUE.paymentRequestEmail])).toBe(0);
    expect(mailsTo('thandi@example.co.za')).toHaveLength(1);
  });

  it('REST POST /api/v1/payment-requests: 201 and the e-mail, 200 for a replay, 400 VALIDATION_FAILED in the envelope for a bad address', async () => {
    const body = { amount_cents: 12_050, description: 'Tiling, bathroom', customer_email: 'rest@example.co.za', merchant_order_id: 'INV-REST-1' };
    const made = await http(t, 'POST', '/api/v1/payment-requests', { key: shop.key, body });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ status: 'created', customer_email: 'rest@example.co.za', email_queued: true });
    const [mail] = await eventually(async () => (mailsTo('rest@example.co.za').length ? mailsTo('rest@example.co.za') : null), 10_000);
    expect(mail!.text).toContain(`Pay here: ${made.body.data.payment_url}`);
    const again = await http(t, 'POST', '/api/v1/payment-requests', { key: shop.key, body });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ payment_id: made.body.data.payment_id, email_queued: false });
    const bad = await http(t, 'POST', '/api/v1/payment-requests', { key: shop.key, body: { ...body, merchant_order_id: 'INV-REST-2', customer_email: 'rest@' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'customer_email' }] });
    const payment = (await http(t, 'GET', `/api/v1/payments/${made.body.data.payment_id}`, { key: shop.key })).body.data;
    expect(payment).toMatchObject({ amount: 12_050, merchant_order_id: 'INV-REST-1', description: 'Tiling, bathroom' });
  });

  it('a server that refuses for now gets the request again later', async () => {
    smtp.refuse(1);
    const res = await gql(t, REQUEST, { i: { amountCents: 9_900, description: 'Call-out fee', customerEmail: 'retry@example.co.za' } }, { key: shop.key });
    const id = res.body.data!.requestPayment.payment.id;
    const [job] = await eventually(async () => {
      const j = await jobsOf(id);
      return j[0]?.last_error ? j : null;
    });
    expect(job!.last_error).toContain('451');
    expect(mailsTo('retry@example.co.za')).toEqual([]);
    // Due now instead of in 5 s: the retry goes through.
    await t.database.db.updateTable('jobs').set({ run_at: new Date() }).where('id', '=', job!.id).execute();
    t.app.services.runner.nudge();
    await eventually(async () => mailsTo('retry@example.co.za').length === 1);
  });

  it('a payment paid before its request could go is not asked for', async () => {
    smtp.refuse(1);
    const res = await gql(t, REQUEST, { i: { amountCents: 9_900, description: 'Paid at the door', customerEmail: 'paid@example.co.za' } }, { key: shop.key });
    const id = res.body.data!.requestPayment.payment.id;
    await eventually(async () => Boolean((await jobsOf(id))[0]?.last_error));
    await op(t, 'mutation($id: UUID!) { settlePayment(id: $id, outcome: CAPTURED) { payment { id } } }', { id });
    await t.database.db.updateTable('jobs').set({ run_at: new Date() }).where('queue', '=', QUEUE.paymentRequestEmail).where('key', '=', id).execute();
    t.app.services.runner.nudge();
    await eventually(async () => (await jobsOf(id)).length === 0);
    // Only the confirmation of the capture, not the request.
    await eventually(async () => mailsTo('paid@example.co.za').length === 1);
    expect(mailsTo('paid@example.co.za').map((m) => m.subject)).toEqual(['Your payment of R 99.00 to Plumb Right']);
  });

  it('bad input is VALIDATION_FAILED (or INVALID_AMOUNT outside the limits) on its field, and makes nothing', async () => {
    const before = await paymentCount();
    const ok = { amountCents: 10_000, description: 'Valve', customerEmail: 'x@example.co.za' };
    for (const [bad, code, field] of [
      [{ customerEmail: 'not an address' }, 'VALIDATION_FAILED', 'customerEmail'],
      [{ description: '   ' }, 'VALIDATION_FAILED', 'description'],
      [{ amountCents: 100 }, 'INVALID_AMOUNT', 'amountCents'],
      [{ amountCents: 0 }, 'INVALID_AMOUNT', 'amountCents'],
    ] as const) {
      const res = await gql(t, REQUEST, { i: { ...ok, ...bad } }, { key: shop.key });
      expect(codeOf(res), JSON.stringify(bad)).toBe(code);
      expect(JSON.stringify(res.body.errors![0]), JSON.stringify(bad)).toContain(field);
    }
    expect(await paymentCount()).toBe(before);
    expect(mailsTo('x@example.co.za')).toEqual([]);
  });

  it('a viewer is FORBIDDEN and makes nothing; an owner signed in sends it, and the audit log says so', async () => {
    const before = await paymentCount();
    const viewer = await signedIn('viewer@plumb.example', 'VIEWER');
    const input = { amountCents: 10_000, description: 'Valve', customerEmail: 'viewer-asked@example.co.za' };
    expect(codeOf(await gql(t, REQUEST, { i: input }, { headers: viewer }))).toBe('FORBIDDEN');
    expect(await paymentCount()).toBe(before);

    const owner = await signedIn('owner@plumb.example', 'OWNER');
    const res = await gql(t, REQUEST, { i: { ...input, customerEmail: 'owner-asked@example.co.za' } }, { headers: owner });
    expect(res.body.errors).toBeUndefined();
    await eventually(async () => mailsTo('owner-asked@example.co.za').length === 1);
    expect(mailsTo('viewer-asked@example.co.za')).toEqual([]);
    const log = await gql(t, '{ auditLog(first: 5) { action summary } }', {}, { headers: owner });
    expect(log.body.data.auditLog[0]).toMatchObject({ action: 'dashboard.requestPayment', summary: expect.stringContaining('e-mailed the customer a request to pay payment') });
  });
});
