import { bootOn } from '../src/boot.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../src/server.ts';
import { borrowed, PRD_PROVIDER, startApp, type TestApp } from './support/app.ts';
import { createMerchant, GRAPHQL_RESPONSE, http, type TestMerchant } from './support/client.ts';

/**
 * No error message suggests a name ("Did you mean …"), in any environment: a suggestion names
 * what the schema has, operator-only enum values and fields included, one typo at a time.
 * Each request is sent twice, so that Yoga answers it first and the direct path (for a
 * document it knows) the second time.
 */

let t: TestApp;
let prd: App;
let prdUrl: string;
let shop: TestMerchant;

beforeAll(async () => {
  t = await startApp();
  shop = await createMerchant(t);
  // prd over the test's database (prd requires PostgreSQL to start on its own; test/payments-prd.test.ts).
  const config = {
    ...t.config,
    serviceEnv: 'prd' as const,
    trustProxy: true,
    publicBaseUrl: PRD_PROVIDER.PUBLIC_BASE_URL,
    yoco: { secretKey: PRD_PROVIDER.YOCO_SECRET_KEY, webhookSecret: PRD_PROVIDER.YOCO_WEBHOOK_SECRET, apiUrl: PRD_PROVIDER.YOCO_API_URL },
  };
  prd = createApp((await bootOn(config, borrowed(t.database))).services);
  prdUrl = await prd.start();
});
afterAll(async () => {
  await prd?.stop();
  await t?.close();
});

const ZERO = '00000000-0000-4000-8000-000000000000';

/** Typos one letter away from a real name, each where graphql-js would suggest it. */
const TYPOS: [string, { query: string; variables?: Record<string, unknown> }][] = [
  ['an enum value, literal', { query: '{ payouts(status: PENDIN) { totalCount } }' }],
  ['an enum value, in a variable', { query: 'query L($s: PayoutStatus) { payouts(status: $s) { totalCount } }', variables: { s: 'PENDIN' } }],
  ['an operator-only enum value, in a variable', {
    query: `mutation S($o: PaymentOutcome!) { settlePayment(id: "${ZERO}", outcome: $o) { payment { id } } }`,
    variables: { o: 'CAPTURD' },
  }],
  ['an operator-only enum value, literal', { query: `mutation { settlePayment(id: "${ZERO}", outcome: CAPTURD) { payment { id } } }` }],
  ['a field', { query: '{ payoutz { totalCount } }' }],
  ['an operator-only field', { query: '{ ledgerVerificatio }' }],
  ['an argument', { query: '{ payouts(firts: 1) { totalCount } }' }],
  ['a type in a variable definition', { query: 'query L($s: PayoutStatu) { payouts(status: $s) { totalCount } }', variables: { s: 'PENDING' } }],
  ['a type in a fragment', { query: '{ payouts { edges { node { ... on Payot { id } } } } }' }],
  ['an input field, literal', { query: 'mutation { createPayout(input: { amountCent: 1 }) { created } }' }],
  ['an input field, in a variable', {
    query: 'mutation C($i: CreatePayoutInput!) { createPayout(input: $i) { created } }',
    variables: { i: { amountCent: 100, currency: 'ZAR', payoutMethod: 'EFT', paymentDetails: { accountNumber: '62012345678', branchCode: '250655', accountHolder: 'A', bankName: 'B' } } },
  }],
];

const operator = () => ({ authorization: `Bearer ${t.config.operatorToken}` });

describe.each([
  // As a merchant, as the operator, and without credentials. prd takes keys of its own environment only.
  ['tst', () => ({ url: t.url, headers: {}, callers: [{ 'x-api-key': shop.key }, operator(), {}] as Record<string, string>[] })],
  ['prd', () => ({ url: prdUrl, headers: { 'x-forwarded-proto': 'https' }, callers: [operator(), {}] as Record<string, string>[] })],
])('in %s, no error suggests a name', (_env, target) => {
  it.each(TYPOS)('%s', async (_what, body) => {
    const { url, headers, callers } = target();
    for (const who of callers) {
      for (let i = 0; i < 2; i++) {
        const res = await http({ url }, 'POST', '/graphql', { body: body, headers: { ...GRAPHQL_RESPONSE, ...headers, ...who } });
        expect(res.status).toBe(400);
        const errors = res.body.errors as { message: string; extensions: { code: string } }[];
        expect(errors.length).toBeGreaterThan(0);
        for (const e of errors) {
          expect(e.extensions.code).toBe('VALIDATION_FAILED');
          expect(e.message).not.toMatch(/did you mean|suggest/i);
        }
      }
    }
  });
});
