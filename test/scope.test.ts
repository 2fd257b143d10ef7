import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { type GraphQLField, getNamedType, type GraphQLObjectType, isObjectType } from 'graphql';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as attempts from '../src/db/attempts.ts';
import * as payments from '../src/db/payments.ts';
import { type Actor, paymentScope } from '../src/domain/actor.ts';
import { encodePosition } from '../src/domain/event-position.ts';
import { GRAPHIQL_ASSETS } from '../src/graphql/graphiql.ts';
import { schema } from '../src/graphql/schema.ts';
import { camt054 } from './support/bank-reports.ts';
import { startApp } from './support/app.ts';
import { createMerchant, credit, gql, type HttpResult, http, op, payoutBody, type TestMerchant } from './support/client.ts';
import { newPayment, paymentBody, press } from './support/payments.ts';
import { eventually } from './support/receiver.ts';
import { sseClient, subscribe } from './support/sse.ts';

/**
 * One tenant rule for the whole service (domain/actor.ts), proved on everything either adapter
 * serves: a merchant sees only itself; naming another merchant is FORBIDDEN everywhere alike;
 * another merchant's resource by id is answered exactly as an id that does not exist; the
 * operator sees the merchant it names, or every merchant when it names none.
 *
 * What is walked is derived, not listed: every GraphQL field that reads merchant data (from the
 * schema) and every HTTP route (from the running app). The tables below only say how to call
 * each one; a field or route they do not name fails its test by name until it is classified.
 */
// Started while the file is collected: the routes walked below are the running app's.
// E-mail on (a closed port: a payment request is made, its e-mail waits for a retry).
const t = await startApp({ SMTP_URL: 'smtp://127.0.0.1:9' });
afterAll(() => t.close());

let a: TestMerchant;
let b: TestMerchant;
const MISSING = '0b6f3c4e-1d2a-4b5c-8d9e-0f1a2b3c4d5e';
/** `refunded`: a captured payment with a refund; `refund`: that refund. */
/** `report`: a bank report whose one entry names the merchant's payout (the operator's alone). */
type Resource = 'merchant' | 'payout' | 'payment' | 'event' | 'refunded' | 'refund' | 'link' | 'report';
type Whose = 'a' | 'b';
const ids: Record<Whose, Record<Resource, string>> = {
  a: { merchant: '', payout: '', payment: '', event: '', refunded: '', refund: '', link: '', report: '' },
  b: { merchant: '', payout: '', payment: '', event: '', refunded: '', refund: '', link: '', report: '' },
};
/** Ids that appear in an answer only if it shows that merchant's data. */
const markers: Record<Whose, string[]> = { a: [], b: [] };
/** What B used before A, to see that A's requests never reach it: a payout reference, a payment order id. */
const taken = { reference: 'shared-reference', orderId: 'shared-order-id' };

beforeAll(async () => {
  a = await createMerchant(t, { name: 'Shop A', webhookUrl: 'http://127.0.0.1:9/a' });
  b = await createMerchant(t, { name: 'Shop B', webhookUrl: 'http://127.0.0.1:9/b' });
  for (const [whose, m] of [['a', a], ['b', b]] as const) {
    await credit(t, m.id, 50_000);
    const payout = (await http(t, 'POST', '/api/v1/payouts', { key: m.key, body: payoutBody(1_111) })).body.data.id;
    const payment = (await newPayment(t, m, { amount: 6_111 })).payment_id;
    const event = await t.database.db.selectFrom('events').select('id').where('payout_id', '=', payout).executeTakeFirstOrThrow();
    const secret = (await http(t, 'POST', '/api/v1/merchant/webhooks/secret', { key: m.key })).body.data.id;
    // Audited operator actions that change nothing, so that the audit log has entries of each merchant's.
    await op(t, 'mutation($id: UUID!) { reconcilePayment(id: $id) { payment { id } } }', { id: payment });
    await op(t, 'mutation($id: UUID!) { revealPayoutBankAccount(id: $id, reason: "scope test") { bankAccount { bankName } } }', { id: payout });
    const refunded = (await newPayment(t, m, { amount: 6_222 })).payment_id;
    await op(t, 'mutation($id: UUID!) { settlePayment(id: $id, outcome: CAPTURED) { payment { id } } }', { id: refunded });
    const refund = (await http(t, 'POST', `/api/v1/payments/${refunded}/refunds`, { key: m.key, body: { amount_cents: 100 } })).body.data.refund_id;
    // A person who issued a key of their own, so that the people of each merchant have something to show.
    // An owner, who also saves a payee (with the password again).
    const invited = await op(t, 'mutation($m: UUID!, $e: String!) { invitePerson(merchantId: $m, email: $e, role: OWNER) { inviteUrl } }', { m: m.id, e: `scope-dev-${whose}@example.com` });
    const token = new URL(invited.invitePerson.inviteUrl).hash.slice(1);
    const joined = await http(t, 'POST', '/dashboard/invite', { body: { token, password: `scope test password ${whose}` } });
    const cookies = joined.headers.getSetCookie().map((c) => c.split(';')[0]!);
    const csrf = cookies.find((c) => c.startsWith('zarpay_csrf='))!.slice('zarpay_csrf='.length);
    const issued = await gql(t, 'mutation { issueApiKey { apiKey { kid } } }', {}, { headers: { cookie: cookies.join('; '), 'x-csrf-token': csrf } });
    const kid = issued.body.data.issueApiKey.apiKey.kid as string;
    const payee = await gql(
      t,
      'mutation($i: CreatePayeeInput!) { createPayee(input: $i) { payee { id } } }',
      { i: { name: `Payee of ${whose}`, password: `scope test password ${whose}`, paymentDetails: { accountNumber: '1002003004', branchCode: '470010', accountHolder: 'Scope Payee', bankName: 'Capitec' } } },
      { headers: { cookie: cookies.join('; '), 'x-csrf-token': csrf } },
    );
    markers[whose].push(payee.body.data.createPayee.payee.id);
    const link = (await http(t, 'POST', '/api/v1/payment-links', { key: m.key, body: { description: `Scope link ${whose}` } })).body.data.link_id;
    const report = camt054(`SCOPE-${whose}`, [{ endToEndId: payout.replaceAll('-', ''), amount: '11.11', bankRef: `SCOPE-${whose}` }]);
    const reportId = (await op(t, 'mutation($i: ImportBankReportInput!) { importBankReport(input: $i) { reportId } }', { i: { content: report } })).importBankReport.reportId as string;
    await eventually(async () => (await op(t, 'query($id: UUID!) { bankReport(id: $id) { status } }', { id: reportId })).bankReport.status === 'applied');
    ids[whose] = { merchant: m.id, payout, payment, event: event.id, refunded, refund, link, report: reportId };
    markers[whose].push(m.id, payout, payment, event.id, secret, refunded, refund, kid, link);
  }
  const bRef = (await http(t, 'POST', '/api/v1/payouts', { key: b.key, body: payoutBody(100, { merchant_reference: taken.reference }) })).body.data.id;
  const bOrder = (await newPayment(t, b, { merchant_order_id: taken.orderId })).payment_id;
  markers.b.push(bRef, bOrder);
});

