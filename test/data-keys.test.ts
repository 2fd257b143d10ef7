import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boot } from '../src/boot.ts';
import { OPERATOR } from '../src/domain/actor.ts';
import { createKeyring } from '../src/domain/sealing.ts';
import { proveDataKeys } from '../src/services/data-keys.ts';
import { createServices } from '../src/runtime.ts';
import { borrowed, startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, http, op, type TestMerchant } from './support/client.ts';
import { newPayment, press, waitForStatus } from './support/payments.ts';
import { eventually } from './support/receiver.ts';
import { zarpay } from './support/processes.ts';

/**
 * Data keys that prove themselves (issue 26): a check value per kid is stored with the data, so
 * an instance given other key material under a known kid refuses to start and names the kid; a
 * value that will not open is shown as unreadable, counted, and skipped by the rotation, never a
 * failed list.
 */
const key = () => randomBytes(32).toString('base64');
const [right, wrong, next] = [key(), key(), key()];
let t: TestApp;
let shop: TestMerchant;
let lostId: string | undefined;

beforeAll(async () => {
  t = await startApp({ DATA_KEY: `k1:${right}`, SANDBOX_CONFIRM_DELAY_MS: '50' });
  shop = await createMerchant(t);
  await credit(t, shop.id, 100_000);
});
afterAll(async () => {
  await t?.close();
});

const details = (n: number) => ({ accountNumber: `1231231230${n}`, branchCode: '250655', accountHolder: `Holder ${n}`, bankName: 'FNB' });
const servicesWith = (dataKey: string) => createServices({ ...t.config, dataKeys: parseKeys(dataKey) }, borrowed(t.database));

function parseKeys(value: string) {
  return value.split(',').map((entry) => {
    const [kid, material] = entry.split(':') as [string, string];
    return { kid, key: Buffer.from(material, 'base64') };
  });
}

describe('the check value of a data key', () => {
  it('is recorded for each kid on first use, and other material under a known kid is refused, naming the kid', async () => {
    await proveDataKeys(t.database.db, createKeyring(t.config.serviceSecret, parseKeys(`k1:${right}`)));
    // Again, and with a new kid beside it: fine (the new one is recorded).
    await proveDataKeys(t.database.db, createKeyring(t.config.serviceSecret, parseKeys(`k2:${next},k1:${right}`)));
    await expect(proveDataKeys(t.database.db, createKeyring(t.config.serviceSecret, parseKeys(`k1:${wrong}`)))).rejects.toThrow(/DATA_KEY.*\bk1\b/);
    await expect(proveDataKeys(t.database.db, createKeyring(t.config.serviceSecret, parseKeys(`k3:${key()},k2:${wrong}`)))).rejects.toThrow(/\bk2\b/);
    // A refused start records nothing of its keys: k3 is still free to be anything.
    await proveDataKeys(t.database.db, createKeyring(t.config.serviceSecret, parseKeys(`k3:${key()}`)));
  });

  it('stops start-up (boot) with one line naming the kid', async (ctx) => {
    if (!t.databaseUrl) ctx.skip(); // boot opens DATABASE_URL: PostgreSQL only
    const env = { SERVICE_ENV: 'tst', LOG_LEVEL: 'silent', DATABASE_URL: t.databaseUrl!, SERVICE_SECRET: t.config.serviceSecret, DATA_DIR: t.config.dataDir };
    const ok = await boot('test', { ...env, DATA_KEY: `k1:${right}` });
    await ok.services.stop();
    await expect(boot('test', { ...env, DATA_KEY: `k1:${wrong}` })).rejects.toThrow(/k1/);
  });
});

