import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, eftDetails, http, op, type TestMerchant } from './support/client.ts';
import { zarpay } from './support/processes.ts';
import { eventually } from './support/receiver.ts';
import { startSmtpServer } from './support/smtp.ts';
import { sseClient, subscribe } from './support/sse.ts';
import { safeNext } from '../dashboard/src/router.ts';

/**
 * The dashboard's people and sessions (CONTRACT §10): invites, passwords, the session cookie
 * with its CSRF check as one more way into GraphQL, the roles, the sign-in throttle, and
 * revocation reaching open event streams.
 */

let t: TestApp;
let m: TestMerchant;

beforeAll(async () => {
  t = await startApp();
  m = await createMerchant(t, { name: 'People Shop' });
  await credit(t, m.id, 1_000_000);
});
afterAll(() => t?.close());

interface Session {
  cookie: string;
  csrf: string;
}

const INVITE = 'mutation($m: UUID, $e: String!, $r: PersonRole!) { invitePerson(merchantId: $m, email: $e, role: $r) { inviteUrl expiresAt person { id } } }';

async function invite(email: string, role: 'OWNER' | 'DEVELOPER' | 'VIEWER') {
  const d = await op(t, INVITE, { m: m.id, e: email, r: role });
  return { token: new URL(d.invitePerson.inviteUrl).hash.slice(1), personId: d.invitePerson.person.id as string, url: d.invitePerson.inviteUrl as string };
}

function sessionOf(res: { headers: Headers }): Session {
  const cookies = res.headers.getSetCookie();
  const value = (name: string) => cookies.find((c) => c.startsWith(`${name}=`))!.split(';')[0]!.slice(name.length + 1);
  return { cookie: `zarpay_session=${value('zarpay_session')}`, csrf: value('zarpay_csrf') };
}

async function join(email: string, role: 'OWNER' | 'DEVELOPER' | 'VIEWER', password = 'correct horse battery') {
  const { token, personId } = await invite(email, role);
  const res = await http(t, 'POST', '/dashboard/invite', { body: { token, password } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ...sessionOf(res), personId };
}

const asPerson = (s: Session, query: string, variables: Record<string, unknown> = {}, extra: Record<string, string> = {}) =>
  http(t, 'POST', '/graphql', { body: { query, variables }, headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, ...extra } });

const PAYOUT = 'mutation($i: CreatePayoutInput!) { createPayout(input: $i) { payout { id bankAccount { accountNumberMasked } } } }';
const details = { accountNumber: eftDetails.account_number, branchCode: eftDetails.branch_code, accountHolder: eftDetails.account_holder, bankName: eftDetails.bank_name };
// A typed account from a session takes the password again (test/payees.test.ts); a key ignores it.
const payoutInput = (ref: string) => ({ i: { amountCents: 1000, currency: 'ZAR', payoutMethod: 'EFT', paymentDetails: details, merchantReference: ref, stepUp: { password: 'correct horse battery' } } });