type Answer = { body: any; status?: number };
const leaked = (res: Answer, whose: Whose) => markers[whose].filter((m) => JSON.stringify(res.body).includes(m));
const expectShows = (res: Answer, whose: Whose, why: string) => expect(leaked(res, whose).length, `${why}: shows ${whose === 'a' ? 'A' : 'B'}`).toBeGreaterThan(0);
const expectHides = (res: Answer, whose: Whose, why: string) => expect(leaked(res, whose), `${why}: hides ${whose === 'a' ? 'A' : 'B'}`).toEqual([]);
const codeOf = (res: Answer): string | undefined => res.body?.errors?.[0]?.extensions?.code ?? res.body?.error?.code;
/** An answer with an id written out as `<id>`: B's resource and a missing id must read the same (key order aside). */
const sameAs = (res: Answer, id: string) => JSON.parse(JSON.stringify({ status: res.status, body: res.body }).replaceAll(id, '<id>'));

const asA = () => ({ 'x-api-key': a.key });
const asOperator = () => ({ authorization: `Bearer ${t.config.operatorToken}` });
const graph = (doc: string, variables: Record<string, unknown>, who: 'a' | 'operator') => gql(t, doc, variables, who === 'operator' ? { operator: true } : { key: a.key });

// ---- GraphQL: the fields, derived from the schema.

const ROOTS = new Set(['Query', 'Mutation', 'Subscription']);
const objectTypes = Object.values(schema.getTypeMap()).filter((type): type is GraphQLObjectType => isObjectType(type) && !type.name.startsWith('__'));

/** Types that hold merchant data: those with a merchantId, Merchant, and everything reached from them. */
const owned = new Set(objectTypes.filter((type) => !ROOTS.has(type.name) && ('merchantId' in type.getFields() || type.name === 'Merchant')).map((type) => type.name));
for (let grew = true; grew; ) {
  grew = false;
  for (const type of objectTypes.filter((o) => owned.has(o.name))) {
    for (const field of Object.values(type.getFields())) {
      const inner = getNamedType(field.type);
      if (isObjectType(inner) && !owned.has(inner.name)) {
        owned.add(inner.name);
        grew = true;
      }
    }
  }
}

/**
 * Every field that reads merchant data: each field of Query and Subscription, each field that
 * takes a `merchantId`, and each field that returns merchant data. Fields of the other types (a
 * mutation's payload, a connection's edges) only hand on what their field already read.
 */
const fieldsToWalk = new Map<string, GraphQLField<unknown, unknown>>();
for (const type of objectTypes) {
  if (!ROOTS.has(type.name) && !owned.has(type.name)) continue;
  for (const field of Object.values(type.getFields())) {
    const returnsOwned = owned.has(getNamedType(field.type).name);
    if (type.name === 'Query' || type.name === 'Subscription' || returnsOwned || field.args.some((arg) => arg.name === 'merchantId')) {
      fieldsToWalk.set(`${type.name}.${field.name}`, field);
    }
  }
}

interface FieldProbe {
  /** Who may read it: a merchant and the operator, or only one of them. */
  who: 'both' | 'operator' | 'merchant' | 'public';
  /** A document that reaches the field and reads something naming whose it is; `$m` a merchant, `$id` an id of `id.of`. */
  doc: string;
  /** Takes a merchant: `many` lists one merchant's or (the operator naming none) every merchant's; `one` needs one named. */
  names?: 'many' | 'one';
  /** Takes an id of this resource; `missing`: the code an id that does not exist gets (none: an empty answer). */
  id?: { of: Resource; missing?: string };
  /** A subscription, and what makes its events. */
  stream?: 'payout' | 'payment';
  /** A subscription that resumes `after` a position: another merchant's position is answered as one that does not exist. */
  resume?: true;
}

/** A day in Africa/Johannesburg (UTC+2), counted from today. */
const sastDay = (offset: number) => new Date(Date.now() + 2 * 3600_000 + offset * 86_400_000).toISOString().slice(0, 10);

/** A merchant's refunds, reached through one of its payouts (A's for A, any for the operator). */
const merchantRefunds: FieldProbe = {
  who: 'both',
  id: { of: 'payout', missing: 'PAYOUT_NOT_FOUND' },
  doc: 'query($id: UUID!) { payout(id: $id) { merchant { refunds(first: 100) { totalCount pageInfo { hasNextPage } edges { node { id merchantId } } } } } }',
};

