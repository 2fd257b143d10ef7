import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE } from '../src/domain/jobs.ts';
import { isPermanent, type MailTransport, smtpMail } from '../src/outside/mail.ts';
import { createServices } from '../src/runtime.ts';
import { borrowed, startApp, type TestApp } from './support/app.ts';
import { createMerchant, gql, http, op, type TestMerchant } from './support/client.ts';
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
    // The positive control: in the same run, a captured payment with an address gets its e-mail.
    const control = await newPayment(t, shop, { customer_info: { email: 'control@example.co.za' } });
    await op(t, `mutation { settlePayment(id: "${control.payment_id}", outcome: CAPTURED) { payment { id } } }`);
    await op(t, `mutation { settlePayment(id: "${none.payment_id}", outcome: CAPTURED) { payment { id } } }`);
    await press(t, failed.payment_id, 'decline');
    await waitForStatus(t, shop, failed.payment_id, 'failed');
    await press(t, cancelled.payment_id, 'cancel');
    await t.app.services.runner.runDue([QUEUE.customerEmail]);
    await eventually(async () => mailsTo('control@example.co.za').length === 1);
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
    // SMS on (to a gateway that is not there) as the positive control: the capture queues its
    // confirmations, and only the e-mail, which is off, is left out.
    const quiet = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '50', SMS_URL: 'http://127.0.0.1:9/v1/messages', SMS_API_KEY: 'id:secret' });
    try {
      expect(quiet.app.services.runner.queueNames).not.toContain(QUEUE.customerEmail);
      const m = await createMerchant(quiet);
      const p = await newPayment(quiet, m, { customer_info: { email: 'nobody@example.co.za', phone: '+27825550140' } });
      await op(quiet, `mutation { settlePayment(id: "${p.payment_id}", outcome: CAPTURED) { payment { id } } }`);
      expect(await quiet.database.db.selectFrom('customer_sms').select('payment_id').execute()).toEqual([{ payment_id: p.payment_id }]);
      expect(await quiet.database.db.selectFrom('customer_emails').selectAll().execute()).toEqual([]);
      expect(await quiet.database.db.selectFrom('jobs').selectAll().where('queue', '=', QUEUE.customerEmail).execute()).toEqual([]);
    } finally {
      await quiet.close();
    }
  });
});

/**
 * Issue 26: a mail server that refuses zarpay's login or greeting is a fault an operator fixes;
 * the confirmation (for `purchase`, the voucher code) must still go once it is fixed. Only a 5xx
 * to RCPT TO ends it at once. Tries are bounded; then the job is `failed`, and an operator can
 * send it again.
 */
