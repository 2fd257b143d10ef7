import { randomBytes, randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWire } from '../rest/wire.ts';
import { openDatabase } from '../src/db/index.ts';
import { migrateTo, migrateToLatest } from '../src/db/migrate.ts';
import { OPERATOR } from '../src/domain/actor.ts';
import { payloadHash } from '../src/domain/canonical.ts';
import { createPayoutInput } from '../src/domain/payout-input.ts';
import { startFactor } from '../src/db/person-security.ts';
import { createKeyring } from '../src/domain/sealing.ts';
import { createServices } from '../src/runtime.ts';
import { borrowed, startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, gql, http, op, payoutBody, type TestMerchant } from './support/client.ts';
import { dumpAsText, forms, pgDump } from './support/dump.ts';
import { newPayment, press, waitForStatus } from './support/payments.ts';
import { eventually, type Receiver, startReceiver } from './support/receiver.ts';
import { startSmtpServer } from './support/smtp.ts';

/**
 * Bank details and voucher codes at rest (CONTRACT §9): after a realistic scenario, no table of
 * the database holds an account number, a holder's name or a voucher code, in any form, and
 * neither do the logs or the webhooks; the operator sees `****` and the last four digits.
 */
let t: TestApp;
let shop: TestMerchant;
let receiver: Receiver;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let logs = '';

const accounts = [
  { account_number: '40977312265', branch_code: '632005', account_holder: 'Nomvula Dlamini-Khumalo', bank_name: 'Absa' },
  { account_number: '10083345127', branch_code: '051001', account_holder: 'Pieter van der Merwe', bank_name: 'Standard Bank' },
  { account_number: '62998877661', branch_code: '250655', account_holder: 'Ayanda Mthembu', bank_name: 'FNB' },
];

beforeAll(async () => {
  receiver = await startReceiver();
  smtp = await startSmtpServer();
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => (logs += chunk.toString()));
  t = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '50', LOG_LEVEL: 'debug', SMTP_URL: smtp.url }, { logStream });
  shop = await createMerchant(t, { name: 'Vault Shop', autoTopup: true, webhookUrl: receiver.url });
  await credit(t, shop.id, 500_000);
  await http(t, 'POST', '/api/v1/merchant/webhooks/secret', { key: shop.key });
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
  await smtp?.close();
});