/** How to call each field; the fields themselves come from the schema. */
const FIELDS: Record<string, FieldProbe | FieldProbe[]> = {
  'Query.auditLog': [
    { who: 'both', id: { of: 'payment' }, doc: 'query($id: UUID) { auditLog(paymentId: $id) { merchantId paymentId } }' },
    { who: 'both', id: { of: 'payout' }, doc: 'query($id: UUID) { auditLog(payoutId: $id) { merchantId payoutId } }' },
  ],
  'Query.people': { who: 'both', names: 'one', doc: 'query($m: UUID) { people(merchantId: $m) { merchantId } }' },
  'Person.issuedKeys': { who: 'both', names: 'one', doc: 'query($m: UUID) { people(merchantId: $m) { issuedKeys { merchantId kid } } }' },
  'Query.signedInPerson': { who: 'merchant', doc: '{ signedInPerson { personId } viewer { id } }' },
  // People are managed from an owner's session or by the operator, never with a key (docs/access.md).
  'Mutation.invitePerson': { who: 'operator', names: 'one', doc: 'mutation($m: UUID) { invitePerson(merchantId: $m, email: "probe@example.com", role: VIEWER) { person { merchantId } } }' },
  'Query.balance': { who: 'both', names: 'one', doc: 'query($m: UUID) { balance(merchantId: $m) { merchantId } }' },
  'Query.jobQueues': { who: 'operator', doc: '{ jobQueues { name } }' },
  'Query.jobs': { who: 'operator', doc: '{ jobs { id merchantId } }' },
  'Query.ledgerVerification': { who: 'operator', doc: '{ ledgerVerification }' },
  'Query.merchant': { who: 'operator', id: { of: 'merchant' }, doc: 'query($id: UUID!) { merchant(id: $id) { id } }' },
  'Query.merchants': { who: 'operator', doc: '{ merchants { id } }' },
  'Query.paymentLink': { who: 'both', id: { of: 'link', missing: 'NOT_FOUND' }, doc: 'query($id: UUID!) { paymentLink(id: $id) { id merchantId } }' },
  'Query.paymentLinks': { who: 'both', names: 'many', doc: 'query($m: UUID) { paymentLinks(merchantId: $m) { edges { node { id merchantId } } } }' },
  'Query.payment': { who: 'both', id: { of: 'payment', missing: 'PAYMENT_NOT_FOUND' }, doc: 'query($id: UUID!) { payment(id: $id) { id merchantId } }' },
  'Query.payments': { who: 'both', names: 'many', doc: 'query($m: UUID) { payments(merchantId: $m, first: 100) { totalCount edges { node { id merchantId } } } }' },
  'Query.payout': { who: 'both', id: { of: 'payout', missing: 'PAYOUT_NOT_FOUND' }, doc: 'query($id: UUID!) { payout(id: $id) { id merchantId } }' },
  'Query.bankReport': { who: 'operator', id: { of: 'report' }, doc: 'query($id: UUID!) { bankReport(id: $id) { reportId entries { payoutId } } }' },
  'Query.payoutBatches': { who: 'operator', doc: '{ payoutBatches { totalCount batches { id payouts { merchantId } } } }' },
  'Query.payouts': { who: 'both', names: 'many', doc: 'query($m: UUID) { payouts(merchantId: $m, first: 100) { totalCount edges { node { id merchantId } } } }' },
  'Query.refund': { who: 'both', id: { of: 'refund', missing: 'REFUND_NOT_FOUND' }, doc: 'query($id: UUID!) { refund(id: $id) { id merchantId } }' },
  'Query.refunds': [
    { who: 'both', names: 'many', doc: 'query($m: UUID) { refunds(merchantId: $m, limit: 100) { total refunds { id merchantId } } }' },
    { who: 'both', id: { of: 'refunded' }, doc: 'query($id: UUID) { refunds(paymentId: $id) { total refunds { id merchantId } } }' },
  ],
  'Query.statement': { who: 'both', names: 'one', doc: `query($m: UUID) { statement(merchantId: $m, from: "${sastDay(-1)}", to: "${sastDay(1)}") { merchantId } }` },
  'Statement.accountingRows': { who: 'both', names: 'one', doc: `query($m: UUID) { statement(merchantId: $m, from: "${sastDay(-1)}", to: "${sastDay(1)}") { merchantId accountingRows { date balance } } }` },
  'Statement.entries': { who: 'both', names: 'one', doc: `query($m: UUID) { statement(merchantId: $m, from: "${sastDay(-1)}", to: "${sastDay(1)}") { merchantId entries { entryId } } }` },
  'Query.stats': { who: 'operator', doc: '{ stats { reservedCents } }' },
  'Query.viewer': { who: 'merchant', doc: '{ viewer { id } }' },
  'Query.payees': { who: 'merchant', doc: '{ payees { id } }' },
  // The list of South African banks: nobody's data, the same answer for everyone.
  'Query.banks': { who: 'public', doc: '{ banks { id universalBranchCode } }' },
  'Query.webhookDeliveries': [
    { who: 'both', names: 'many', doc: 'query($m: UUID) { webhookDeliveries(merchantId: $m, first: 100) { merchantId } }' },
    { who: 'both', id: { of: 'event' }, doc: 'query($id: UUID) { webhookDeliveries(eventId: $id) { id eventId merchantId } }' },
  ],
  'Subscription.paymentEvents': { who: 'both', names: 'many', stream: 'payment', resume: true, doc: 'subscription($m: UUID, $after: String) { paymentEvents(merchantId: $m, after: $after) { merchantId } }' },
  'Subscription.payoutEvents': { who: 'both', names: 'many', stream: 'payout', resume: true, doc: 'subscription($m: UUID, $after: String) { payoutEvents(merchantId: $m, after: $after) { merchantId } }' },
  'Mutation.creditBalance': { who: 'operator', names: 'one', doc: 'mutation($m: UUID!) { creditBalance(merchantId: $m, amountCents: 1) { balance { merchantId } } }' },
  'Mutation.issueApiKey': { who: 'both', names: 'one', doc: 'mutation($m: UUID) { issueApiKey(merchantId: $m) { apiKey { merchantId } } }' },
  'Balance.breakdown': { who: 'both', id: { of: 'payout', missing: 'PAYOUT_NOT_FOUND' }, doc: 'query($id: UUID!) { payout(id: $id) { merchant { balance { merchantId breakdown { paymentsCents } } } } }' },
  'Balance.totals': { who: 'both', id: { of: 'payout', missing: 'PAYOUT_NOT_FOUND' }, doc: 'query($id: UUID!) { payout(id: $id) { merchant { balance { merchantId totals { grossCents } } } } }' },
  'Merchant.apiKeys': { who: 'both', id: { of: 'payout', missing: 'PAYOUT_NOT_FOUND' }, doc: 'query($id: UUID!) { payout(id: $id) { merchant { apiKeys { merchantId } } } }' },
  'Merchant.refunds': merchantRefunds,
  // The connection under a merchant hands on what Merchant.refunds read: the same probe reaches its parts.
  'MerchantRefundsConnection.edges': merchantRefunds,
  'MerchantRefundsConnection.pageInfo': merchantRefunds,
  'MerchantRefundsConnectionEdge.node': merchantRefunds,
  'Merchant.balance': { who: 'both', id: { of: 'payout', missing: 'PAYOUT_NOT_FOUND' }, doc: 'query($id: UUID!) { payout(id: $id) { merchant { balance { merchantId } } } }' },
  'Merchant.webhookSecrets': { who: 'both', id: { of: 'payout', missing: 'PAYOUT_NOT_FOUND' }, doc: 'query($id: UUID!) { payout(id: $id) { merchant { webhookSecrets { id } } } }' },
  'Merchant.paymentLimits': { who: 'both', id: { of: 'payout', missing: 'PAYOUT_NOT_FOUND' }, doc: 'query($id: UUID!) { payout(id: $id) { merchant { id paymentLimits { minCents } } } }' },
  'Payment.paymentLink': { who: 'both', id: { of: 'payment', missing: 'PAYMENT_NOT_FOUND' }, doc: 'query($id: UUID!) { payment(id: $id) { merchantId paymentLink { id } } }' },
  'PaymentLink.qrCode': { who: 'both', id: { of: 'link', missing: 'NOT_FOUND' }, doc: 'query($id: UUID!) { paymentLink(id: $id) { merchantId qrCode { content } } }' },
  'Payment.qrCode': { who: 'both', id: { of: 'payment', missing: 'PAYMENT_NOT_FOUND' }, doc: 'query($id: UUID!) { payment(id: $id) { merchantId qrCode { content } } }' },
  'Payment.latestAttempt': { who: 'both', id: { of: 'payment', missing: 'PAYMENT_NOT_FOUND' }, doc: 'query($id: UUID!) { payment(id: $id) { merchantId latestAttempt { provider } } }' },
  'Payment.customer': { who: 'both', id: { of: 'payment', missing: 'PAYMENT_NOT_FOUND' }, doc: 'query($id: UUID!) { payment(id: $id) { merchantId customer { email } } }' },
  'Payment.refunds': { who: 'both', id: { of: 'refunded', missing: 'PAYMENT_NOT_FOUND' }, doc: 'query($id: UUID!) { payment(id: $id) { merchantId refunds { id } } }' },
  'Refund.payment': { who: 'both', id: { of: 'refund', missing: 'REFUND_NOT_FOUND' }, doc: 'query($id: UUID!) { refund(id: $id) { payment { id merchantId } } }' },
  'PaymentEvent.payment': { who: 'both', names: 'many', stream: 'payment', doc: 'subscription($m: UUID) { paymentEvents(merchantId: $m) { payment { merchantId } } }' },
  'Payout.bankAccount': { who: 'both', id: { of: 'payout', missing: 'PAYOUT_NOT_FOUND' }, doc: 'query($id: UUID!) { payout(id: $id) { merchantId bankAccount { bankName } } }' },
  'Payout.events': { who: 'both', id: { of: 'payout', missing: 'PAYOUT_NOT_FOUND' }, doc: 'query($id: UUID!) { payout(id: $id) { events { id } } }' },
  'Payout.merchant': { who: 'both', id: { of: 'payout', missing: 'PAYOUT_NOT_FOUND' }, doc: 'query($id: UUID!) { payout(id: $id) { merchant { id } } }' },
  'PayoutEvent.payout': { who: 'both', names: 'many', stream: 'payout', doc: 'subscription($m: UUID) { payoutEvents(merchantId: $m) { payout { merchantId } } }' },
  'WebhookDelivery.attemptLog': { who: 'both', id: { of: 'event' }, doc: 'query($id: UUID) { webhookDeliveries(eventId: $id) { merchantId attemptLog { attempt } } }' },
};

