import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../src/domain/second-factor.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, expectLedgerOk, gql, http, op, payoutBody, type TestMerchant } from './support/client.ts';

/**
 * Saved payees (issue 33): an owner adds a bank account once, re-entering their password (a
 * step-up), and payouts then name it by id, by session or by key; the payout carries the
 * payee's account to the bank file. No key, and no other role, adds one.
 */

let t: TestApp;
let m: TestMerchant;
const PASSWORD = 'correct horse battery';

interface Session {
  cookie: string;
  csrf: string;
  personId: string;
}

let people = 0;
async function join(role: 'OWNER' | 'DEVELOPER' | 'VIEWER', merchantId = m.id): Promise<Session> {
  const email = `payees-${++people}@example.com`;
  const d = await op(t, 'mutation($m: UUID, $e: String!, $r: PersonRole!) { invitePerson(merchantId: $m, email: $e, role: $r) { inviteUrl person { id } } }', { m: merchantId, e: email, r: role });
  const res = await http(t, 'POST', '/dashboard/invite', { body: { token: new URL(d.invitePerson.inviteUrl).hash.slice(1), password: PASSWORD } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const cookies = res.headers.getSetCookie();
  const value = (name: string) => cookies.find((c) => c.startsWith(`${name}=`))!.split(';')[0]!.slice(name.length + 1);
  return { cookie: `zarpay_session=${value('zarpay_session')}`, csrf: value('zarpay_csrf'), personId: d.invitePerson.person.id };
}

const as = (s: Session, query: string, variables: Record<string, unknown> = {}) =>
  gql(t, query, variables, { headers: { cookie: s.cookie, 'x-csrf-token': s.csrf } });

const CREATE = 'mutation($i: CreatePayeeInput!) { createPayee(input: $i) { payee { id name accountHolder bankName branchCode accountNumberMasked bank unreadable } } }';
const account = { accountNumber: '1002003004', branchCode: '470010', accountHolder: 'Kettle Parts (Pty) Ltd', bankName: 'Capitec' };
const payeeInput = (extra: Record<string, unknown> = {}) => ({ i: { name: 'Kettle Parts', paymentDetails: account, password: PASSWORD, ...extra } });
const codeOf = (res: { body: { errors?: { extensions?: { code?: string } }[] } }) => res.body.errors?.[0]?.extensions?.code;

async function payeeCount(merchantId = m.id): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from payees where merchant_id = ${merchantId}`.execute(t.database.db);
  return rows[0]!.n;
}

let owner: Session;

beforeAll(async () => {
  // Bank files need the account payouts are paid from.
  t = await startApp({ PAYOUT_DEBTOR_NAME: 'Zarpay Payouts (Pty) Ltd', PAYOUT_DEBTOR_ACCOUNT: '62000000001', PAYOUT_DEBTOR_BRANCH_CODE: '250655' });
  m = await createMerchant(t, { name: 'Payee Shop', payoutFeeCents: 500 });
  await credit(t, m.id, 1_000_000);
  owner = await join('OWNER');
});
afterAll(() => t?.close());

describe('adding a payee', () => {
  it('a wrong password adds nothing, is counted and audited, and names the password field', async () => {
    const wrong = await as(owner, CREATE, payeeInput({ password: 'not my password at all' }));
    expect(codeOf(wrong)).toBe('FORBIDDEN');
    expect(wrong.body.errors![0]!.message).toMatch(/password/);
    expect(await payeeCount()).toBe(0);
    const { rows } = await sql<{ action: string }>`select action from audit_log where merchant_id = ${m.id} and action = 'person.step_up_failed'`.execute(t.database.db);
    expect(rows).toHaveLength(1);
    const failures = await sql<{ n: number }>`select count(*)::int as n from sign_in_failures where person_id = ${owner.personId} and address = 'step-up'`.execute(t.database.db);
    expect(failures.rows[0]!.n).toBe(1);
  });

  it('the right password adds it, sealed at rest, the account number masked wherever it is read', async () => {
    const res = await as(owner, CREATE, payeeInput());
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createPayee.payee).toMatchObject({
      name: 'Kettle Parts',
      accountHolder: account.accountHolder,
      branchCode: '470010',
      accountNumberMasked: '****3004',
      bank: 'Capitec Bank',
      unreadable: false,
    });
    const { rows } = await sql<{ details_sealed: Uint8Array; created_by_person_id: string }>`select details_sealed, created_by_person_id from payees where merchant_id = ${m.id}`.execute(t.database.db);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.created_by_person_id).toBe(owner.personId);
    expect(Buffer.from(rows[0]!.details_sealed).toString('latin1')).not.toContain(account.accountNumber);
    const audit = await sql<{ detail: { account_number_masked: string } }>`select detail from audit_log where merchant_id = ${m.id} and action = 'payee.create'`.execute(t.database.db);
    expect(audit.rows[0]!.detail.account_number_masked).toBe('****3004');

    // Every role and key reads the list, never the full number; REST says the same.
    const viewer = await join('VIEWER');
    const listed = await as(viewer, '{ payees { id name accountNumberMasked } }');
    expect(listed.body.data.payees).toEqual([{ id: res.body.data.createPayee.payee.id, name: 'Kettle Parts', accountNumberMasked: '****3004' }]);
    const rest = await http(t, 'GET', '/api/v1/payees', { key: m.key });
    expect(rest.status).toBe(200);
    expect(rest.body.data.payees).toEqual([expect.objectContaining({ payee_id: res.body.data.createPayee.payee.id, account_number_masked: '****3004', bank: 'Capitec Bank' })]);
    expect(JSON.stringify(rest.body)).not.toContain(account.accountNumber);

    // The same account twice is one payee.
    const again = await as(owner, CREATE, payeeInput({ name: 'Kettle again' }));
    expect(codeOf(again)).toBe('CONFLICT');
    expect(await payeeCount()).toBe(1);
  });

  it('no API key adds one, not even the owner\'s; no developer or viewer either', async () => {
    const developer = await join('DEVELOPER');
    const developerKey = (await as(developer, 'mutation { issueApiKey { fullKey } }')).body.data.issueApiKey.fullKey as string;
    const ownerKey = (await as(owner, 'mutation { issueApiKey { fullKey } }')).body.data.issueApiKey.fullKey as string;
    const before = await payeeCount();
    for (const key of [developerKey, ownerKey, m.key]) {
      const res = await gql(t, CREATE, payeeInput({ paymentDetails: { ...account, accountNumber: '99988877766' } }), { key });
      expect(codeOf(res)).toBe('FORBIDDEN');
    }
    for (const s of [developer, await join('VIEWER')]) expect(codeOf(await as(s, CREATE, payeeInput({ paymentDetails: { ...account, accountNumber: '99988877766' } })))).toBe('FORBIDDEN');
    expect(await payeeCount()).toBe(before);
  });

  it('refuses bad details in words on their field, and after five wrong passwords answers 429 even for the right one', async () => {
    const bad = await as(owner, CREATE, payeeInput({ paymentDetails: { ...account, branchCode: '12345' } }));
    expect(codeOf(bad)).toBe('INVALID_PAYMENT_DETAILS');
    expect(bad.body.errors![0]!.extensions).toMatchObject({ details: [{ field: 'input.paymentDetails.branchCode', message: 'must be exactly 6 digits' }] });

    const other = await createMerchant(t, { name: 'Guessed Shop' });
    const victim = await join('OWNER', other.id);
    for (let i = 0; i < 5; i++) expect(codeOf(await as(victim, CREATE, payeeInput({ password: `guess number ${i}` })))).toBe('FORBIDDEN');
    const limited = await as(victim, CREATE, payeeInput());
    expect(codeOf(limited)).toBe('RATE_LIMIT_EXCEEDED');
    expect(await payeeCount(other.id)).toBe(0);
  });
  it('a person with a second factor gives its code too: none or a wrong one adds nothing, naming the code; a recovery code does', async () => {
    const keeper = await join('OWNER');
    const begun = await as(keeper, 'mutation { beginSecondFactorSetup { secret } }');
    const secret = begun.body.data.beginSecondFactorSetup.secret;
    const confirmed = await as(keeper, 'mutation($c: String!) { confirmSecondFactorSetup(code: $c) { recoveryCodes } }', { c: totpCode(secret) });
    const [recovery] = confirmed.body.data.confirmSecondFactorSetup.recoveryCodes;
    const before = await payeeCount();
    const input = (extra: Record<string, unknown>) => payeeInput({ name: `Second factor ${randomUUID()}`, paymentDetails: { ...account, accountNumber: '1002003099' }, ...extra });
    const missing = await as(keeper, CREATE, input({}));
    expect(missing.body.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN', details: [{ field: 'input.code' }] } });
    const wrong = await as(keeper, CREATE, input({ code: totpCode(secret) === '000000' ? '111111' : '000000' }));
    expect(wrong.body.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN', details: [{ field: 'input.code' }] } });
    expect(await payeeCount()).toBe(before);
    // The password alone, right, is not enough for this person; with the recovery code it is.
    const added = await as(keeper, CREATE, input({ code: recovery }));
    expect(added.body.errors).toBeUndefined();
    expect(added.body.data.createPayee.payee.accountNumberMasked).toMatch(/3099$/);
    expect(await payeeCount()).toBe(before + 1);
  });
});

describe('paying a payee', () => {
  it('a payout names the payee: reserved like any other, and the bank file carries the payee\'s account', async () => {
    const { payees } = (await as(owner, '{ payees { id } }')).body.data;
    const payeeId = payees[0].id as string;
    // By key over REST (a machine pays a payee a person vouched for).
    const created = await http(t, 'POST', '/api/v1/payouts', { key: m.key, body: { amount_cents: 12_345, currency: 'ZAR', payout_method: 'eft', payee_id: payeeId, merchant_reference: 'PAYEE-1' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({ amount_cents: 12_345, fee_cents: 500, gross_amount_cents: 12_845, status: 'pending' });
    const balance = await http(t, 'GET', '/api/v1/payouts/balance', { key: m.key });
    expect(balance.body.data.reserved_cents).toBe(12_845);
    // By the owner's session over GraphQL, and its masked account is the payee's.
    const byOwner = await as(owner, 'mutation($i: CreatePayoutInput!) { createPayout(input: $i) { payout { id bankAccount { accountHolder branchCode accountNumberMasked bank } } } }', {
      i: { amountCents: 1_000, currency: 'ZAR', payoutMethod: 'EFT', payeeId },
    });
    expect(byOwner.body.errors).toBeUndefined();
    expect(byOwner.body.data.createPayout.payout.bankAccount).toEqual({ accountHolder: account.accountHolder, branchCode: '470010', accountNumberMasked: '****3004', bank: 'Capitec Bank' });
    const { rows } = await sql<{ payee_id: string }>`select payee_id from payouts where id = ${created.body.data.id}`.execute(t.database.db);
    expect(rows[0]!.payee_id).toBe(payeeId);

    await op(t, 'mutation($id: UUID!) { approvePayout(id: $id) { payout { id } } }', { id: created.body.data.id });
    const { exportPayoutBatch } = await op(t, 'mutation { exportPayoutBatch { batch { payoutCount totalCents } file } }');
    expect(exportPayoutBatch.batch).toMatchObject({ payoutCount: 1, totalCents: 12_345 });
    const file = exportPayoutBatch.file as string;
    expect(file).toContain(`<Id>${account.accountNumber}</Id>`);
    expect(file).toContain(account.accountHolder);
    expect(file).toContain('470010');
    await expectLedgerOk(t);
  });

  it('typed bank details from a session need the password again (none or a wrong one pays nothing); a payee or an API key does not', async () => {
    const someone = await join('OWNER');
    const PAY = 'mutation($i: CreatePayoutInput!) { createPayout(input: $i) { payout { id status bankAccount { accountNumberMasked } } } }';
    const typed = { amountCents: 2_000, currency: 'ZAR', payoutMethod: 'EFT', paymentDetails: { ...account, accountNumber: '7770001112' } };
    const reserved = async () => (await http(t, 'GET', '/api/v1/payouts/balance', { key: m.key })).body.data.reserved_cents as number;
    const before = await reserved();

    const bare = await as(someone, PAY, { i: typed });
    expect(codeOf(bare)).toBe('FORBIDDEN');
    expect(bare.body.errors![0]!.extensions).toMatchObject({ details: [{ field: 'input.stepUp.password' }] });
    const wrong = await as(someone, PAY, { i: { ...typed, stepUp: { password: 'not my password at all' } } });
    expect(codeOf(wrong)).toBe('FORBIDDEN');
    expect(await reserved()).toBe(before);
    const { rows } = await sql<{ detail: { for: string } }>`select detail from audit_log where merchant_id = ${m.id} and action = 'person.step_up_failed' and detail->>'person_id' = ${someone.personId}`.execute(t.database.db);
    expect(rows.map((r) => r.detail.for)).toEqual(['payout.create']);

    const paid = await as(someone, PAY, { i: { ...typed, stepUp: { password: PASSWORD } } });
    expect(paid.body.errors).toBeUndefined();
    expect(paid.body.data.createPayout.payout).toMatchObject({ status: 'PENDING', bankAccount: { accountNumberMasked: '****1112' } });
    expect(await reserved()).toBe(before + 2_000 + 500);
    // A saved payee needs no step-up; nor does a key (a machine's credential has no password to give).
    const { payees } = (await as(someone, '{ payees { id } }')).body.data;
    const toPayee = await as(someone, PAY, { i: { amountCents: 1_000, currency: 'ZAR', payoutMethod: 'EFT', payeeId: payees[0].id } });
    expect(toPayee.body.errors).toBeUndefined();
    const byKey = await http(t, 'POST', '/api/v1/payouts', { key: m.key, body: payoutBody(1_000) });
    expect(byKey.status, JSON.stringify(byKey.body)).toBe(201);
  });

  it('details or a payee, not both nor neither; an unknown or removed payee is NOT_FOUND and reserves nothing', async () => {
    const { payees } = (await as(owner, '{ payees { id } }')).body.data;
    const both = await http(t, 'POST', '/api/v1/payouts', { key: m.key, body: payoutBody(1_000, { payee_id: payees[0].id }) });
    expect(both.status).toBe(400);
    expect(both.body.error.details).toEqual([{ field: 'payee_id', message: 'give either paymentDetails or payeeId, not both' }]);
    const neither = await http(t, 'POST', '/api/v1/payouts', { key: m.key, body: { amount_cents: 1_000, currency: 'ZAR', payout_method: 'eft' } });
    expect(neither.status).toBe(400);
    expect(neither.body.error.code).toBe('VALIDATION_FAILED');
    const before = (await http(t, 'GET', '/api/v1/payouts/balance', { key: m.key })).body.data.reserved_cents;
    const unknown = await http(t, 'POST', '/api/v1/payouts', { key: m.key, body: { amount_cents: 1_000, currency: 'ZAR', payout_method: 'eft', payee_id: randomUUID() } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');

    // Another merchant's payee is not found either; a removed one neither (its payouts stay as they were).
    const other = await createMerchant(t, { name: 'Other Payee Shop' });
    await credit(t, other.id, 100_000);
    const foreign = await http(t, 'POST', '/api/v1/payouts', { key: other.key, body: { amount_cents: 1_000, currency: 'ZAR', payout_method: 'eft', payee_id: payees[0].id } });
    expect(foreign.status).toBe(404);
    const added = await as(owner, CREATE, payeeInput({ name: 'Short-lived', paymentDetails: { ...account, accountNumber: '5550001112' } }));
    const removedId = added.body.data.createPayee.payee.id as string;
    const removed = await as(owner, 'mutation($id: UUID!) { removePayee(id: $id) { payee { id } } }', { id: removedId });
    expect(removed.body.errors).toBeUndefined();
    const gone = await http(t, 'POST', '/api/v1/payouts', { key: m.key, body: { amount_cents: 1_000, currency: 'ZAR', payout_method: 'eft', payee_id: removedId } });
    expect(gone.status).toBe(404);
    expect((await http(t, 'GET', '/api/v1/payouts/balance', { key: m.key })).body.data.reserved_cents).toBe(before);
  });
});