describe('sensitive data at rest', () => {
  it('a realistic day leaves no account number, holder name or voucher code in the database, the logs or the webhooks', async () => {
    // Payments: captured through the page (voucher shown, e-mailed), settled, redeemed.
    const vouchers: string[] = [];
    for (const intent of ['purchase', 'purchase', 'purchase_and_redeem']) {
      const p = await newPayment(t, shop, { intent_type: intent, customer_info: { email: 'buyer@example.co.za' } });
      await press(t, p.payment_id, 'pay');
      const done = await waitForStatus(t, shop, p.payment_id, 'captured');
      vouchers.push(done.voucher_code);
      expect(String((await http(t, 'GET', `/pay/${p.payment_id}`)).body).includes(done.voucher_code)).toBe(intent === 'purchase');
    }
    // Payouts over REST and GraphQL, through every operator move.
    const payouts: string[] = [];
    for (const [i, details] of accounts.entries()) {
      const res = await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(10_000 + i, { payment_details: details, merchant_reference: `VAULT-${i}` }) });
      expect(res.status).toBe(201);
      expect(JSON.stringify(res.body)).not.toContain(details.account_number);
      payouts.push(res.body.data.id);
    }
    const viaGraphql = await gql(
      t,
      `mutation($i: CreatePayoutInput!) { createPayout(input: $i) { payout { id } } }`,
      { i: { amountCents: 5_000, currency: 'ZAR', payoutMethod: 'EFT', paymentDetails: { accountNumber: '55500011122', branchCode: '470010', accountHolder: 'Lerato Mokoena', bankName: 'Capitec' } } },
      { key: shop.key },
    );
    payouts.push(viaGraphql.body.data!.createPayout.payout.id);
    const secrets = [...accounts.flatMap((a) => [a.account_number, a.account_holder]), '55500011122', 'Lerato Mokoena', ...vouchers];

    await op(t, `mutation { approvePayout(id: "${payouts[0]}") { payout { id } } }`);
    await op(t, `mutation { startPayoutTransfer(id: "${payouts[0]}") { payout { id } } }`);
    await op(t, `mutation { completePayout(id: "${payouts[0]}", externalTransferId: "ABSA-1") { payout { id } } }`);
    await op(t, `mutation { rejectPayout(id: "${payouts[1]}", reason: "wrong account") { payout { id } } }`);

    // The payout view: bank, holder and the last four digits; nobody gets the account back in full here.
    const view = await op(t, `{ payouts(first: 10, merchantId: "${shop.id}") { edges { node { id bankAccount { bankName branchCode accountHolder accountNumberMasked } } } } }`);
    const shown = Object.fromEntries(view.payouts.edges.map((e: any) => [e.node.id, e.node.bankAccount]));
    expect(shown[payouts[0]!]).toEqual({ bankName: 'Absa', branchCode: '632005', accountHolder: 'Nomvula Dlamini-Khumalo', accountNumberMasked: '****2265' });
    expect(shown[payouts[3]!]).toMatchObject({ accountNumberMasked: '****1122' });
    // The merchant sees its own payout's account masked (CONTRACT §10, the dashboard), never in full.
    const asMerchant = await gql(t, `{ payout(id: "${payouts[0]}") { id bankAccount { accountNumberMasked } } }`, {}, { key: shop.key });
    expect(asMerchant.body.errors).toBeUndefined();
    expect(asMerchant.body.data.payout.bankAccount).toEqual({ accountNumberMasked: '****2265' });
    expect((await http(t, 'GET', `/api/v1/payouts/${payouts[0]}`, { key: shop.key })).body.data).not.toHaveProperty('payment_details');

    // The one way to the full number: audited, with who and why (never the number itself).
    const revealed = await gql(
      t,
      `mutation { revealPayoutBankAccount(id: "${payouts[2]}", reason: "manual EFT, batch 12") { bankAccount { accountNumber accountHolder } } }`,
      {},
      { operator: true, headers: { 'x-operator-name': 'sipho' } },
    );
    expect(revealed.body.data!.revealPayoutBankAccount.bankAccount).toEqual({ accountNumber: '62998877661', accountHolder: 'Ayanda Mthembu' });
    const audit = await op(t, `{ auditLog(payoutId: "${payouts[2]}") { actor action detail } }`);
    expect(audit.auditLog).toEqual([{ actor: 'operator:sipho', action: 'payout.reveal_bank_account', detail: { reason: 'manual EFT, batch 12', account_number_masked: '****7661' } }]);
    const asMerchantReveal = await gql(t, `mutation { revealPayoutBankAccount(id: "${payouts[2]}", reason: "x") { bankAccount { accountNumber } } }`, {}, { key: shop.key });
    expect(asMerchantReveal.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

    // Webhooks delivered and e-mails sent (the e-mails carry the codes: that is what they are for).
    await eventually(async () => (smtp.received.length >= 3 ? true : null));
    await eventually(async () => {
      const pending = await t.database.db.selectFrom('webhook_deliveries').select('id').where('status', '=', 'pending').execute();
      return pending.length === 0 && receiver.received.length > 0 ? true : null;
    });

    const dump = await dumpAsText(t.database.db);
    expect(dump).toContain('-- payouts');
    expect(dump).toContain('-- vouchers');
    expect(logs).toContain('"route":"/api/v1/payouts"');
    expect(receiver.received.map((r) => JSON.parse(r.body).type)).toEqual(expect.arrayContaining(['payment.captured', 'payout.created', 'payout.completed']));
    const places = { database: dump, logs, webhooks: receiver.received.map((r) => r.body).join('\n') };
    for (const secret of secrets) {
      for (const [where, text] of Object.entries(places)) {
        for (const form of forms(secret)) expect(text.includes(form), `${secret} (as ${form}) in ${where}`).toBe(false);
      }
    }
    if (t.databaseUrl) {
      const full = pgDump(t.databaseUrl);
      if (full !== undefined) {
        expect(full).toContain('COPY public.payouts');
        for (const secret of secrets) for (const form of forms(secret)) expect(full.includes(form), `${secret} in pg_dump`).toBe(false);
      }
    }
  });
});