const probesOf = (name: string): FieldProbe[] => [FIELDS[name] ?? []].flat();

/** What the schema says a field needs walked: its merchant, each id it takes, and a resume position. */
function expectWalkedAsDeclared(name: string, field: GraphQLField<unknown, unknown>, probes: FieldProbe[]) {
  if (field.args.some((arg) => arg.name === 'merchantId')) expect(probes.some((p) => p.names), `${name} takes a merchantId: probe it with names`).toBe(true);
  for (const arg of field.args.filter((x) => getNamedType(x.type).name === 'UUID' && x.name !== 'merchantId')) {
    expect(probes.some((p) => p.id && p.doc.includes(`${arg.name}: $id`)), `${name}(${arg.name}) takes an id: probe it with id`).toBe(true);
  }
  if (name.startsWith('Subscription.') && field.args.some((arg) => arg.name === 'after')) expect(probes.some((p) => p.resume), `${name}(after) resumes: probe it with resume`).toBe(true);
}

async function checkOperatorOnly(p: FieldProbe) {
  const values = (whose: Whose) => ({ ...(p.names && { m: ids[whose].merchant }), ...(p.id && { id: ids[whose][p.id.of] }) });
  const own = await graph(p.doc, values('a'), 'a');
  expect(codeOf(own), 'a merchant, even for its own').toBe('FORBIDDEN');
  const theirs = await graph(p.doc, values('b'), 'a');
  expect(theirs.body.errors?.length, 'a merchant, for another merchant').toBeGreaterThan(0);
  expectHides(theirs, 'b', 'a merchant, for another merchant');
  const res = await graph(p.doc, values('b'), 'operator');
  expect(res.body.errors, 'the operator').toBeUndefined();
  if (p.names || p.id) {
    expectShows(res, 'b', 'the operator naming B');
    expectHides(res, 'a', 'the operator naming B');
  }
}

async function checkMerchantOnly(p: FieldProbe) {
  const res = await graph(p.doc, {}, 'a');
  expect(res.body.errors).toBeUndefined();
  expectShows(res, 'a', 'the merchant');
  expectHides(res, 'b', 'the merchant');
  expect(codeOf(await graph(p.doc, {}, 'operator')), 'the operator').toBe('FORBIDDEN');
}