describe('mail server failures, tries and resends', () => {
  let box: Awaited<ReturnType<typeof startSmtpServer>>;
  let app: TestApp;
  let m: TestMerchant;
  beforeAll(async () => {
    box = await startSmtpServer(0, { login: 'zarpay:mail-password' });
    app = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '50', SMTP_URL: box.url, SMTP_FROM: 'Kasi Payments <pay@kasi.example>' });
    m = await createMerchant(app, { name: 'Kasi Books' });
  });
  afterAll(async () => {
    await app?.close();
    await box?.close();
  });

  const to = (address: string) => box.received.filter((x) => x.to === address);
  const record = async (paymentId: string) => (await app.database.db.selectFrom('customer_emails').selectAll().where('payment_id', '=', paymentId).execute())[0];
  const jobOf = (paymentId: string) =>
    app.database.db.selectFrom('jobs').selectAll().where('queue', '=', QUEUE.customerEmail).where('key', '=', paymentId).executeTakeFirst();
  /** Waits until the try under way (or just made) is recorded: the job is no longer held. */
  const settledTry = (paymentId: string, attempts: number) =>
    eventually(async () => {
      const [r, j] = [await record(paymentId), await jobOf(paymentId)];
      return r && r.attempts === attempts && (!j || j.locked_by === null) ? { record: r, job: j } : null;
    }, 15_000);
  /** Makes the job's next try due now instead of after its backoff. */
  const dueNow = (paymentId: string) =>
    app.database.db.updateTable('jobs').set({ run_at: new Date() }).where('queue', '=', QUEUE.customerEmail).where('key', '=', paymentId).execute();
  const captured = async (email: string, extra: Record<string, unknown> = {}) => {
    const p = await newPayment(app, m, { intent_type: 'purchase', customer_info: { email }, ...extra });
    await op(app, `mutation { settlePayment(id: "${p.payment_id}", outcome: CAPTURED) { payment { id } } }`);
    return p.payment_id;
  };

  it('a 5xx to the login is retried, and the e-mail goes once the server takes the login again', async () => {
    box.refuseLogin(true);
    const id = await captured('login@example.co.za');
    const first = await settledTry(id, 1);
    expect(first.record).toMatchObject({ status: 'pending', last_error: expect.stringContaining('535') });
    expect(first.job).toMatchObject({ status: 'queued', last_error: expect.stringContaining('AUTH') });
    expect(first.job!.run_at.getTime()).toBeGreaterThan(Date.now());
    expect(to('login@example.co.za')).toEqual([]);

    box.refuseLogin(false);
    await dueNow(id);
    const sent = await settledTry(id, 2);
    expect(sent.record).toMatchObject({ status: 'sent', last_error: null });
    expect(sent.job).toBeUndefined();
    const [mail] = to('login@example.co.za');
    const code = (await http(app, 'GET', `/api/v1/payments/${id}`, { key: m.key })).body.data.voucher_code;
    expect(mail!.text).toContain(`Your voucher code: ${code}`);
  });

  it('a 5xx greeting (no mail service there) is retried too, not failed', async () => {
    box.refuseGreeting(true);
    try {
      const id = await captured('greeting@example.co.za');
      const first = await settledTry(id, 1);
      expect(first.record).toMatchObject({ status: 'pending', last_error: expect.stringContaining('554') });
      expect(first.job).toMatchObject({ status: 'queued' });
    } finally {
      box.refuseGreeting(false);
    }
  });

  it('a 5xx to RCPT TO (no such mailbox) is final at once', async () => {
    box.rejectRecipient('nobody-here@example.co.za');
    const id = await captured('nobody-here@example.co.za');
    const first = await settledTry(id, 1);
    expect(first.record).toMatchObject({ status: 'failed', last_error: expect.stringContaining('550') });
    expect(first.job).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('gives up after a bounded number of tries: failed, listed among failed jobs, and the operator sends it again', async () => {
    box.refuseLogin(true);
    const id = await captured('bounded@example.co.za');
    let tries = 1;
    await settledTry(id, 1);
    for (;;) {
      const job = await jobOf(id);
      if (job!.status === 'failed') break;
      expect(tries, 'tries are bounded').toBeLessThan(20);
      await dueNow(id);
      await settledTry(id, ++tries);
    }
    // 1 try and 6 retries (5 s, 1 min, 10 min, 1 h, 4 h, 12 h): about 17 hours of a server refusing.
    expect(tries).toBe(7);
    expect(await record(id)).toMatchObject({ status: 'failed', attempts: 7, last_error: expect.stringContaining('535') });
    const listed = await op(app, `{ jobs(queue: "${QUEUE.customerEmail}", status: FAILED) { key attempts lastError } }`);
    expect(listed.jobs).toContainEqual({ key: id, attempts: 7, lastError: expect.stringContaining('535') });
    expect(to('bounded@example.co.za')).toEqual([]);

    // Mended; the operator sends it again: a fresh job, due now, its tries counted afresh.
    box.refuseLogin(false);
    const resent = await op(app, `mutation { notifyPayment(id: "${id}") { payment { id status } channels { channel state } } }`);
    expect(resent.notifyPayment).toEqual({ payment: { id, status: 'CAPTURED' }, channels: [{ channel: 'EMAIL', state: 'queued' }] });
    await eventually(async () => (to('bounded@example.co.za').length === 1 ? true : null), 15_000);
    const sent = await eventually(async () => ((await record(id))?.status === 'sent' ? record(id) : null));
    expect(sent).toMatchObject({ status: 'sent', resends: 1, last_error: null });
    expect(await jobOf(id)).toBeUndefined();
  });

  it('notify sends a confirmation that went out once again, as a new message; refuses what has nothing to send', async () => {
    const id = await captured('again@example.co.za');
    await eventually(async () => ((await record(id))?.status === 'sent' ? true : null), 15_000);
    const again = await op(app, `mutation($id: UUID!) { notifyPayment(id: $id, channels: [EMAIL]) { channels { channel state } } }`, { id });
    expect(again.notifyPayment.channels).toEqual([{ channel: 'EMAIL', state: 'queued' }]);
    const mails = await eventually(async () => (to('again@example.co.za').length === 2 ? to('again@example.co.za') : null), 15_000);
    expect(mails[1]!.text).toBe(mails[0]!.text);
    // A message of its own: a mail system must not fold it into the first as a repeat.
    expect(mails[0]!.messageId).toBe(`<payment-${id}@localhost>`);
    expect(mails[1]!.messageId).toBe(`<payment-${id}.1@localhost>`);
    const audit = await app.database.db.selectFrom('audit_log').selectAll().where('payment_id', '=', id).where('action', '=', 'payment.notify').execute();
    expect(audit).toEqual([expect.objectContaining({ actor: 'operator', detail: { channels: ['email'] } })]);

    const open = await newPayment(app, m, { customer_info: { email: 'open@example.co.za' } });
    const notCaptured = await gql(app, `mutation($id: UUID!) { notifyPayment(id: $id) { channels { channel } } }`, { id: open.payment_id }, { operator: true });
    expect(notCaptured.body.errors?.[0]).toMatchObject({ extensions: { code: 'INVALID_STATUS_TRANSITION' } });
    const sms = await gql(app, `mutation($id: UUID!) { notifyPayment(id: $id, channels: [SMS]) { channels { channel } } }`, { id }, { operator: true });
    expect(sms.body.errors?.[0]).toMatchObject({ message: 'channels: SMS is off (SMS_URL is not set)', extensions: { code: 'VALIDATION_FAILED' } });
    const unknown = await gql(app, `mutation { notifyPayment(id: "0b6f3c4e-1d2a-4b5c-8d9e-0f1a2b3c4d5e") { channels { channel } } }`, {}, { operator: true });
    expect(unknown.body.errors?.[0]).toMatchObject({ extensions: { code: 'PAYMENT_NOT_FOUND' } });
    const merchant = await gql(app, `mutation($id: UUID!) { notifyPayment(id: $id) { channels { channel } } }`, { id }, { key: m.key });
    expect(merchant.body.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    expect(to('again@example.co.za')).toHaveLength(2);
  });
});

describe('which SMTP failures are final (reply class, command, enhanced code)', () => {
  it('only a 5xx to RCPT TO about the address itself, or an address that cannot be sent at all', () => {
    const final = [
      { message: 'x', code: 'EENVELOPE', command: 'RCPT TO', responseCode: 550, response: '550 5.1.1 No such user here' },
      { message: 'x', code: 'EENVELOPE', command: 'RCPT TO', responseCode: 552, response: '552 5.2.2 Mailbox full' },
      { message: 'x', code: 'EENVELOPE', command: 'RCPT TO', responseCode: 550, response: '550 Requested action not taken: mailbox unavailable' },
      { message: 'x', code: 'EENVELOPE', command: 'API' },
    ];
    const retried = [
      { message: 'x', code: 'EENVELOPE', command: 'RCPT TO', responseCode: 550, response: '550 5.7.1 Relaying denied' },
      { message: 'x', code: 'EENVELOPE', command: 'RCPT TO', responseCode: 450, response: '450 4.2.1 Try again later' },
      { message: 'x', code: 'EAUTH', command: 'AUTH PLAIN', responseCode: 535, response: '535 5.7.8 Authentication credentials invalid' },
      { message: 'x', code: 'ECONNECTION', command: 'CONN', responseCode: 554, response: '554 no SMTP service here' },
      { message: 'x', code: 'EENVELOPE', command: 'MAIL FROM', responseCode: 553, response: '553 5.1.8 Sender address rejected' },
      { message: 'x', code: 'EMESSAGE', command: 'DATA', responseCode: 554, response: '554 5.7.1 Message refused' },
      { message: 'x', code: 'ESOCKET', command: 'CONN' },
      { message: 'x', code: 'ETIMEDOUT', command: 'CONN' },
    ];
    for (const f of final) expect(isPermanent(f), f.response ?? f.command).toBe(true);
    for (const f of retried) expect(isPermanent(f), f.response ?? f.command).toBe(false);
  });
});

describe('a mail server that never answers, at shutdown', () => {
  it('the sending gets the job\'s abort signal: it ends at once, and the e-mail is given back untried', async () => {
    const stalled = await startSmtpServer();
    stalled.stall();
    // The file's own runner stands aside: a second service, whose mail port is watched, sends.
    await t.app.services.runner.stop();
    const smtpSettings = { url: stalled.url, from: 'pay@kasi.example' };
    const real = smtpMail(smtpSettings);
    const signals: (AbortSignal | undefined)[] = [];
    const mail: MailTransport = {
      send: (m, signal) => {
        signals.push(signal);
        return real.send(m, signal);
      },
      close: () => real.close(),
    };
    const sender = createServices({ ...t.config, smtp: smtpSettings }, borrowed(t.database), { mail });
    await sender.start({ queues: [QUEUE.customerEmail] });
    try {
      const p = await newPayment(t, shop, { customer_info: { email: 'patient@example.co.za' } });
      await op(t, `mutation { settlePayment(id: "${p.payment_id}", outcome: CAPTURED) { payment { id } } }`);
      // Connected, and waiting for a greeting that will not come (nodemailer would wait 10 s).
      await eventually(async () => (stalled.counts.connections > 0 && signals.length > 0 ? true : null), 10_000);
      // No grace: the abort at once.
      await sender.runner.stop(0);
      expect(signals[0]).toBeInstanceOf(AbortSignal);
      expect(signals[0]!.aborted).toBe(true);
      // Given back untried (not given up on, as a run that ignored its abort would be): due now, for the next runner.
      const job = await t.database.db.selectFrom('jobs').selectAll().where('queue', '=', QUEUE.customerEmail).where('key', '=', p.payment_id).executeTakeFirstOrThrow();
      expect(job).toMatchObject({ status: 'queued', attempts: 0, last_error: null, locked_by: null, locked_until: null });
    } finally {
      await sender.stop();
      await stalled.close();
    }
  });

  it('the SMTP port ends an aborted sending with the abort itself, not as a refusal to retry', async () => {
    const stalled = await startSmtpServer();
    stalled.stall();
    const port = smtpMail({ url: stalled.url, from: 'pay@kasi.example' });
    const abort = new AbortController();
    try {
      const sending = port.send({ from: 'pay@kasi.example', to: 'x@example.co.za', subject: 's', text: 't', messageId: '<m@localhost>' }, abort.signal).catch((e: unknown) => e);
      await eventually(async () => (stalled.counts.connections > 0 ? true : null), 10_000);
      abort.abort();
      expect(await sending).toMatchObject({ name: 'AbortError' });
    } finally {
      port.close();
      await stalled.close();
    }
  });
});
