import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedStep, newTotpSecret, totpCode } from '../src/domain/second-factor.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, http, op, type TestMerchant } from './support/client.ts';
import { eventually } from './support/receiver.ts';
import { startSmtpServer } from './support/smtp.ts';

/**
 * A person's own security in the dashboard (CONTRACT §11): a forgotten password reset by e-mail
 * through the `person.email` queue, the TOTP second factor with its recovery codes, an owner's
 * demand for one, and the step-up check another part calls.
 */

let t: TestApp;
let m: TestMerchant;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startApp({ SMTP_URL: smtp.url, SMTP_FROM: 'zarpay <no-reply@zarpay.example>' });
  m = await createMerchant(t, { name: 'Secure Shop' });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

interface Session {
  cookie: string;
  csrf: string;
  personId: string;
}

const PASSWORD = 'correct horse battery';
const INVITE = 'mutation($m: UUID, $e: String!, $r: PersonRole!) { invitePerson(merchantId: $m, email: $e, role: $r) { inviteUrl person { id } } }';

function sessionOf(res: { headers: Headers }, personId: string): Session {
  const cookies = res.headers.getSetCookie();
  const value = (name: string) => cookies.find((c) => c.startsWith(`${name}=`))!.split(';')[0]!.slice(name.length + 1);
  return { cookie: `zarpay_session=${value('zarpay_session')}`, csrf: value('zarpay_csrf'), personId };
}