describe('invites and passwords', () => {
  it('sets a password from the link once, at least 12 characters, and signs the person in', async () => {
    const { token, url } = await invite('Ayanda@Example.com', 'VIEWER');
    expect(url).toMatch(/\/dashboard\/invite#/);
    const short = await http(t, 'POST', '/dashboard/invite', { body: { token, password: 'too short' } });
    expect(short.status).toBe(400);
    expect(short.body.error.code).toBe('VALIDATION_FAILED');
    const ok = await http(t, 'POST', '/dashboard/invite', { body: { token, password: 'a long enough secret' } });
    expect(ok.status).toBe(200);
    const cookies = ok.headers.getSetCookie();
    expect(cookies.find((c) => c.startsWith('zarpay_session='))).toMatch(/HttpOnly; SameSite=Lax; Path=\/; Max-Age=43200$/);
    const again = await http(t, 'POST', '/dashboard/invite', { body: { token, password: 'a long enough secret' } });
    expect(again.status).toBe(403);
    const s = sessionOf(ok);
    const me = await asPerson(s, '{ signedInPerson { email role } viewer { id } }');
    expect(me.body.data).toEqual({ signedInPerson: { email: 'ayanda@example.com', role: 'VIEWER' }, viewer: { id: m.id } });
    // The password is stored as a scrypt hash, the session as a digest of its token.
    const { rows } = await sql<{ password_hash: string }>`select password_hash from merchant_people where email = 'ayanda@example.com'`.execute(t.database.db);
    expect(rows[0]!.password_hash).toMatch(/^scrypt\$/);
    const tokens = await sql<{ n: number }>`select count(*)::int as n from merchant_sessions where encode(token_hash, 'escape') like ${'%' + s.cookie.split('=')[1] + '%'}`.execute(t.database.db);
    expect(tokens.rows[0]!.n).toBe(0);
  });

  it('refuses an address that signs in for another merchant, and an invite by anyone but an owner or the operator', async () => {
    const viewer = await join('twice@example.com', 'VIEWER');
    const other = await createMerchant(t, { name: 'Other Shop' });
    const again = await http(t, 'POST', '/graphql', { body: { query: INVITE, variables: { m: other.id, e: 'twice@example.com', r: 'OWNER' } }, headers: { authorization: `Bearer ${t.config.operatorToken}` } });
    expect(again.body.errors[0].extensions.code).toBe('CONFLICT');
    const byViewer = await asPerson(viewer, INVITE, { e: 'someone@example.com', r: 'OWNER' });
    expect(byViewer.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('the CLI prints the link and when it expires (72 hours)', async () => {
    const out = await zarpay(['merchant', 'invite', m.id, '--email', 'cli@example.com', '--role', 'developer'], { ZARPAY_URL: t.url, OPERATOR_TOKEN: t.config.operatorToken });
    expect(out.code, out.stderr).toBe(0);
    const printed = JSON.parse(out.stdout);
    expect(printed.invite_url).toMatch(/\/dashboard\/invite#[A-Za-z0-9_-]{43}$/);
    const hours = (Date.parse(printed.expires_at) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(71.9);
    expect(hours).toBeLessThanOrEqual(72);
  });
});

describe('the invite page before anything is typed', () => {
  const status = (token: string) => http(t, 'POST', '/dashboard/invite/status', { body: { token } });

  it('names the merchant, the address and the role of a working link; a used, expired or unknown one says only so', async () => {
    const { token } = await invite('Named@Example.com', 'DEVELOPER');
    const valid = await status(token);
    expect(valid.status).toBe(200);
    expect(valid.body.data).toMatchObject({ state: 'valid', email: 'named@example.com', role: 'developer', merchant_name: 'People Shop' });
    expect(Date.parse(valid.body.data.expires_at)).toBeGreaterThan(Date.now());
    // Asking changes nothing: the link still sets the password once.
    expect((await http(t, 'POST', '/dashboard/invite', { body: { token, password: 'a long enough secret' } })).status).toBe(200);
    expect((await status(token)).body.data).toEqual({ state: 'used', email: null, role: null, merchant_name: null, expires_at: null });

    const late = await invite('late@example.com', 'VIEWER');
    await sql`update merchant_invites set expires_at = now() - interval '1 second' where person_id = ${late.personId}::uuid`.execute(t.database.db);
    expect((await status(late.token)).body.data).toMatchObject({ state: 'expired', email: null, merchant_name: null });
    expect((await status('x'.repeat(43))).body.data.state).toBe('unknown');
    expect((await status('')).body.error.code).toBe('VALIDATION_FAILED');
    // From another site: refused, like the forms.
    expect((await http(t, 'POST', '/dashboard/invite/status', { body: { token: late.token }, headers: { origin: 'https://evil.example' } })).status).toBe(403);
  });

  it('after sign-in, a deep link comes back only to a path of this dashboard (no open redirect)', () => {
    const here = 'https://pay.example';
    expect(safeNext('/dashboard/payouts', here)).toBe('/dashboard/payouts');
    expect(safeNext('/dashboard/payments/3f2504e0-4f89-11d3-9a0c-0305e82c3301?x=1', here)).toBe('/dashboard/payments/3f2504e0-4f89-11d3-9a0c-0305e82c3301?x=1');
    for (const bad of ['https://evil.example/dashboard', '//evil.example/dashboard', '/\\evil.example/dashboard', '\\evil.example', 'javascript:alert(1)', '/graphql', '/dashboardx', '/dashboard/login', '/dashboard/../graphql', '', null, undefined]) {
      expect(safeNext(bad, here), String(bad)).toBeUndefined();
    }
  });
});

describe('the session as a way into GraphQL', () => {
  it('needs the CSRF token and this origin: a cross-site request carrying the cookie changes nothing', async () => {
    const owner = await join('owner1@example.com', 'OWNER');
    const noToken = await http(t, 'POST', '/graphql', { body: { query: PAYOUT, variables: payoutInput('csrf-1') }, headers: { cookie: owner.cookie } });
    expect(noToken.status).toBe(403);
    const otherSite = await asPerson(owner, PAYOUT, payoutInput('csrf-2'), { origin: 'https://evil.example' });
    expect(otherSite.status).toBe(403);
    const count = await op(t, 'query($m: UUID) { payouts(merchantId: $m) { totalCount } }', { m: m.id });
    expect(count.payouts.totalCount).toBe(0);
    const form = await http(t, 'POST', '/dashboard/login', { body: { email: 'owner1@example.com', password: 'correct horse battery' }, headers: { origin: 'https://evil.example' } });
    expect(form.status).toBe(403);
    // A page load with the cookie and no token (GraphiQL, in a browser signed in to the dashboard) reads as nobody.
    const graphiql = await fetch(`${t.url}/graphql`, { headers: { cookie: owner.cookie, accept: 'text/html' } });
    expect(graphiql.status).toBe(200);
    const wrongToken = await asPerson({ ...owner, csrf: 'x'.repeat(43) }, '{ viewer { id } }');
    expect(wrongToken.status).toBe(403);
  });

  it('roles: owner everything, developer keys and webhooks, viewer reading only (FORBIDDEN in the API)', async () => {
    const owner = await join('owner2@example.com', 'OWNER');
    const developer = await join('dev@example.com', 'DEVELOPER');
    const viewer = await join('viewer@example.com', 'VIEWER');
    const byOwner = await asPerson(owner, PAYOUT, payoutInput('role-owner'));
    expect(byOwner.body.errors).toBeUndefined();
    // A merchant reads its own payout's bank account, masked.
    expect(byOwner.body.data.createPayout.payout.bankAccount.accountNumberMasked).toMatch(/^\*\*\*\*\d{4}$/);
    for (const who of [developer, viewer]) {
      const refused = await asPerson(who, PAYOUT, payoutInput('role-other'));
      expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    }
    const rotate = 'mutation { rotateWebhookSecret { webhookSecret { kid } } }';
    expect((await asPerson(developer, rotate)).body.errors).toBeUndefined();
    expect((await asPerson(viewer, rotate)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    const issue = 'mutation($m: UUID!) { issueApiKey(merchantId: $m) { apiKey { kid } fullKey } }';
    const issued = await asPerson(developer, issue, { m: m.id });
    expect(issued.body.data.issueApiKey.fullKey).toMatch(/^sec1-tst-/);
    expect((await asPerson(viewer, issue, { m: m.id })).body.errors[0].extensions.code).toBe('FORBIDDEN');
    // Reading is every role's.
    const read = await asPerson(viewer, '{ payouts { totalCount edges { node { id bankAccount { accountNumberMasked } } } } balance { availableCents } people { email role } }');
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.payouts.totalCount).toBe(1);
    // Who did what: the person is in the audit log, which owners read.
    const audit = await asPerson(owner, '{ auditLog { actor action } }');
    expect(audit.body.data.auditLog).toEqual(expect.arrayContaining([{ actor: `merchant:${m.id}/person:${owner.personId}`, action: 'dashboard.createPayout' }]));
    expect((await asPerson(viewer, '{ auditLog { actor } }')).body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('ends at sign-out, after 30 idle minutes, and when the person is removed', async () => {
    const a = await join('leaving@example.com', 'VIEWER');
    expect((await asPerson(a, '{ viewer { id } }')).status).toBe(200);
    const out = await http(t, 'POST', '/dashboard/logout', { headers: { cookie: a.cookie, 'x-csrf-token': a.csrf } });
    expect(out.status).toBe(200);
    expect((await asPerson(a, '{ viewer { id } }')).status).toBe(401);

    const signIn = await http(t, 'POST', '/dashboard/login', { body: { email: 'leaving@example.com', password: 'correct horse battery' } });
    expect(signIn.status).toBe(200);
    const b = sessionOf(signIn);
    await sql`update merchant_sessions set last_seen_at = now() - interval '31 minutes' where person_id = ${a.personId}::uuid`.execute(t.database.db);
    expect((await asPerson(b, '{ viewer { id } }')).status).toBe(401);

    const c = sessionOf(await http(t, 'POST', '/dashboard/login', { body: { email: 'leaving@example.com', password: 'correct horse battery' } }));
    await sql`update merchant_sessions set expires_at = now() - interval '1 second' where person_id = ${a.personId}::uuid and revoked_at is null`.execute(t.database.db);
    expect((await asPerson(c, '{ viewer { id } }')).status).toBe(401);

    const d = sessionOf(await http(t, 'POST', '/dashboard/login', { body: { email: 'leaving@example.com', password: 'correct horse battery' } }));
    const owner = await join('remover@example.com', 'OWNER');
    // An open event stream of the session ends when the person is removed.
    const client = sseClient(t.url, false, { cookie: d.cookie, 'x-csrf-token': d.csrf });
    const before = t.app.services.events.subscriberCount;
    const sub = subscribe(client, 'subscription { payoutEvents { id type } }');
    await eventually(async () => t.app.services.events.subscriberCount > before);
    const removed = await asPerson(owner, 'mutation($id: UUID!) { removePerson(id: $id) { person { email } } }', { id: a.personId });
    expect(removed.body.data.removePerson.person.email).toBe('leaving@example.com');
    await sub.ended;
    expect(sub.results.at(-1)!.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
    client.dispose();
    expect((await asPerson(d, '{ viewer { id } }')).status).toBe(401);
    const gone = await http(t, 'POST', '/dashboard/login', { body: { email: 'leaving@example.com', password: 'correct horse battery' } });
    expect(gone.status).toBe(401);
  });

  it('a session revoked by another process (here: by hand in the database) ends its open streams at once', async () => {
    const s = await join('elsewhere@example.com', 'VIEWER');
    const client = sseClient(t.url, true, { cookie: s.cookie, 'x-csrf-token': s.csrf });
    const before = t.app.services.events.subscriberCount;
    const sub = subscribe(client, 'subscription { paymentEvents { id } }');
    await eventually(async () => t.app.services.events.subscriberCount > before);
    await sql`update merchant_sessions set revoked_at = now() where person_id = ${s.personId}::uuid`.execute(t.database.db);
    // The database's notification ends it, well within the 15-second recheck.
    let ended = false;
    void sub.ended.then(() => (ended = true));
    await eventually(async () => ended, 5_000);
    expect(sub.results.at(-1)!.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
    client.dispose();
  });

  it('five wrong passwords per person and address in 15 minutes, then 429 even for the right one', async () => {
    await join('guessed@example.com', 'VIEWER');
    for (let i = 0; i < 5; i++) {
      const wrong = await http(t, 'POST', '/dashboard/login', { body: { email: 'guessed@example.com', password: `wrong password ${i}` } });
      expect(wrong.status).toBe(401);
      expect(wrong.body.error.code).toBe('UNAUTHORIZED');
    }
    const locked = await http(t, 'POST', '/dashboard/login', { body: { email: 'guessed@example.com', password: 'correct horse battery' } });
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('sign-in throttled per account as well as per address', () => {
  // Thirteen sign-ins, each a memory-hard hash: slow on a busy machine.
  it('ten wrong passwords from ten addresses lock the account: the right one is refused as a wrong one until the lock lifts, and the person is told', { timeout: 120_000 }, async () => {
    const smtp = await startSmtpServer();
    // Behind a proxy the service believes, each request comes from the address it forwards.
    const proxied = await startApp({ TRUST_PROXY: 'true', SMTP_URL: smtp.url, SMTP_FROM: 'zarpay <no-reply@zarpay.example>' });
    try {
      const shop = await createMerchant(proxied, { name: 'Guarded Shop' });
      const d = await op(proxied, INVITE, { m: shop.id, e: 'spread@example.com', r: 'OWNER' });
      const token = new URL(d.invitePerson.inviteUrl).hash.slice(1);
      expect((await http(proxied, 'POST', '/dashboard/invite', { body: { token, password: 'correct horse battery' } })).status).toBe(200);
      const from = (n: number) => ({ 'x-forwarded-for': `198.51.100.${n}` });
      const signIn = (password: string, n: number) => http(proxied, 'POST', '/dashboard/login', { body: { email: 'spread@example.com', password }, headers: from(n) });
      // Positive control: the right password from a fresh address signs in before the lock.
      expect((await signIn('correct horse battery', 200)).status).toBe(200);
      for (let n = 1; n <= 10; n++) {
        const wrong = await signIn(`wrong guess ${n}`, n);
        expect(wrong.status).toBe(401);
      }
      const refused = await signIn('correct horse battery', 11);
      const unknown = await http(proxied, 'POST', '/dashboard/login', { body: { email: 'nobody-here@example.com', password: 'correct horse battery' }, headers: from(12) });
      // Locked looks exactly like a wrong password, or an address with no account.
      expect({ status: refused.status, error: refused.body.error }).toEqual({ status: unknown.status, error: unknown.body.error });
      expect(refused.status).toBe(401);
      const [mail] = await eventually(async () => {
        const to = smtp.received.filter((x) => x.to === 'spread@example.com' && /locked/.test(x.subject));
        return to.length ? to : null;
      });
      expect(mail!.text).toContain('10 times in 15 minutes');
      expect(mail!.text).toContain('Guarded Shop');
      // The lock lifts once the wrong passwords are 15 minutes old.
      await sql`update sign_in_failures set at = at - interval '15 minutes'`.execute(proxied.database.db);
      expect((await signIn('correct horse battery', 13)).status).toBe(200);
      expect(smtp.received.filter((x) => x.to === 'spread@example.com')).toHaveLength(2); // the invite and one lock notice
    } finally {
      await proxied.close();
      await smtp.close();
    }
  });
});

describe('sign-in and the anonymous budget', () => {
  it('counts every sign-in against the address\'s anonymous budget', async () => {
    const limited = await startApp({ RATE_LIMITS: 'anonymous=3' });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) codes.push((await http(limited, 'POST', '/dashboard/login', { body: { email: 'nobody@example.com', password: 'x' } })).status);
      expect(codes).toEqual([401, 401, 401, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('invites by e-mail', () => {
  it('with SMTP_URL set, the invite link is e-mailed to the person', async () => {
    const smtp = await startSmtpServer();
    const mailing = await startApp({ SMTP_URL: smtp.url, SMTP_FROM: 'zarpay <no-reply@zarpay.example>' });
    try {
      const shop = await createMerchant(mailing, { name: 'Mail Shop' });
      const d = await op(mailing, INVITE, { m: shop.id, e: 'lindiwe@example.com', r: 'DEVELOPER' });
      const [mail] = await eventually(async () => {
        const to = smtp.received.filter((x) => x.to === 'lindiwe@example.com');
        return to.length ? to : null;
      });
      expect(mail!.subject).toBe('You are invited to the zarpay dashboard');
      expect(mail!.text).toContain(d.invitePerson.inviteUrl);
      expect(mail!.text).toContain('developer');
    } finally {
      await mailing.close();
      await smtp.close();
    }
  });
});