describe('the data key', () => {
  const key = () => randomBytes(32).toString('base64');

  it('rotates: everything is sealed again under the new key, and the old key is then no longer needed', async () => {
    const [k1, k2] = [key(), key()];
    const servicesWith = (dataKey: string) => createServices({ ...t.config, dataKeys: parse(dataKey) }, borrowed(t.database));
    const first = servicesWith(`k1:${k1}`);
    const m = await createMerchant(t);
    await credit(t, m.id, 10_000);
    const actor = await first.keys.authenticate(m.key);
    const { payout } = await first.payouts.create(actor, { amountCents: 1_000, currency: 'ZAR', payoutMethod: 'eft', paymentDetails: { accountNumber: '12312312399', branchCode: '250655', accountHolder: 'Rotating Holder', bankName: 'FNB' } });
    expect(first.keyring.currentKid).toBe('k1');
    // A person's TOTP secret, sealed under k1 as setting up the second factor seals it.
    const { person } = await first.people.invite(OPERATOR, m.id, `totp-${randomUUID()}@rotating.example`, 'owner');
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    await startFactor(t.database.db, person.id, first.keyring.seal('totp-secret', person.id, secret));
    // A bank report still being applied (its content is kept sealed until it is), and one applied (none kept).
    const reportId = randomUUID();
    await sql`insert into bank_reports (id, file_sha256, kind, message_id, entry_count, imported_by, content_sealed)
              values (${reportId}::uuid, ${randomUUID()}, 'camt.054', 'MSG-1', 1, 'operator', ${first.keyring.seal('bank-report', reportId, '<Document/>')})`.execute(t.database.db);
    await sql`insert into bank_reports (id, file_sha256, kind, message_id, entry_count, imported_by, finished_at)
              values (${randomUUID()}::uuid, ${randomUUID()}, 'camt.054', 'MSG-2', 1, 'operator', now())`.execute(t.database.db);

    const both = servicesWith(`k2:${k2},k1:${k1}`);
    const before = await both.dataKeys.inventory(OPERATOR);
    expect(before.payoutDetails.k1).toBe(1);
    expect(before.totpSecrets.k1).toBe(1);
    expect(before.bankReports).toEqual({ k1: 1 });
    // force: the test's running app lacks k2 (a rollout's refusal is test/data-key-rollout.test.ts).
    const rotated = await both.dataKeys.rotate(OPERATOR, { force: true });
    expect(rotated.kid).toBe('k2');
    expect(rotated.payoutDetails).toBeGreaterThanOrEqual(1);
    const after = await both.dataKeys.inventory(OPERATOR);
    expect(Object.keys(after.payoutDetails)).toEqual(['k2']);
    expect(Object.keys(after.voucherCodes).every((kid) => kid === 'k2')).toBe(true);
    expect(Object.keys(after.totpSecrets)).toEqual(['k2']);
    expect(after.bankReports).toEqual({ k2: 1 });
    expect(rotated.unreadable.bankReports).toEqual([]);
    // Idempotent: nothing left to do.
    expect(await both.dataKeys.rotate(OPERATOR, { force: true })).toMatchObject({ payoutDetails: 0, voucherCodes: 0 });

    const onlyNew = servicesWith(`k2:${k2}`);
    expect((await onlyNew.payouts.bankAccounts(OPERATOR, [payout.id]))[0]).toMatchObject({ accountHolder: 'Rotating Holder', accountNumberMasked: '****2399', unreadable: false });
    const [factor] = (await sql<{ secret_sealed: Buffer }>`select secret_sealed from person_second_factors where person_id = ${person.id}::uuid`.execute(t.database.db)).rows;
    expect(onlyNew.keyring.open('totp-secret', person.id, factor!.secret_sealed)).toBe(secret);
    const [report] = (await sql<{ content_sealed: Buffer }>`select content_sealed from bank_reports where id = ${reportId}::uuid`.execute(t.database.db)).rows;
    expect(onlyNew.keyring.open('bank-report', reportId, report!.content_sealed)).toBe('<Document/>');
    const onlyOld = servicesWith(`k1:${k1}`);
    // Without k2 the details are shown as unreadable, never a failed view.
    expect((await onlyOld.payouts.bankAccounts(OPERATOR, [payout.id]))[0]).toMatchObject({ unreadable: true, accountNumberMasked: 'unreadable' });
    await expect(onlyOld.payouts.revealBankAccount(OPERATOR, payout.id, 'check')).rejects.toThrow(/key k2/);
    const audit = await op(t, `{ auditLog(first: 5) { action detail } }`);
    expect(audit.auditLog.find((e: { action: string }) => e.action === 'data_key.rotate')).toMatchObject({ detail: { kid: 'k2' } });
  });
});