/** A field of nobody's data: a merchant and the operator read the same, and it shows no merchant's. */
async function checkPublic(p: FieldProbe) {
  const res = await graph(p.doc, {}, 'a');
  expect(res.body.errors).toBeUndefined();
  expectHides(res, 'a', 'public data');
  expectHides(res, 'b', 'public data');
  expect((await graph(p.doc, {}, 'operator')).body).toEqual(res.body);
}

async function checkNamed(p: FieldProbe) {
  const theirs = await graph(p.doc, { m: b.id }, 'a');
  expect(codeOf(theirs), 'A naming B').toBe('FORBIDDEN');
  expect(theirs.body.data ?? null, 'A naming B').toBeNull();
  expectHides(theirs, 'b', 'A naming B');
  for (const m of [a.id, null]) {
    const res = await graph(p.doc, { m }, 'a');
    expect(res.body.errors, `A naming ${m}`).toBeUndefined();
    expectShows(res, 'a', `A naming ${m}`);
    expectHides(res, 'b', `A naming ${m}`);
  }
  const named = await graph(p.doc, { m: b.id }, 'operator');
  expect(named.body.errors, 'the operator naming B').toBeUndefined();
  expectShows(named, 'b', 'the operator naming B');
  expectHides(named, 'a', 'the operator naming B');
  const none = await graph(p.doc, { m: null }, 'operator');
  if (p.names === 'one') {
    expect(codeOf(none), 'the operator naming none of a one-merchant read').toBe('VALIDATION_FAILED');
  } else {
    expect(none.body.errors, 'the operator naming none').toBeUndefined();
    expectShows(none, 'a', 'the operator naming none');
    expectShows(none, 'b', 'the operator naming none');
  }
}

async function checkById(p: FieldProbe & { id: NonNullable<FieldProbe['id']> }) {
  const theirs = await graph(p.doc, { id: ids.b[p.id.of] }, 'a');
  const missing = await graph(p.doc, { id: MISSING }, 'a');
  expect(sameAs(theirs, ids.b[p.id.of]), 'B\'s id, as A: exactly like a missing id').toEqual(sameAs(missing, MISSING));
  expect(codeOf(theirs), 'B\'s id, as A').toBe(p.id.missing);
  expectHides(theirs, 'b', 'B\'s id, as A');
  const own = await graph(p.doc, { id: ids.a[p.id.of] }, 'a');
  expect(own.body.errors, 'A\'s own id').toBeUndefined();
  expectShows(own, 'a', 'A\'s own id');
  expectHides(own, 'b', 'A\'s own id');
  const res = await graph(p.doc, { id: ids.b[p.id.of] }, 'operator');
  expect(res.body.errors, 'the operator with B\'s id').toBeUndefined();
  expectShows(res, 'b', 'the operator with B\'s id');
  expectHides(res, 'a', 'the operator with B\'s id');
}

/** Makes one event of `kind` for `m`. */
async function trigger(kind: 'payout' | 'payment', m: TestMerchant) {
  if (kind === 'payout') {
    expect((await http(t, 'POST', '/api/v1/payouts', { key: m.key, body: payoutBody(100) })).status).toBe(201);
  } else {
    const { payment_id } = await newPayment(t, m);
    await op(t, 'mutation($id: UUID!) { settlePayment(id: $id, outcome: CANCELLED) { payment { id } } }', { id: payment_id });
  }
}

async function checkStream(p: FieldProbe & { stream: 'payout' | 'payment' }) {
  const open = (headers: Record<string, string>, variables: Record<string, unknown>) => {
    const client = sseClient(t.url, false, headers);
    const sub = subscribe(client, p.doc, variables);
    return { sub, answer: () => ({ body: sub.results }), close: () => (sub.dispose(), client.dispose()) };
  };
  const refused = open(asA(), { m: b.id });
  const [first] = await refused.sub.waitFor(1);
  expect(first!.errors?.[0]?.extensions?.code, 'A naming B').toBe('FORBIDDEN');
  expectHides(refused.answer(), 'b', 'A naming B');
  refused.close();

  await eventually(async () => t.app.services.events.subscriberCount === 0);
  const streams = { aNone: open(asA(), {}), aSelf: open(asA(), { m: a.id }), opB: open(asOperator(), { m: b.id }), opAll: open(asOperator(), {}) };
  await eventually(async () => t.app.services.events.subscriberCount === 4);
  await trigger(p.stream, a);
  await trigger(p.stream, b);
  // Once the operator's every-merchant stream has both events, each other stream has had its chance at them.
  await streams.opAll.sub.waitFor(2);
  expectShows(streams.opAll.answer(), 'a', 'the operator naming none');
  expectShows(streams.opAll.answer(), 'b', 'the operator naming none');
  for (const [name, s, whose] of [['the operator naming B', streams.opB, 'b'], ['A naming none', streams.aNone, 'a'], ['A naming itself', streams.aSelf, 'a']] as const) {
    await s.sub.waitFor(1);
    // What a stream shows is its own merchant's events only (a busy machine may let an earlier
    // probe's event of the same merchant arrive too; the other merchant's never may).
    for (const r of s.sub.results) expect(r.errors, `${name}: ${JSON.stringify(r)}`).toBeUndefined();
    expectShows(s.answer(), whose, name);
    expectHides(s.answer(), whose === 'a' ? 'b' : 'a', name);
  }
  for (const s of Object.values(streams)) s.close();
  await eventually(async () => t.app.services.events.subscriberCount === 0);
}

/** A resume position of B's event, as A, is refused exactly as a position that does not exist. */
async function checkResume(p: FieldProbe) {
  const row = await t.database.db.selectFrom('events').select(['seq', sql<string>`xact_id::text`.as('xact')]).where('id', '=', ids.b.event).executeTakeFirstOrThrow();
  const refusal = async (after: string) => {
    const s = subscribe(sseClient(t.url, false, asA()), p.doc, { after });
    await s.ended;
    s.dispose();
    return s.results[0]?.errors?.[0];
  };
  const theirs = await refusal(encodePosition({ xact: row.xact, seq: row.seq }));
  expect(theirs?.extensions?.code, 'B\'s position, as A').toBe('VALIDATION_FAILED');
  expect(theirs, 'B\'s position, as A: exactly like a position that does not exist').toEqual(await refusal(encodePosition({ xact: row.xact, seq: row.seq + 1_000_000 })));
}

