import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS, type Action, ACTIONS } from '../src/domain/access.ts';
import type { Role } from '../src/domain/people.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, eftDetails, gql, http, op, type TestMerchant } from './support/client.ts';
import { eventually } from './support/receiver.ts';
import { sseClient, subscribe } from './support/sse.ts';

/**
 * Who may do what (docs/access.md): the table there is the table the code enforces, and every
 * row of it holds through the API for each role, by a dashboard session and by an API key that
 * person issued. Then what an attacker tried on the way to taking a merchant over: a developer's
 * key used to manage people, move money, or outlive the developer.
 */

type Caller = { session: Session } | { key: string };
interface Session {
  cookie: string;
  csrf: string;
  personId: string;
}

let t: TestApp;
let m: TestMerchant;
const sessions = {} as Record<Role, Session>;
const keys = {} as Record<Role, string>;

const INVITE = 'mutation($m: UUID, $e: String!, $r: PersonRole!) { invitePerson(merchantId: $m, email: $e, role: $r) { inviteUrl person { id } } }';
const ISSUE = 'mutation($m: UUID) { issueApiKey(merchantId: $m) { apiKey { kid role issuedBy issuedByPersonId } fullKey } }';
const CHANGE_ROLE = 'mutation($id: UUID!, $r: PersonRole!) { changePersonRole(id: $id, role: $r) { person { role } } }';
const REMOVE = 'mutation($id: UUID!) { removePerson(id: $id) { person { id } } }';