async function join(email: string, role: 'OWNER' | 'DEVELOPER' | 'VIEWER', merchantId = m.id): Promise<Session> {
  const d = await op(t, INVITE, { m: merchantId, e: email, r: role });
  const res = await http(t, 'POST', '/dashboard/invite', { body: { token: new URL(d.invitePerson.inviteUrl).hash.slice(1), password: PASSWORD } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return sessionOf(res, d.invitePerson.person.id);
}

const as = (s: Session, query: string, variables: Record<string, unknown> = {}) =>
  http(t, 'POST', '/graphql', { body: { query, variables }, headers: { cookie: s.cookie, 'x-csrf-token': s.csrf } });
const login = (email: string, password = PASSWORD, code?: string) => http(t, 'POST', '/dashboard/login', { body: { email, password, ...(code !== undefined && { code }) } });
const alive = async (s: Session) => (await as(s, '{ viewer { id } }')).status === 200;

/** Sets up a second factor from a session: the secret and the recovery codes. */
async function enable(s: Session): Promise<{ secret: string; recoveryCodes: string[] }> {
  const begun = await as(s, 'mutation { beginSecondFactorSetup { otpauthUri qrCode secret } }');
  const { secret, otpauthUri, qrCode } = begun.body.data.beginSecondFactorSetup;
  expect(otpauthUri).toMatch(/^otpauth:\/\/totp\/zarpay:.+\?.*secret=/);
  expect(qrCode).toMatch(/^data:image\/png;base64,/);
  const confirmed = await as(s, 'mutation($c: String!) { confirmSecondFactorSetup(code: $c) { recoveryCodes } }', { c: totpCode(secret) });
  expect(confirmed.body.errors, JSON.stringify(confirmed.body)).toBeUndefined();
  return { secret, recoveryCodes: confirmed.body.data.confirmSecondFactorSetup.recoveryCodes };
}

const failures = async (personId: string) =>
  (await sql<{ n: number }>`select count(*)::int as n from sign_in_failures where person_id = ${personId}::uuid`.execute(t.database.db)).rows[0]!.n;

describe('a forgotten password', () => {
  it('answers the same for any address, e-mails a single-use link through the queue, and the reset ends every session', async () => {
    expect((await http(t, 'GET', '/dashboard/sign-in-options')).body.data).toEqual({ password_reset: true });
    const s = await join('forgetful@example.com', 'VIEWER');
    const unknown = await http(t, 'POST', '/dashboard/password/forgot', { body: { email: 'nobody@example.com' } });
    const known = await http(t, 'POST', '/dashboard/password/forgot', { body: { email: ' Forgetful@Example.com ' } });
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(known.body.data).toEqual(unknown.body.data);
    const mail = await eventually(async () => smtp.received.find((r) => r.to.includes('forgetful@example.com') && /reset/i.test(r.subject)));
    expect(smtp.received.some((r) => r.to.includes('nobody@example.com'))).toBe(false);
    expect(mail.subject).toMatch(/reset/i);
    expect(mail.text).toContain('Secure Shop');
    const token = /\/dashboard\/reset#([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;
    // No row holds the link: the job names the reset, the reset keeps a digest.
    const jobs = await sql<{ payload: unknown }>`select payload from jobs where queue = 'person.email'`.execute(t.database.db);
    expect(JSON.stringify(jobs.rows)).not.toContain(token);
    const stored = await sql<{ token_hash: Buffer }>`select token_hash from password_resets where token_hash is not null`.execute(t.database.db);
    expect(stored.rows.map((r) => Buffer.from(r.token_hash).toString('hex'))).toContain(createHash('sha256').update(token).digest('hex'));

    const short = await http(t, 'POST', '/dashboard/password/reset', { body: { token, password: 'too short' } });
    expect(short.body.error.code).toBe('VALIDATION_FAILED');
    const reset = await http(t, 'POST', '/dashboard/password/reset', { body: { token, password: 'a brand new password' } });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(await alive(s)).toBe(false);
    expect((await login('forgetful@example.com')).status).toBe(401);
    expect((await login('forgetful@example.com', 'a brand new password')).status).toBe(200);
    expect((await http(t, 'POST', '/dashboard/password/reset', { body: { token, password: 'yet another password' } })).status).toBe(403);
    const audit = await op(t, '{ auditLog(first: 50) { action merchantId } }');
    expect(audit.auditLog.filter((e: { merchantId: string }) => e.merchantId === m.id).map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['person.password_reset_requested', 'person.password_reset']),
    );
  });

  it('sends at most 3 links an hour per person (then the same answer, nothing sent), and an expired link does nothing', async () => {
    const s = await join('often@example.com', 'VIEWER');
    for (let i = 0; i < 5; i++) expect((await http(t, 'POST', '/dashboard/password/forgot', { body: { email: 'often@example.com' } })).status).toBe(200);
    const resets = () => smtp.received.filter((r) => r.to.includes('often@example.com') && /reset/i.test(r.subject));
    await eventually(async () => resets().length === 3);
    const rows = await sql<{ n: number }>`select count(*)::int as n from password_resets where person_id = ${s.personId}::uuid`.execute(t.database.db);
    expect(rows.rows[0]!.n).toBe(3);
    const token = /\/dashboard\/reset#([A-Za-z0-9_-]{43})/.exec(resets().at(-1)!.text)![1]!;
    await sql`update password_resets set expires_at = now() - interval '1 second' where person_id = ${s.personId}::uuid`.execute(t.database.db);
    expect((await http(t, 'POST', '/dashboard/password/reset', { body: { token, password: 'a brand new password' } })).status).toBe(403);
    expect(await alive(s)).toBe(true);
  });
});

describe('the second factor', () => {
  it('is set up by scanning and confirming a code, then asked at sign-in: a code a step old works, once; a recovery code works once', async () => {
    const s = await join('totp@example.com', 'DEVELOPER');
    const wrong = await as(s, 'mutation { beginSecondFactorSetup { secret } }');
    const bad = await as(s, 'mutation($c: String!) { confirmSecondFactorSetup(code: $c) { recoveryCodes } }', { c: '000000' === totpCode(wrong.body.data.beginSecondFactorSetup.secret) ? '111111' : '000000' });
    expect(bad.body.errors[0].extensions.code).toBe('UNAUTHORIZED');
    const { secret, recoveryCodes } = await enable(s);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    // Sealed: the secret is nowhere in the row, nor are the recovery codes.
    const row = await sql<{ secret_sealed: Buffer }>`select secret_sealed from person_second_factors where person_id = ${s.personId}::uuid`.execute(t.database.db);
    expect(row.rows[0]!.secret_sealed.toString('latin1')).not.toContain(secret);
    const me = await as(s, '{ signedInPerson { secondFactor recoveryCodesLeft } }');
    expect(me.body.data.signedInPerson).toEqual({ secondFactor: true, recoveryCodesLeft: 10 });

    // The password alone: the second step, and no cookie.
    const first = await login('totp@example.com');
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ second_factor: 'code' });
    expect(first.headers.getSetCookie()).toEqual([]);
    // A phone's clock a step ahead (or, below, behind) is accepted…
    const late = totpCode(secret, Date.now() + 30_000);
    const ok = await login('totp@example.com', PASSWORD, late);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.headers.getSetCookie().some((c) => c.startsWith('zarpay_session='))).toBe(true);
    // …once; and a code two minutes old never.
    const before = await failures(s.personId);
    expect((await login('totp@example.com', PASSWORD, late)).status).toBe(401);
    expect((await login('totp@example.com', PASSWORD, totpCode(secret, Date.now() - 120_000))).status).toBe(401);
    // Wrong codes count toward the same lock as wrong passwords.
    expect(await failures(s.personId)).toBe(before + 2);
    // The wrong password is refused before any code is looked at.
    expect((await login('totp@example.com', 'not the password', totpCode(secret))).status).toBe(401);

    const recovery = recoveryCodes[3]!;
    expect((await login('totp@example.com', PASSWORD, recovery.toUpperCase())).status).toBe(200);
    expect((await login('totp@example.com', PASSWORD, recovery)).status).toBe(401);
    expect((await as(s, '{ signedInPerson { recoveryCodesLeft } }')).body.data.signedInPerson.recoveryCodesLeft).toBe(9);
  });

  it('RFC 6238 steps: one either side of now, never one already accepted', () => {
    const secret = newTotpSecret();
    const now = Date.UTC(2026, 10, 28, 12, 0, 10);
    const step = Math.floor(now / 30_000);
    expect(acceptedStep(secret, totpCode(secret, now - 30_000), null, now)).toBe(step - 1);
    expect(acceptedStep(secret, totpCode(secret, now + 30_000), null, now)).toBe(step + 1);
    expect(acceptedStep(secret, totpCode(secret, now - 90_000), null, now)).toBeNull();
    expect(acceptedStep(secret, totpCode(secret, now), step, now)).toBeNull();
    expect(acceptedStep(secret, totpCode(secret, now), step - 1, now)).toBe(step);
  });

  it('verifySecondFactor: the step-up check another part calls', async () => {
    const s = await join('stepup@example.com', 'OWNER');
    const people = t.app.services.people;
    await expect(people.verifySecondFactor(s.personId, '123456')).resolves.toBe('none');
    const { secret, recoveryCodes } = await enable(s);
    // The code used to confirm is spent: the next step's code (within the window) passes.
    await expect(people.verifySecondFactor(s.personId, totpCode(secret, Date.now() + 30_000))).resolves.toBe('totp');
    const before = await failures(s.personId);
    await expect(people.verifySecondFactor(s.personId, '000000')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await failures(s.personId)).toBe(before + 1);
    await expect(people.verifySecondFactor(s.personId, recoveryCodes[0]!)).resolves.toBe('recovery_code');
    await expect(people.verifySecondFactor(s.personId, recoveryCodes[0]!)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('an owner demands it of everyone: people without one are signed out and set one up after their password', async () => {
    const owner = await join('boss@example.com', 'OWNER');
    const staff = await join('staff@example.com', 'VIEWER');
    const REQUIRE = 'mutation($r: Boolean!) { requireSecondFactor(required: $r) { secondFactorRequired } }';
    expect((await as(owner, REQUIRE, { r: true })).body.errors[0].extensions.code).toBe('CONFLICT');
    expect((await as(staff, REQUIRE, { r: true })).body.errors[0].extensions.code).toBe('FORBIDDEN');
    await enable(owner);
    expect((await as(owner, REQUIRE, { r: true })).body.data.requireSecondFactor.secondFactorRequired).toBe(true);
    expect(await alive(owner)).toBe(true);
    expect(await alive(staff)).toBe(false);

    const setup = await login('staff@example.com');
    expect(setup.body.data.second_factor).toBe('setup');
    expect(setup.body.data.otpauth_uri).toMatch(/^otpauth:\/\/totp\//);
    expect(setup.body.data.qr_code).toMatch(/^data:image\/png;base64,/);
    expect(setup.headers.getSetCookie()).toEqual([]);
    expect((await login('staff@example.com', PASSWORD, '000000')).status).toBe(401);
    const done = await login('staff@example.com', PASSWORD, totpCode(setup.body.data.secret));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data.recovery_codes).toHaveLength(10);
    const staffAgain = sessionOf(done, staff.personId);
    expect((await as(staffAgain, 'mutation($c: String!) { removeSecondFactor(code: $c) { secondFactor } }', { c: 'abcde-fghjk' })).body.errors[0].extensions.code).toBe('CONFLICT');
    // An invite accepted now leads to the set-up as well, not to a session.
    const d = await op(t, INVITE, { m: m.id, e: 'newcomer@example.com', r: 'VIEWER' });
    const joined = await http(t, 'POST', '/dashboard/invite', { body: { token: new URL(d.invitePerson.inviteUrl).hash.slice(1), password: PASSWORD } });
    expect(joined.body.data.second_factor).toBe('setup');
    expect(joined.headers.getSetCookie()).toEqual([]);
  });
});

describe('who did what, in words', () => {
  it('names the person, the payout and its amount, and the operator who approved it', async () => {
    // A merchant of its own: the one above now demands a second factor.
    const other = await createMerchant(t, { name: 'Words Shop' });
    const owner = await join('ledger@example.com', 'OWNER', other.id);
    await credit(t, other.id, 100_000);
    const details = { accountNumber: '62012345678', branchCode: '250655', accountHolder: 'Thandi Nkosi', bankName: 'First National Bank' };
    const created = await as(owner, 'mutation($i: CreatePayoutInput!) { createPayout(input: $i) { payout { id } } }', {
      i: { amountCents: 25_000, currency: 'ZAR', payoutMethod: 'EFT', paymentDetails: details, merchantReference: 'words-1', stepUp: { password: PASSWORD } },
    });
    const id = created.body.data.createPayout.payout.id as string;
    await op(t, 'mutation($id: UUID!) { approvePayout(id: $id) { payout { id } } }', { id });
    await as(owner, 'mutation { updateWebhookUrl(url: "http://localhost:9/hook") { merchant { id } } }');
    const log = await as(owner, '{ auditLog(first: 10) { summary amountCents } }');
    const lines = log.body.data.auditLog.map((e: { summary: string }) => e.summary);
    expect(lines).toContain(`ledger@example.com created payout ${id.slice(0, 8)} of R 250.00`);
    expect(lines.some((l: string) => /^The operator.* approved payout .* of R 250\.00$/.test(l))).toBe(true);
    expect(lines).toContain('ledger@example.com changed the webhook URL to http://localhost:9/hook');
    expect(lines.join('\n')).not.toMatch(/dashboard\./);
  });
});