describe('a value that will not open', () => {
  it('is shown as unreadable, counted in stats and /metrics, and skipped by the rotation, which finishes the rest', async () => {
    const good = servicesWith(`k1:${right}`);
    const actor = await good.keys.authenticate(shop.key);
    const readable = await good.payouts.create(actor, { amountCents: 1_000, currency: 'ZAR', payoutMethod: 'eft', paymentDetails: details(1) });
    // What an instance started with other material under k1 sealed before checks existed.
    const slip = servicesWith(`k1:${wrong}`);
    const lost = await slip.payouts.create(actor, { amountCents: 1_100, currency: 'ZAR', payoutMethod: 'eft', paymentDetails: details(2) });

    // The approval queue still lists, the lost one masked as unreadable.
    const view = await op(t, `{ payouts(first: 10, merchantId: "${shop.id}") { edges { node { id bankAccount { unreadable bankName accountNumberMasked } } } } }`);
    const shown = Object.fromEntries(view.payouts.edges.map((e: any) => [e.node.id, e.node.bankAccount]));
    expect(shown[readable.payout.id]).toEqual({ unreadable: false, bankName: 'FNB', accountNumberMasked: '****2301' });
    expect(shown[lost.payout.id]).toMatchObject({ unreadable: true, accountNumberMasked: 'unreadable' });
    const one = await op(t, `{ payout(id: "${lost.payout.id}") { id bankAccount { unreadable } } }`);
    expect(one.payout.bankAccount.unreadable).toBe(true);

    const stats = await op(t, `{ stats { sealedValuesUnreadable { kind count } } }`);
    expect(stats.stats.sealedValuesUnreadable).toEqual(expect.arrayContaining([{ kind: 'PAYOUT_DETAILS', count: 1 }]));
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).toMatch(/zarpay_sealed_values_unreadable\{kind="payout_details"\} 1/);

    // The dry run finds it too (it used to count it as fine under k1).
    const both = servicesWith(`k2:${next},k1:${right}`);
    const dry = await both.dataKeys.scan(OPERATOR);
    expect(dry.unreadable.payoutDetails).toEqual([lost.payout.id]);
    expect(dry.toReseal.payoutDetails).toBeGreaterThanOrEqual(1);

    // force: the test's running app holds k1 alone (a rollout's refusal is test/data-key-rollout.test.ts).
    const rotated = await both.dataKeys.rotate(OPERATOR, { force: true });
    expect(rotated.kid).toBe('k2');
    expect(rotated.payoutDetails).toBeGreaterThanOrEqual(1);
    expect(rotated.unreadable.payoutDetails).toEqual([lost.payout.id]);
    const after = await both.dataKeys.inventory(OPERATOR);
    expect(after.payoutDetails).toEqual({ k1: 1, k2: expect.any(Number) });
    expect((await both.payouts.bankAccounts(OPERATOR, [readable.payout.id]))[0]).toMatchObject({ unreadable: false, accountHolder: 'Holder 1' });
    // Run again: nothing more to seal, the lost value still reported.
    expect(await both.dataKeys.rotate(OPERATOR, { force: true })).toMatchObject({ payoutDetails: 0, unreadable: { payoutDetails: [lost.payout.id] } });
    lostId = lost.payout.id;
  });

  it('a voucher code that will not open leaves the merchant\'s payment list working, the code null, and is counted', async () => {
    const p = await newPayment(t, shop, { intent_type: 'purchase' });
    await press(t, p.payment_id, 'pay');
    const done = await waitForStatus(t, shop, p.payment_id, 'captured');
    expect(done.voucher_code).toMatch(/^\d{4}-/);
    // Sealed again under other material for k1, as the copy-paste slip's instance would have.
    const slip = createKeyring(t.config.serviceSecret, parseKeys(`k1:${wrong}`));
    await sql`update vouchers set code_sealed = ${slip.seal('voucher-code', p.payment_id, done.voucher_code)} where payment_id = ${p.payment_id}`.execute(t.database.db);

    const list = await http(t, 'GET', '/api/v1/payments', { key: shop.key });
    expect(list.status).toBe(200);
    expect(list.body.data.payments.find((x: { payment_id: string }) => x.payment_id === p.payment_id)).toMatchObject({ status: 'captured', voucher_code: null });
    expect((await http(t, 'GET', `/api/v1/payments/${p.payment_id}`, { key: shop.key })).status).toBe(200);
    await eventually(async () => {
      const stats = await op(t, `{ stats { sealedValuesUnreadable { kind count } } }`);
      return stats.stats.sealedValuesUnreadable.some((u: { kind: string; count: number }) => u.kind === 'VOUCHER_CODE' && u.count === 1) ? true : null;
    });
  });

  it('is listed by `zarpay rotate-data-key` and its dry run, which finish; `zarpay stats` counts it; a wrong key stops `zarpay migrate`', async (ctx) => {
    if (!t.databaseUrl || !lostId) ctx.skip(); // the CLI opens DATABASE_URL: PostgreSQL only
    const env = { SERVICE_ENV: 'tst', LOG_LEVEL: 'silent', DATABASE_URL: t.databaseUrl!, SERVICE_SECRET: t.config.serviceSecret, DATA_DIR: t.config.dataDir };
    const dry = await zarpay(['rotate-data-key', '--dry-run'], { ...env, DATA_KEY: `k2:${next},k1:${right}` });
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ ok: false, current_kid: 'k2', unreadable: { payout_details: { count: 1, ids: [lostId] }, voucher_codes: { count: 1 } } });
    // The test's own service runs with k1 alone: --force, or the rotation would refuse to strand it (test/data-key-rollout.test.ts).
    const rotated = await zarpay(['rotate-data-key', '--force'], { ...env, DATA_KEY: `k2:${next},k1:${right}` });
    expect(rotated.code).toBe(1);
    expect(rotated.stderr).toMatch(/2 sealed value\(s\) will not open/);
    expect(JSON.parse(rotated.stdout)).toMatchObject({ ok: false, resealed: { payout_details: 0 }, unreadable: { payout_details: { ids: [lostId] } } });

    const stats = await zarpay(['stats', '--format', 'json'], { ZARPAY_URL: t.url, OPERATOR_TOKEN: t.config.operatorToken });
    expect(stats.code, stats.stderr).toBe(0);
    expect(JSON.stringify(stats.json.sealed_values_unreadable)).toMatch(/payout_details"?,"count":1/i);

    const refused = await zarpay(['migrate'], { ...env, DATA_KEY: `k2:${wrong}` });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/DATA_KEY: the key under kid k2 is not the one/);
  });
});
