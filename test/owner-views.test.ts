import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, gql, http, op, type TestMerchant } from './support/client.ts';
import { newPayment } from './support/payments.ts';

/**
 * What an owner's dashboard reads (issue 33): a viewer reads voucher codes masked, by session and
 * by key, in both APIs (the code is money); a payment shows the customer details it was given
 * (the dashboard's pages show both, and a payout's transfer reference: dashboard.browser.test.ts).
 */

let t: TestApp;
let m: TestMerchant;

type Role = 'OWNER' | 'VIEWER';
let people = 0;
async function session(role: Role) {
  const d = await op(t, 'mutation($m: UUID, $e: String!, $r: PersonRole!) { invitePerson(merchantId: $m, email: $e, role: $r) { inviteUrl } }', { m: m.id, e: `views-${++people}@example.com`, r: role });
  const res = await http(t, 'POST', '/dashboard/invite', { body: { token: new URL(d.invitePerson.inviteUrl).hash.slice(1), password: 'correct horse battery' } });
  const cookies = res.headers.getSetCookie();
  const value = (name: string) => cookies.find((c) => c.startsWith(`${name}=`))!.split(';')[0]!.slice(name.length + 1);
  return { cookie: `zarpay_session=${value('zarpay_session')}`, 'x-csrf-token': value('zarpay_csrf') };
}

beforeAll(async () => {
  t = await startApp();
  m = await createMerchant(t, { name: 'Views Shop' });
  await credit(t, m.id, 100_000);
});
afterAll(() => t?.close());

describe('voucher codes', () => {
  it('a viewer reads them masked, by session and by key, in GraphQL and REST; an owner in full', async () => {
    const p = await newPayment(t, m);
    await op(t, 'mutation($id: UUID!) { settlePayment(id: $id, outcome: CAPTURED) { payment { id } } }', { id: p.payment_id });
    const full = (await http(t, 'GET', `/api/v1/payments/${p.payment_id}`, { key: m.key })).body.data.voucher_code as string;
    expect(full).toMatch(/^\d{4}-\d{4}-\d{4}-\d{4}$/);
    const masked = `****-****-****-${full.slice(-4)}`;

    const viewer = await session('VIEWER');
    const owner = await session('OWNER');
    const doc = 'query($id: UUID!) { payment(id: $id) { voucherCode } payments(first: 5) { edges { node { voucherCode } } } }';
    const byViewer = await gql(t, doc, { id: p.payment_id }, { headers: viewer });
    expect(byViewer.body.data.payment.voucherCode).toBe(masked);
    expect(byViewer.body.data.payments.edges.map((e: { node: { voucherCode: string } }) => e.node.voucherCode)).toEqual([masked]);
    expect(JSON.stringify(byViewer.body)).not.toContain(full);
    expect((await gql(t, doc, { id: p.payment_id }, { headers: owner })).body.data.payment.voucherCode).toBe(full);

    // A key carrying the viewer role (issued by an owner later made a viewer) reads it masked over REST too.
    const viewerKey = (await gql(t, 'mutation { issueApiKey { fullKey } }', {}, { headers: owner })).body.data.issueApiKey.fullKey as string;
    const ownerId = (await gql(t, '{ signedInPerson { personId } }', {}, { headers: owner })).body.data.signedInPerson.personId;
    // Lowering the owner who issued it lowers the key (docs/access.md); another owner stays.
    await session('OWNER');
    await op(t, 'mutation($id: UUID!) { changePersonRole(id: $id, role: VIEWER) { person { role } } }', { id: ownerId });
    const rest = await http(t, 'GET', `/api/v1/payments/${p.payment_id}`, { key: viewerKey });
    expect(rest.status).toBe(200);
    expect(rest.body.data.voucher_code).toBe(masked);
    const listed = await http(t, 'GET', '/api/v1/payments', { key: viewerKey });
    expect(JSON.stringify(listed.body)).not.toContain(full);
  });
});

describe("a payment's customer", () => {
  it('a payment shows the customer details given at initiation, and none when none were given', async () => {
    const given = await newPayment(t, m, { customer_info: { email: 'thandi@example.co.za', phone: '+27825550123' } });
    const bare = await newPayment(t, m);
    const doc = 'query($id: UUID!) { payment(id: $id) { customer { email phone } } }';
    expect((await gql(t, doc, { id: given.payment_id }, { key: m.key })).body.data.payment.customer).toEqual({ email: 'thandi@example.co.za', phone: '+27825550123' });
    expect((await gql(t, doc, { id: bare.payment_id }, { key: m.key })).body.data.payment.customer).toBeNull();
  });
});