describe('migration 2026-11-23T0102', () => {
  it('seals bank details and voucher codes written before it, and refuses to run without the key', async () => {
    const scratch = await scratchDatabase();
    try {
      const db = scratch.db;
      await migrateTo(db, '2026-11-23T0101_attempt_reconciliation');
      const [merchant, payout, payment] = [randomUUID(), randomUUID(), randomUUID()];
      await sql`insert into merchants (id, name) values (${merchant}, 'Old Shop')`.execute(db);
      const details = { accountNumber: '77766655544', branchCode: '250655', accountHolder: 'Old Holder', bankName: 'FNB' };
      await sql`insert into payouts (id, merchant_id, amount_cents, fee_cents, gross_amount_cents, status, payout_method, payment_details, request_hash)
                values (${payout}, ${merchant}, 1000, 0, 1000, 'completed', 'eft', ${JSON.stringify(details)}::jsonb, 'h')`.execute(db);
      await sql`insert into payments (id, merchant_id, merchant_order_id, intent_type, amount_cents, fee_cents, net_amount_cents, status, params_hash)
                values (${payment}, ${merchant}, 'old-1', 'purchase', 10000, 0, 10000, 'captured', 'h')`.execute(db);
      await sql`insert into vouchers (payment_id, code) values (${payment}, '1111-2222-3333-4444')`.execute(db);

      await expect(migrateToLatest(db)).rejects.toThrow(/must be sealed with the data key/);
      expect(await dumpAsText(db)).toContain('77766655544');

      const keyring = createKeyring(t.config.serviceSecret, []);
      expect(await migrateToLatest(db, { sealer: keyring })).toContain('2026-11-23T0102_sealed_data');
      const dump = await dumpAsText(db);
      for (const secret of ['77766655544', 'Old Holder', '1111-2222-3333-4444']) for (const form of forms(secret)) expect(dump).not.toContain(form);

      const services = createServices({ ...t.config, dataKeys: [] }, { ...scratch, close: async () => {} });
      expect((await services.payouts.bankAccounts(OPERATOR, [payout]))[0]).toEqual({
        bankName: 'FNB',
        branchCode: '250655',
        accountHolder: 'Old Holder',
        accountNumberMasked: '****5544',
        // Older than the branch-code list: the bank is told by the code.
        bank: 'First National Bank',
        bankNameMismatch: false,
        unreadable: false,
      });
      expect((await services.payments.get(OPERATOR, payment)).voucherCode).toBe('1111-2222-3333-4444');
    } finally {
      await scratch.drop();
    }
  });
});

describe('migration 2026-11-23T0103', () => {
  it('keys the hashes that recognise a request again, and a request made before it still replays', async () => {
    const scratch = await scratchDatabase();
    try {
      const db = scratch.db;
      await migrateTo(db, '2026-11-23T0102_sealed_data', { sealer: createKeyring(t.config.serviceSecret, []) });
      const [merchant, payout] = [randomUUID(), randomUUID()];
      await sql`insert into merchants (id, name) values (${merchant}, 'Old Shop')`.execute(db);
      await sql`insert into balances (merchant_id) values (${merchant})`.execute(db);
      const input = parseWire(createPayoutInput, payoutBody(1_000, { merchant_reference: 'OLD-1' }));
      // Written by the version before: the plain canonical hash, next to the sealed details.
      const plain = payloadHash(input);
      const keyring = createKeyring(t.config.serviceSecret, []);
      await sql`insert into payouts (id, merchant_id, amount_cents, fee_cents, gross_amount_cents, status, payout_method, payment_details_sealed, merchant_reference, request_hash)
                values (${payout}, ${merchant}, 1000, 0, 1000, 'completed', 'eft', ${keyring.seal('payout-details', payout, JSON.stringify(input.paymentDetails))}, 'OLD-1', ${plain})`.execute(db);

      await expect(migrateToLatest(db)).rejects.toThrow(/must be keyed with the service's key/);
      expect(await migrateToLatest(db, { sealer: keyring })).toContain('2026-11-23T0103_keyed_request_hashes');
      const stored = await sql<{ request_hash: string }>`select request_hash from payouts where id = ${payout}`.execute(db);
      expect(stored.rows[0]!.request_hash).not.toBe(plain);
      expect(await dumpAsText(db)).not.toContain(plain);

      const services = createServices({ ...t.config, dataKeys: [] }, { ...scratch, close: async () => {} });
      const actor = { kind: 'merchant' as const, merchant: { id: merchant, name: 'Old Shop', webhookUrl: null, paymentFeeBps: 0, paymentFeeFixedCents: 0, payoutFeeCents: 0, autoTopup: false, redirectDomains: [], supportContact: null, supportEmail: null, supportPhone: null, paymentMethods: null, paymentLimits: { minCents: 5500, maxCents: 300000 }, createdAt: new Date(), updatedAt: new Date() }, key: { id: randomUUID(), merchantId: merchant, kid: 'k', env: 'tst', type: 'secret', status: 'active' as const, createdAt: new Date(), expiresAt: null, revokedAt: null, displayMask: 'm', issuedBy: 'merchant' as const, issuedByPersonId: null, role: 'owner' as const } };
      const replay = await services.payouts.create(actor, input);
      expect(replay).toMatchObject({ created: false, payout: { id: payout } });
      await expect(services.payouts.create(actor, { ...input, amountCents: 1_001 })).rejects.toMatchObject({ code: 'CONFLICT' });
    } finally {
      await scratch.drop();
    }
  });
});

function parse(dataKey: string) {
  return dataKey.split(',').map((part) => {
    const [kid, material] = part.split(':') as [string, string];
    return { kid, key: Buffer.from(material, 'base64') };
  });
}

/** An empty database (no migrations): a new PostgreSQL database, or an in-memory PGlite. */
async function scratchDatabase() {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const handle = await openDatabase({ dataDir: 'memory://' });
    return { ...handle, drop: () => handle.close() };
  }
  const name = `zarpay_scratch_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
  return {
    ...handle,
    drop: async () => {
      await handle.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