describe('every GraphQL field that reads merchant data', () => {
  it.each([...fieldsToWalk.keys()])('%s', async (name) => {
    const probes = probesOf(name);
    if (probes.length === 0) throw new Error(`${name} reads merchant data but is not yet classified in test/scope.test.ts (FIELDS)`);
    expectWalkedAsDeclared(name, fieldsToWalk.get(name)!, probes);
    for (const p of probes) {
      if (p.who === 'operator') await checkOperatorOnly(p);
      else if (p.who === 'merchant') await checkMerchantOnly(p);
      else if (p.who === 'public') await checkPublic(p);
      else if (p.stream) await checkStream({ ...p, stream: p.stream });
      else if (p.names) await checkNamed(p);
      else if (p.id) await checkById({ ...p, id: p.id });
      else throw new Error(`${name}: a probe for both needs names, id or stream`);
      if (p.resume) await checkResume(p);
    }
  });

  it('is walked: FIELDS names no field the schema does not have', () => {
    expect(Object.keys(FIELDS).filter((name) => !fieldsToWalk.has(name))).toEqual([]);
  });
});

// ---- HTTP: the routes, derived from the running app.

/** Every route as `METHOD /path` (HEAD beside GET is GET's). */
function routesOf(app: FastifyInstance): string[] {
  const found = new Set<string>();
  const paths: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:│ {3}| {4})*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line.trimEnd());
    if (!m) continue;
    const depth = m[1]!.length / 4;
    paths.length = depth;
    paths.push((paths[depth - 1] ?? '') + m[2]);
    const methods = m[3]?.split(', ') ?? [];
    for (const method of methods) if (method !== 'HEAD' || !methods.includes('GET')) found.add(`${method} ${paths[depth]}`);
  }
  return [...found].sort();
}

type RouteProbe =
  /** A merchant's resource by id: B's is answered exactly as a missing one. */
  | { kind: 'byId'; of: Resource; missing: string; status?: number; body?: () => Record<string, unknown> }
  /** The calling merchant's own data, in a list. */
  | { kind: 'list' }
  /**
   * What the calling merchant reads or makes for itself (`fresh`: as a merchant of the test's
   * own, for requests that change its credentials), whose owner `owner` tells.
   */
  | { kind: 'own'; as: 'a' | 'fresh'; query?: string; body?: () => Record<string, unknown>; status: number; owner: (data: any) => Promise<string | undefined> }
  /** GraphQL's transport: its fields are walked above. */
  | { kind: 'graphql' }
  /** Reached by a capability, not by merchant: proved under "a capability" below. */
  | { kind: 'capability'; reach: 'customer' | 'provider' | 'signed link' }
  /** No merchant's data. */
  | { kind: 'public' }
  /** The operator's alone (`/api/v1/operator`): a merchant's key is FORBIDDEN whatever it sends. */
  | { kind: 'operator' };

const ownerOf = (table: 'payments' | 'webhook_secrets' | 'api_keys' | 'payment_links') => async (id: string) =>
  (await t.database.db.selectFrom(table).select('merchant_id').where('id', '=', id).executeTakeFirst())?.merchant_id;

