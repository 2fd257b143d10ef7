import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, usingPostgres } from './support/app.ts';
import { ROOT, zarpay } from './support/processes.ts';
import { callService, OPERATOR_TOKEN, SERVICE_SECRET, type ServiceProcess, spawnService } from './support/process.ts';
import { QUEUE } from '../src/domain/jobs.ts';
import { drained, eventually } from './support/receiver.ts';
import { startSmtpServer } from './support/smtp.ts';
import { startYocoDouble, type YocoDouble, yocoSettings } from './support/yoco-double.ts';

/**
 * Nothing is stuck, even across `kill -9` (issue 14, item 3): the service dies after the customer
 * was sent to pay and before the provider's notification could reach it; the next process
 * finishes the payment from the provider's status, once, with one ledger posting, one event and
 * one e-mail, and notifications that still arrive afterwards change nothing.
 */
describe.skipIf(!usingPostgres)('payments across kill -9 (needs PostgreSQL: set DATABASE_URL)', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let yoco: YocoDouble;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  const running: ServiceProcess[] = [];
  const service = async () => {
    const s = await spawnService({
      DATABASE_URL: db.url!,
      ...yocoSettings(yoco),
      RECONCILE_AFTER_MS: '1000',
      SANDBOX_CONFIRM_DELAY_MS: '2500',
      SMTP_URL: smtp.url,
    });
    running.push(s);
    return s;
  };

  beforeAll(async () => {
    db = await freshDatabase();
    yoco = await startYocoDouble();
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    for (const s of running) await s.stop();
    await yoco?.close();
    await smtp?.close();
    await db?.handle.close();
    await db?.drop();
  });

  const call = callService;
  const operator = async (s: ServiceProcess, query: string) =>
    (
      await call(s, '/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${OPERATOR_TOKEN}` },
        body: JSON.stringify({ query }),
      })
    ).json().data;
  /** The customer on the hosted page: reads the form token, presses a button. */
  const press = async (s: ServiceProcess, id: string, button: 'pay' | 'decline') => {
    const token = /name="token" value="([0-9a-f]{64})"/.exec((await call(s, `/pay/${id}`)).text)![1]!;
    return call(s, `/pay/${id}/${button}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${token}` });
  };
  const rows = (table: 'events' | 'ledger_transactions' | 'customer_emails', paymentId: string) =>
    db.handle.db.selectFrom(table).selectAll().where('payment_id', '=', paymentId).execute();

  it('kill -9 between the customer\'s redirect and Yoco\'s notification: the next process finishes the payment from Yoco\'s status', async () => {
    const first = await service();
    const created = await operator(first, 'mutation { createMerchant(input: { name: "Crash Cafe", autoTopup: true, paymentFeeBps: 200 }) { merchant { id } fullKey } }');
    const key = created.createMerchant.fullKey as string;
    const init = await call(first, '/api/v1/payments/init', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 25_000, currency: 'ZAR', merchant_order_id: 'CRASH-1', intent_type: 'purchase', customer_info: { email: 'crash@example.co.za' } }),
    });
    const id = init.json().data.payment_id as string;

    const pressed = await press(first, id, 'pay');
    expect(pressed.location).toBe(`/pay/${id}/checkout`);
    const handOff = await call(first, `/pay/${id}/checkout`);
    const checkoutUrl = /content="0;url=([^"]+)"/.exec(handOff.text)![1]!;
    const checkoutId = checkoutUrl.split('/').at(-1)!;
    // The customer is on Yoco's page now. zarpay dies.
    await first.kill9();

    // The customer pays; Yoco's notification finds nobody home (and its later retries are lost too).
    yoco.checkoutPage(checkoutId);
    yoco.pay(checkoutId);
    const lost = await yoco.notify(checkoutId, { to: `${first.url}/providers/yoco/webhook` });
    expect(lost[0]!.error).toBeDefined();
    const [payment] = await db.handle.db.selectFrom('payments').select('status').where('id', '=', id).execute();
    expect(payment!.status).toBe('awaiting_webhook');

    const second = await service();
    const done = await eventually(async () => {
      const res = await call(second, `/api/v1/payments/${id}`, { key });
      return res.json().data.status === 'captured' ? res.json().data : null;
    }, 20_000);
    expect(done).toMatchObject({ net_amount_cents: 24_500, latest_attempt: { status: 'succeeded', provider: 'yoco', provider_ref: checkoutId } });
    const [mail] = await eventually(async () => (smtp.received.length ? smtp.received : null));
    expect(mail!.text).toContain(`Your voucher code: ${done.voucher_code}`);
    const audit = await operator(second, `{ auditLog(paymentId: "${id}") { actor action } }`);
    expect(audit.auditLog).toEqual([{ actor: 'system:reconciler', action: 'payment.captured' }]);

    // Yoco's notification arrives after all, twice, late: nothing changes.
    expect(await yoco.notify(checkoutId, { to: `${second.url}/providers/yoco/webhook`, times: 2 })).toEqual([{ status: 200 }, { status: 200 }]);
    // What they could have queued has run: nothing more will change.
    for (const queue of [QUEUE.webhook, QUEUE.customerEmail]) await drained(db.handle.db, queue);
    expect((await call(second, `/api/v1/payments/${id}`, { key })).json().data).toEqual(done);
    expect((await rows('events', id)).map((e) => e.type)).toEqual(['payment.captured']);
    expect((await rows('ledger_transactions', id)).map((e) => e.kind)).toEqual(['payment_capture']);
    expect((await rows('customer_emails', id)).map((e) => e.status)).toEqual(['sent']);
    expect(smtp.received.filter((m) => m.to === 'crash@example.co.za')).toHaveLength(1);
    expect(second.output()).toContain('customer e-mail confirmations: on');
    await second.stop();
  }, 120_000);

  it('the sandbox\'s confirmation survives kill -9 too: it was in the database, not in a timer', async () => {
    const first = await service();
    const created = await operator(first, 'mutation { createMerchant(input: { name: "Sandbox Cafe" }) { merchant { id } fullKey } }');
    const key = created.createMerchant.fullKey as string;
    const init = await call(first, '/api/v1/payments/init', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 6_000, currency: 'ZAR', merchant_order_id: 'CRASH-2' }),
    });
    const id = init.json().data.payment_id as string;
    // "Simulate a decline" goes to the sandbox, which answers 2.5 s later; zarpay dies before.
    expect((await press(first, id, 'decline')).status).toBe(303);
    await first.kill9();
    const books = await db.handle.db.selectFrom('sandbox.checkouts').select(['ref', 'outcome']).execute();
    expect(books).toEqual([{ ref: expect.any(String), outcome: 'failed' }]);
    // Its confirmation is a job still to run.
    const jobs = await db.handle.db.selectFrom('jobs').select(['queue', 'key']).where('queue', '=', 'sandbox.confirm').execute();
    expect(jobs).toEqual([{ queue: 'sandbox.confirm', key: books[0]!.ref }]);

    const second = await service();
    await eventually(async () => ((await call(second, `/api/v1/payments/${id}`, { key })).json().data.status === 'failed' ? true : null), 20_000);
    expect((await rows('events', id)).map((e) => e.type)).toEqual(['payment.failed']);
    await second.stop();
  }, 120_000);

  it('`zarpay reconciler` alone finishes a payment whose service died, and `zarpay rotate-data-key` reseals what it sealed', async () => {
    const first = await service();
    const created = await operator(first, 'mutation { createMerchant(input: { name: "Alone Cafe" }) { merchant { id } fullKey } }');
    const key = created.createMerchant.fullKey as string;
    const init = await call(first, '/api/v1/payments/init', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 7_000, currency: 'ZAR', merchant_order_id: 'CRASH-3', intent_type: 'purchase' }),
    });
    const id = init.json().data.payment_id as string;
    await press(first, id, 'pay');
    const checkoutId = /content="0;url=[^"]*\/checkout\/([^"]+)"/.exec((await call(first, `/pay/${id}/checkout`)).text)![1]!;
    await first.kill9();
    yoco.pay(checkoutId);

    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATABASE_URL: db.url!,
      SERVICE_SECRET,
      OPERATOR_TOKEN,
      ...yocoSettings(yoco),
      RECONCILE_AFTER_MS: '1000',
    };
    const reconciler: ChildProcess = spawn(process.execPath, ['bin/zarpay.js', 'reconciler'], { cwd: ROOT, env });
    let log = '';
    reconciler.stderr!.on('data', (d) => (log += d));
    try {
      await eventually(async () => (log.includes('reconciler running') ? true : null), 30_000);
      await eventually(async () => {
        const [row] = await db.handle.db.selectFrom('payments').select('status').where('id', '=', id).execute();
        return row?.status === 'captured' ? true : null;
      }, 20_000);
    } finally {
      reconciler.kill('SIGTERM');
      const [code] = await once(reconciler, 'exit');
      expect(code, log).toBe(0);
    }
    expect(log).toContain('"providers":["yoco","sandbox"]');

    // A new data key first, the old (derived) one still opening: everything is sealed again under the new one.
    // --force: the first service, killed a moment ago, still has a fresh heartbeat (without k2).
    const rotated = await zarpay(['rotate-data-key', '--force'], { ...env, DATA_KEY: `k2:${randomBytes(32).toString('base64')}` });
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(rotated.json).toMatchObject({ ok: true, current_kid: 'k2', payout_details: {}, voucher_codes: { k2: expect.any(Number) } });
    expect(rotated.json.resealed.voucher_codes).toBeGreaterThanOrEqual(1);
    expect(Object.keys(rotated.json.voucher_codes)).toEqual(['k2']);
  }, 120_000);
});