let people = 0;
async function join(app: TestApp, merchantId: string, role: Role): Promise<Session> {
  const email = `person-${++people}-${role}@example.com`;
  const d = await op(app, INVITE, { m: merchantId, e: email, r: role.toUpperCase() });
  const token = new URL(d.invitePerson.inviteUrl).hash.slice(1);
  const res = await http(app, 'POST', '/dashboard/invite', { body: { token, password: 'correct horse battery' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const cookies = res.headers.getSetCookie();
  const value = (name: string) => cookies.find((c) => c.startsWith(`${name}=`))!.split(';')[0]!.slice(name.length + 1);
  return { cookie: `zarpay_session=${value('zarpay_session')}`, csrf: value('zarpay_csrf'), personId: d.invitePerson.person.id };
}

/** A GraphQL call by a session (cookie and CSRF token) or a key. */
function call(caller: Caller, query: string, variables: Record<string, unknown> = {}, app: TestApp = t) {
  if ('key' in caller) return gql(app, query, variables, { key: caller.key });
  return gql(app, query, variables, { headers: { cookie: caller.session.cookie, 'x-csrf-token': caller.session.csrf } });
}

const codeOf = (res: { body: { errors?: { extensions?: { code?: string } }[] } }) => res.body.errors?.[0]?.extensions?.code;

/** The rows of docs/access.md's first table. */
function documentedTable() {
  const text = readFileSync(new URL('../docs/access.md', import.meta.url), 'utf8');
  const rows = text.split('\n').filter((l) => /^\| `[a-z.]+` \| [^|]+ \| (yes|no) \|/.test(l));
  return rows.map((l) => {
    const [action, covers, owner, developer, viewer, key] = l.split('|').slice(1, -1).map((c) => c.trim());
    const roles = (['owner', 'developer', 'viewer'] as const).filter((_, i) => [owner, developer, viewer][i] === 'yes');
    return { action: action!.replaceAll('`', '') as Action, covers: covers!, roles, key: key === 'yes' };
  });
}

/**
 * One way to try each action: what it answers when the caller may (`allowed` is the code it
 * expects then, or undefined for no error), through GraphQL and, where REST has it, through REST
 * (a key only: the dashboard's sessions speak GraphQL).
 */
const probes: Record<Action, { graphql: (c: Caller) => Promise<string | undefined>; rest?: (key: string) => Promise<number>; allowed?: string; restAllowed?: number }> = {
  read: {
    graphql: async (c) => codeOf(await call(c, '{ balance { availableCents } payouts(first: 1) { totalCount } }')),
    rest: async (key) => (await http(t, 'GET', '/api/v1/payouts/balance', { key })).status,
    restAllowed: 200,
  },
  'audit.read': { graphql: async (c) => codeOf(await call(c, '{ auditLog(first: 1) { id } }')) },
  'payments.create': {
    graphql: async (c) =>
      codeOf(await call(c, 'mutation($i: InitiatePaymentInput!) { initiatePayment(input: $i) { payment { id } } }', { i: { amount: 12_345, currency: 'ZAR', merchantOrderId: randomUUID() } })),
    rest: async (key) => (await http(t, 'POST', '/api/v1/payments/init', { key, body: { amount: 12_345, currency: 'ZAR', merchant_order_id: randomUUID() } })).status,
    restAllowed: 200,
  },
  'payments.request': {
    // E-mail is off in this app: a caller who may send requests hears that, and nothing is made.
    graphql: async (c) =>
      codeOf(await call(c, 'mutation($i: RequestPaymentInput!) { requestPayment(input: $i) { payment { id } } }', { i: { amountCents: 12_345, description: 'Probe', customerEmail: 'probe@example.com' } })),
    allowed: 'VALIDATION_FAILED',
    rest: async (key) => (await http(t, 'POST', '/api/v1/payment-requests', { key, body: { amount_cents: 12_345, description: 'Probe', customer_email: 'probe@example.com' } })).status,
    restAllowed: 400,
  },
  'refunds.create': {
    // An unknown payment: a caller who may refund hears that it is not found; nothing moves.
    graphql: async (c) => codeOf(await call(c, 'mutation($i: RefundPaymentInput!) { refundPayment(input: $i) { refund { id } } }', { i: { paymentId: randomUUID() } })),
    allowed: 'PAYMENT_NOT_FOUND',
    rest: async (key) => (await http(t, 'POST', `/api/v1/payments/${randomUUID()}/refunds`, { key, body: {} })).status,
    restAllowed: 404,
  },
  'payouts.create': {
    graphql: async (c) =>
      codeOf(
        await call(c, 'mutation($i: CreatePayoutInput!) { createPayout(input: $i) { payout { id } } }', {
          // A typed account from a session takes the password again (test/payees.test.ts); a key ignores it.
          i: { amountCents: 100, currency: 'ZAR', payoutMethod: 'EFT', paymentDetails: { accountNumber: eftDetails.account_number, branchCode: eftDetails.branch_code, accountHolder: eftDetails.account_holder, bankName: eftDetails.bank_name }, stepUp: { password: 'correct horse battery' } },
        }),
      ),
    rest: async (key) => (await http(t, 'POST', '/api/v1/payouts', { key, body: { amount_cents: 100, currency: 'ZAR', payout_method: 'eft', payment_details: eftDetails } })).status,
    restAllowed: 201,
  },
  'keys.manage': { graphql: async (c) => codeOf(await call(c, ISSUE, { m: m.id })) },
  'webhooks.manage': {
    graphql: async (c) => codeOf(await call(c, 'mutation { rotateWebhookSecret { webhookSecret { kid } } }')),
    rest: async (key) => (await http(t, 'POST', '/api/v1/merchant/webhooks/secret/rotate', { key })).status,
    restAllowed: 201,
  },
  'settings.update': {
    graphql: async (c) => codeOf(await call(c, 'mutation($i: MerchantSettingsInput!) { updateMerchantSettings(input: $i) { merchant { id } } }', { i: { supportEmail: 'help@example.com' } })),
    rest: async (key) => (await http(t, 'PATCH', '/api/v1/merchant', { key, body: { support_email: 'help@example.com' } })).status,
    restAllowed: 200,
  },
  'people.manage': { graphql: async (c) => codeOf(await call(c, INVITE, { m: null, e: `invited-${randomUUID()}@example.com`, r: 'VIEWER' })) },
  'profile.update': { graphql: async (c) => codeOf(await call(c, 'mutation { setLanguage(language: EN) { language } }')) },
  // An unknown payee: a caller who may remove payees hears that it is not found (adding one takes a password: test/payees.test.ts).
  'payees.manage': { graphql: async (c) => codeOf(await call(c, 'mutation($id: UUID!) { removePayee(id: $id) { payee { id } } }', { id: randomUUID() })), allowed: 'NOT_FOUND' },
};

beforeAll(async () => {
  t = await startApp();
  m = await createMerchant(t, { name: 'Access Shop' });
  await credit(t, m.id, 1_000_000);
  for (const role of ['owner', 'developer', 'viewer'] as const) sessions[role] = await join(t, m.id, role);
  keys.owner = (await call({ session: sessions.owner }, ISSUE, { m: m.id })).body.data.issueApiKey.fullKey;
  keys.developer = (await call({ session: sessions.developer }, ISSUE, { m: m.id })).body.data.issueApiKey.fullKey;
  // A viewer issues no key; a developer's key becomes a viewer's when the developer does.
  const demoted = await join(t, m.id, 'developer');
  keys.viewer = (await call({ session: demoted }, ISSUE, { m: m.id })).body.data.issueApiKey.fullKey;
  expect(codeOf(await call({ session: sessions.owner }, CHANGE_ROLE, { id: demoted.personId, r: 'VIEWER' }))).toBeUndefined();
});
afterAll(() => t?.close());

describe('the access table', () => {
  it('docs/access.md states the table the code enforces, every action once', () => {
    const documented = documentedTable();
    expect(documented.map((r) => r.action)).toEqual([...ACTIONS]);
    for (const row of documented) {
      expect({ action: row.action, covers: row.covers, roles: row.roles, key: row.key }).toEqual({
        action: row.action,
        covers: ACCESS[row.action].covers,
        roles: [...ACCESS[row.action].roles],
        key: ACCESS[row.action].credentials.includes('key'),
      });
    }
  });

  describe.each(documentedTable())('$action', (row) => {
    const probe = probes[row.action];
    it.each(['owner', 'developer', 'viewer'] as const)('by a %s signed in to the dashboard', async (role) => {
      const code = await probe.graphql({ session: sessions[role] });
      expect(code).toBe(row.roles.includes(role) ? probe.allowed : 'FORBIDDEN');
    });
    it.each(['owner', 'developer', 'viewer'] as const)("by a key carrying a %s's role", async (role) => {
      const may = row.key && row.roles.includes(role);
      expect(await probe.graphql({ key: keys[role] })).toBe(may ? probe.allowed : 'FORBIDDEN');
      if (probe.rest) expect(await probe.rest(keys[role])).toBe(may ? probe.restAllowed : 403);
    });
  });
});

describe("a developer's key cannot take the merchant over", () => {
  it('is refused people and money, mints no stronger key, touches no owner key, and dies with its developer', async () => {
    const developer = await join(t, m.id, 'developer');
    const issued = (await call({ session: developer }, ISSUE, { m: m.id })).body.data.issueApiKey;
    expect(issued.apiKey).toMatchObject({ role: 'DEVELOPER', issuedBy: 'PERSON', issuedByPersonId: developer.personId });
    const key = { key: issued.fullKey as string };

    // People: inviting a new owner, removing the real one, promoting itself.
    expect(codeOf(await call(key, INVITE, { m: null, e: 'new-owner@example.com', r: 'OWNER' }))).toBe('FORBIDDEN');
    expect(codeOf(await call(key, REMOVE, { id: sessions.owner.personId }))).toBe('FORBIDDEN');
    expect(codeOf(await call(key, CHANGE_ROLE, { id: developer.personId, r: 'OWNER' }))).toBe('FORBIDDEN');
    // Even the owner's own key manages no people: a key is a machine's credential.
    expect(codeOf(await call({ key: m.key }, INVITE, { m: null, e: 'by-key@example.com', r: 'VIEWER' }))).toBe('FORBIDDEN');
    expect(codeOf(await call({ key: m.key }, REMOVE, { id: developer.personId }))).toBe('FORBIDDEN');
    // Money: a refund and a payout to an account of its choosing.
    expect(await probes['payouts.create'].rest!(key.key)).toBe(403);
    expect(await probes['refunds.create'].rest!(key.key)).toBe(403);

    // A key it issues is the developer's too; an owner's key it may neither replace nor revoke.
    const minted = (await call(key, ISSUE)).body.data.issueApiKey;
    expect(minted.apiKey).toMatchObject({ role: 'DEVELOPER', issuedBy: 'PERSON', issuedByPersonId: developer.personId });
    expect(codeOf(await call(key, 'mutation($k: String) { regenerateSecretKey(kid: $k) { fullKey } }', { k: m.kid }))).toBe('FORBIDDEN');
    expect(codeOf(await call(key, 'mutation($k: String!) { revokeApiKey(kid: $k) { apiKey { status } } }', { k: m.kid }))).toBe('FORBIDDEN');
    expect((await http(t, 'GET', '/api/v1/payouts/balance', { key: m.key })).status).toBe(200);

    // The owner sees what removing the developer revokes, before confirming.
    const shown = await call({ session: sessions.owner }, '{ people { id issuedKeys { kid } } }');
    const listed = shown.body.data.people.find((p: { id: string }) => p.id === developer.personId).issuedKeys.map((k: { kid: string }) => k.kid);
    expect(listed.sort()).toEqual([issued.apiKey.kid, minted.apiKey.kid].sort());

    // An open event stream of the key ends when its developer is removed; both keys are refused.
    const client = sseClient(t.url, false, { 'x-api-key': key.key });
    const before = t.app.services.events.subscriberCount;
    const sub = subscribe(client, 'subscription { payoutEvents { id } }');
    await eventually(async () => t.app.services.events.subscriberCount > before);
    expect(codeOf(await call({ session: sessions.owner }, REMOVE, { id: developer.personId }))).toBeUndefined();
    await sub.ended;
    expect(sub.results.at(-1)!.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    client.dispose();
    for (const k of [issued.fullKey, minted.fullKey]) expect((await http(t, 'GET', '/api/v1/payouts/balance', { key: k })).status).toBe(403);
    const audit = await call({ session: sessions.owner }, '{ auditLog(first: 20) { action } }');
    expect(audit.body.data.auditLog.map((e: { action: string }) => e.action)).toContain('person.remove');
  });

  it('a role lowered lowers the keys its person issued, never raises them; the last owner stays one', async () => {
    const developer = await join(t, m.id, 'developer');
    const key = { key: (await call({ session: developer }, ISSUE, { m: m.id })).body.data.issueApiKey.fullKey as string };
    const rotate = 'mutation { rotateWebhookSecret { webhookSecret { kid } } }';
    expect(codeOf(await call(key, rotate))).toBeUndefined();
    expect(codeOf(await call({ session: sessions.owner }, CHANGE_ROLE, { id: developer.personId, r: 'VIEWER' }))).toBeUndefined();
    expect(codeOf(await call(key, rotate))).toBe('FORBIDDEN');
    expect(codeOf(await call({ session: sessions.owner }, CHANGE_ROLE, { id: developer.personId, r: 'OWNER' }))).toBeUndefined();
    expect(codeOf(await call(key, rotate))).toBe('FORBIDDEN');
    // The person, promoted, may; what they issued as a viewer still may not.
    expect(codeOf(await call({ session: developer }, rotate))).toBeUndefined();

    const shop = await createMerchant(t, { name: 'One Owner Shop' });
    const only = await join(t, shop.id, 'owner');
    expect(codeOf(await call({ session: only }, CHANGE_ROLE, { id: only.personId, r: 'DEVELOPER' }))).toBe('CONFLICT');
  });

  it('an invite never changes the role of someone who signs in already', async () => {
    const viewer = await join(t, m.id, 'viewer');
    const email = (await call({ session: viewer }, '{ signedInPerson { email } }')).body.data.signedInPerson.email;
    expect(codeOf(await call({ session: sessions.owner }, INVITE, { m: null, e: email, r: 'OWNER' }))).toBe('CONFLICT');
    expect((await call({ session: viewer }, '{ signedInPerson { role } }')).body.data.signedInPerson.role).toBe('VIEWER');
  });
});

describe("refusals spend none of the merchant's budgets", () => {
  it("a viewer's refused mutations leave the owner's credentials budget whole, over GraphQL and REST", async () => {
    const limited = await startApp({ RATE_LIMITS: 'credentials=4' });
    try {
      const shop = await createMerchant(limited, { name: 'Budget Shop' });
      const owner = await join(limited, shop.id, 'owner');
      const viewer = await join(limited, shop.id, 'viewer');
      const developer = await join(limited, shop.id, 'developer');
      // Issuing this key and lowering its developer spend two of the four.
      const developerKey = (await call({ session: developer }, ISSUE, { m: shop.id }, limited)).body.data.issueApiKey.fullKey;
      await call({ session: owner }, CHANGE_ROLE, { id: developer.personId, r: 'VIEWER' }, limited);
      const rotate = 'mutation { rotateWebhookSecret { webhookSecret { kid } } }';
      for (let i = 0; i < 4; i++) {
        const refused = await call({ session: viewer }, rotate, {}, limited);
        expect(refused.status).toBe(403);
        expect(codeOf(refused)).toBe('FORBIDDEN');
        expect((await http(limited, 'POST', '/api/v1/merchant/webhooks/secret/rotate', { key: developerKey })).status).toBe(403);
      }
      for (let i = 0; i < 2; i++) expect(codeOf(await call({ session: owner }, rotate, {}, limited))).toBeUndefined();
      // The budget holds for those who may: a fourth is refused.
      expect(codeOf(await call({ session: owner }, rotate, {}, limited))).toBe('RATE_LIMIT_EXCEEDED');
    } finally {
      await limited.close();
    }
  });
});