/** How to call each route; the routes themselves come from the app. */
const ROUTES: Record<string, RouteProbe> = {
  'GET /api/v1/payouts/:id': { kind: 'byId', of: 'payout', missing: 'PAYOUT_NOT_FOUND' },
  'GET /api/v1/payments/:id': { kind: 'byId', of: 'payment', missing: 'PAYMENT_NOT_FOUND' },
  'GET /api/v1/payments/:id/refunds': { kind: 'byId', of: 'refunded', missing: 'PAYMENT_NOT_FOUND' },
  // No body: a full refund of what is left of A's payment.
  'POST /api/v1/payments/:id/refunds': { kind: 'byId', of: 'refunded', missing: 'PAYMENT_NOT_FOUND', status: 201 },
  'GET /api/v1/refunds/:id': { kind: 'byId', of: 'refund', missing: 'REFUND_NOT_FOUND' },
  'GET /api/v1/payment-links/:id': { kind: 'byId', of: 'link', missing: 'NOT_FOUND' },
  'PATCH /api/v1/payment-links/:id': { kind: 'byId', of: 'link', missing: 'NOT_FOUND', body: () => ({ active: true }) },
  'GET /api/v1/payment-links': { kind: 'list' },
  'POST /api/v1/payment-links': { kind: 'own', as: 'a', status: 201, body: () => ({ description: 'Scope probe' }), owner: (d) => ownerOf('payment_links')(d.link_id) },
  'POST /api/v1/payment-requests': { kind: 'own', as: 'a', status: 201, body: () => ({ amount_cents: 6_000, description: 'Scope probe', customer_email: 'scope@example.co.za' }), owner: (d) => ownerOf('payments')(d.payment_id) },
  'GET /api/v1/payouts': { kind: 'list' },
  'GET /api/v1/refunds': { kind: 'list' },
  'GET /api/v1/payments': { kind: 'list' },
  'GET /api/v1/payouts/balance': { kind: 'own', as: 'a', status: 200, owner: async (d) => d.merchant_id },
  // A statement names no merchant: whose it is, its first entry's journal leg says.
  'GET /api/v1/statements': {
    kind: 'own',
    as: 'a',
    query: `?from=${sastDay(-1)}&to=${sastDay(1)}`,
    status: 200,
    owner: async (d) => (await t.database.db.selectFrom('ledger_entries').select('merchant_id').where('id', '=', Number(d.entries[0]?.entry_id)).executeTakeFirst())?.merchant_id,
  },
  'GET /api/v1/merchant': { kind: 'own', as: 'a', status: 200, owner: async (d) => d.merchant_id },
  'GET /api/v1/payees': { kind: 'own', as: 'a', status: 200, owner: async (d) => d.payees[0]?.merchant_id },
  'PATCH /api/v1/merchant': { kind: 'own', as: 'fresh', status: 200, body: () => ({ support_email: 'help@c.example' }), owner: async (d) => d.merchant_id },
  'POST /api/v1/payouts': { kind: 'own', as: 'a', status: 201, body: () => payoutBody(100, { merchant_reference: taken.reference }), owner: async (d) => d.merchant_id },
  'POST /api/v1/payments/init': { kind: 'own', as: 'a', status: 200, body: () => paymentBody({ merchant_order_id: taken.orderId }), owner: (d) => ownerOf('payments')(d.payment_id) },
  'POST /api/v1/merchant/api-keys/secret/regenerate': { kind: 'own', as: 'fresh', status: 201, owner: (d) => ownerOf('api_keys')(d.api_key.id) },
  'POST /api/v1/merchant/webhooks/secret': { kind: 'own', as: 'fresh', status: 201, owner: (d) => ownerOf('webhook_secrets')(d.id) },
  'POST /api/v1/merchant/webhooks/secret/rotate': { kind: 'own', as: 'fresh', status: 201, owner: (d) => ownerOf('webhook_secrets')(d.id) },
  'GET /graphql': { kind: 'graphql' },
  'POST /graphql': { kind: 'graphql' },
  'OPTIONS /graphql': { kind: 'graphql' },
  [`GET ${GRAPHIQL_ASSETS}:name`]: { kind: 'public' },
  'GET /graphql/stream': { kind: 'graphql' },
  'POST /graphql/stream': { kind: 'graphql' },
  'PUT /graphql/stream': { kind: 'graphql' },
  'DELETE /graphql/stream': { kind: 'graphql' },
  'OPTIONS /graphql/stream': { kind: 'graphql' },
  'GET /pay/:id': { kind: 'capability', reach: 'customer' },
  'POST /pay/:id/pay': { kind: 'capability', reach: 'customer' },
  'POST /pay/:id/cancel': { kind: 'capability', reach: 'customer' },
  'POST /pay/:id/decline': { kind: 'capability', reach: 'customer' },
  // The browser posted back by a provider: the page reads nothing from the post and asks the provider.
  'POST /pay/:id/return': { kind: 'capability', reach: 'customer' },
  'GET /pay/:id/checkout': { kind: 'capability', reach: 'customer' },
  'GET /pay/:id/return': { kind: 'capability', reach: 'customer' },
  'POST /providers/:provider/webhook': { kind: 'capability', reach: 'provider' },
  'POST /providers/:provider/callback': { kind: 'capability', reach: 'provider' },
  'GET /qr/:file': { kind: 'capability', reach: 'signed link' },
  // A payment link's page is public by design (the merchant shares its address): it shows the
  // link's merchant name and description, and makes payments of that merchant only (payment-links.test.ts).
  'GET /l/:id': { kind: 'public' },
  'POST /l/:id': { kind: 'public' },
  'GET /l/:id/qr.:format': { kind: 'public' },
  'GET /': { kind: 'public' },
  'GET /healthz': { kind: 'public' },
  'GET /readyz': { kind: 'public' },
  'GET /metrics': { kind: 'public' },
  'GET /favicon.svg': { kind: 'public' },
  'GET /favicon.ico': { kind: 'public' },
  'GET /api/v1/openapi.json': { kind: 'public' },
  'POST /api/v1/operator/bank-reports': { kind: 'operator' },
  'GET /docs': { kind: 'public' },
  'GET /docs/init.js': { kind: 'public' },
  'GET /docs/assets/:name': { kind: 'public' },
  // The dashboard: its pages and files hold no merchant data (the application reads it through
  // GraphQL, walked above); sign-in, invites and sign-out are proved in dashboard-people.test.ts.
  'GET /dashboard': { kind: 'public' },
  'GET /dashboard/': { kind: 'public' },
  'GET /dashboard/login': { kind: 'public' },
  'GET /dashboard/invite': { kind: 'public' },
  'GET /dashboard/payments': { kind: 'public' },
  'GET /dashboard/payments/:id': { kind: 'public' },
  'GET /dashboard/payouts': { kind: 'public' },
  'GET /dashboard/payouts/:id': { kind: 'public' },
  'GET /dashboard/webhooks': { kind: 'public' },
  'GET /dashboard/keys': { kind: 'public' },
  'GET /dashboard/statements': { kind: 'public' },
  'GET /dashboard/people': { kind: 'public' },
  'GET /dashboard/links': { kind: 'public' },
  'GET /dashboard/refunds': { kind: 'public' },
  'GET /dashboard/assets/:file': { kind: 'public' },
  'POST /dashboard/login': { kind: 'public' },
  'POST /dashboard/invite': { kind: 'public' },
  'POST /dashboard/invite/status': { kind: 'public' },
  'GET /dashboard/sign-in-options': { kind: 'public' },
  'POST /dashboard/password/forgot': { kind: 'public' },
  'POST /dashboard/password/reset': { kind: 'public' },
  'GET /dashboard/forgot': { kind: 'public' },
  'GET /dashboard/reset': { kind: 'public' },
  'GET /dashboard/account': { kind: 'public' },
  'POST /dashboard/logout': { kind: 'public' },
};

const routes = routesOf(t.app.app);

/** REST has no way to name a merchant: a `merchant_id` in the query is refused, and shows nothing of B. */
async function expectNoNaming(method: string, path: string, key: string) {
  const res = await http(t, method, `${path}${path.includes('?') ? '&' : '?'}merchant_id=${b.id}`, { key });
  expect(res.status, `${method} ${path}?merchant_id=B`).toBe(400);
  expect(codeOf(res), `${method} ${path}?merchant_id=B`).toBe('VALIDATION_FAILED');
  expectHides(res, 'b', `${method} ${path}?merchant_id=B`);
}

describe('every dashboard screen', () => {
  it('is served at its own address, so a bookmark or a reload opens it (the app\'s ROUTES, read from its source)', async () => {
    const source = readFileSync(new URL('../dashboard/src/app.tsx', import.meta.url), 'utf8');
    const paths = [...source.matchAll(/\{ path: '(\/dashboard[^']*)'/g)].map((m) => m[1]!.replace(':id', MISSING));
    expect(paths.length).toBeGreaterThan(10);
    for (const path of paths) expect((await fetch(t.url + path)).status, path).toBe(200);
  });
});

describe('every HTTP route', () => {
  it.each(routes)('%s', async (route) => {
    const probe = ROUTES[route];
    if (!probe) throw new Error(`${route} is not yet classified in test/scope.test.ts (ROUTES)`);
    const [method, path] = route.split(' ') as [string, string];
    if (path.startsWith('/api/v1/') && path.includes('/:id')) expect(probe.kind, `${route} takes an id`).toBe('byId');
    switch (probe.kind) {
      case 'byId': {
        const at = (id: string) => http(t, method, path.replace(':id', id), { key: a.key, ...(probe.body && { body: probe.body() }) });
        const theirs = await at(ids.b[probe.of]);
        const missing = await at(MISSING);
        expect({ status: theirs.status, code: codeOf(theirs), message: theirs.body.error?.message }, 'B\'s id, as A: exactly like a missing id').toEqual({
          status: missing.status,
          code: codeOf(missing),
          message: missing.body.error?.message,
        });
        expect(codeOf(theirs)).toBe(probe.missing);
        expectHides(theirs, 'b', 'B\'s id, as A');
        const own = await at(ids.a[probe.of]);
        expect(own.status, 'A\'s own id').toBe(probe.status ?? 200);
        expectShows(own, 'a', 'A\'s own id');
        return;
      }
      case 'list': {
        await expectNoNaming(method, path, a.key);
        const res = await http(t, method, `${path}?limit=100`, { key: a.key });
        expect(res.status).toBe(200);
        expectShows(res, 'a', 'A\'s list');
        expectHides(res, 'b', 'A\'s list');
        return;
      }
      case 'own': {
        const caller = probe.as === 'a' ? a : await createMerchant(t, { name: 'Shop C' });
        await expectNoNaming(method, path + (probe.query ?? ''), caller.key);
        const res: HttpResult = await http(t, method, path + (probe.query ?? ''), { key: caller.key, ...(probe.body && { body: probe.body() }) });
        expect(res.status, JSON.stringify(res.body)).toBe(probe.status);
        expect(await probe.owner(res.body.data), 'whose it is').toBe(caller.id);
        expectHides(res, 'b', 'the caller\'s own');
        return;
      }
      case 'graphql':
        expect(path.startsWith('/graphql')).toBe(true);
        return;
      case 'operator': {
        expect(path.startsWith('/api/v1/operator/'), `${route}: the operator's routes are under /api/v1/operator`).toBe(true);
        const res = await http(t, method, path, { key: a.key, rawBody: '<Document/>', headers: { 'content-type': 'application/xml' } });
        expect({ status: res.status, code: codeOf(res) }, 'a merchant\'s key').toEqual({ status: 403, code: 'FORBIDDEN' });
        expectHides(res, 'b', 'a merchant at the operator\'s route');
        return;
      }
      case 'capability':
      case 'public':
        expect(path.startsWith('/api/v1/') && path !== '/api/v1/openapi.json', `${route}: /api/v1 is the merchant's`).toBe(false);
        return;
    }
  });

  it('is walked: ROUTES names no route the app does not have', () => {
    expect(Object.keys(ROUTES).filter((route) => !routes.includes(route))).toEqual([]);
  });
});

// ---- A capability reaches payments, not merchants (domain/actor.ts `paymentScope`).

describe('a capability', () => {
  const customer = (paymentId: string): Actor => ({ kind: 'customer', paymentId });
  const provider = (name: string): Actor => ({ kind: 'provider', provider: name, notification: null });

  it('a customer reaches exactly the payment its address names', async () => {
    const db = t.database.db;
    expect((await payments.findPayment(db, paymentScope(customer(ids.a.payment)), ids.a.payment))?.merchantId).toBe(a.id);
    expect(await payments.findPayment(db, paymentScope(customer(ids.a.payment)), ids.b.payment)).toBeUndefined();
    expect(await payments.pageExtras(db, paymentScope(customer(ids.a.payment)), ids.b.payment)).toBeUndefined();
    // The hosted page's use cases answer another payment exactly as a missing one.
    await expect(t.app.services.paymentFlow.view(customer(ids.a.payment), ids.b.payment)).rejects.toMatchObject({ code: 'PAYMENT_NOT_FOUND' });
    await expect(t.app.services.paymentFlow.view(customer(ids.a.payment), MISSING)).rejects.toMatchObject({ code: 'PAYMENT_NOT_FOUND' });
    expect(() => paymentScope(customer('not-a-payment'))).toThrowError(expect.objectContaining({ code: 'PAYMENT_NOT_FOUND' }));
    const page = await http(t, 'GET', `/pay/${ids.a.payment}`);
    expect(page.status).toBe(200);
    expectHides(page, 'b', 'A\'s payment page');
  });

  it('a provider reaches the payments it was asked to take, through its own attempts', async () => {
    const { payment_id } = await newPayment(t, a);
    expect((await press(t, payment_id, 'pay')).status).toBe(303);
    const attempt = await t.database.db.selectFrom('payment_attempts').select(['id', 'provider']).where('payment_id', '=', payment_id).executeTakeFirstOrThrow();
    const db = t.database.db;
    const its = paymentScope(provider(attempt.provider));
    const another = paymentScope(provider(`not-${attempt.provider}`));
    expect((await attempts.findAttempt(db, its, attempt.id))?.payment_id).toBe(payment_id);
    expect(await attempts.findAttempt(db, another, attempt.id)).toBeUndefined();
    expect((await payments.findPayment(db, its, payment_id))?.id).toBe(payment_id);
    expect(await payments.findPayment(db, another, payment_id)).toBeUndefined();
    // A payment it was never asked to take is out of its reach, whoever's it is.
    expect(await payments.findPayment(db, its, ids.b.payment)).toBeUndefined();
  });
});
