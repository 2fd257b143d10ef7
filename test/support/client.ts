import { OPERATOR } from '../../src/domain/actor.ts';
import type { TestApp } from './app.ts';

export interface HttpResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** One HTTP call to the service under test; the body is parsed as JSON when it is JSON. */
export async function http<T = any>(
  t: Pick<TestApp, 'url'>,
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key !== undefined) headers['x-api-key'] = opts.key;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(t.url + path, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/** A GraphQL call as a merchant (`key`) or as the operator (`operator: true`). */
export async function gql<T = any>(
  t: TestApp,
  query: string,
  variables: Record<string, unknown> = {},
  auth: { key?: string; operator?: boolean; headers?: Record<string, string> } = {},
): Promise<HttpResult<{ data?: T; errors?: { message: string; extensions?: { code?: string } }[] } & Record<string, any>>> {
  const headers: Record<string, string> = { ...auth.headers };
  if (auth.operator) headers.authorization = `Bearer ${t.config.operatorToken}`;
  return http(t, 'POST', '/graphql', { ...(auth.key !== undefined && { key: auth.key }), body: { query, variables }, headers });
}

/** Operator GraphQL that must succeed. */
export async function op<T = any>(t: TestApp, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await gql<T>(t, query, variables, { operator: true });
  if (res.body.errors?.length || !res.body.data) throw new Error(`operator call failed: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export interface TestMerchant {
  id: string;
  key: string;
  kid: string;
}

export async function createMerchant(
  t: TestApp,
  input: { name?: string; payoutFeeCents?: number; paymentFeeBps?: number; paymentFeeFixedCents?: number; autoTopup?: boolean; webhookUrl?: string } = {},
): Promise<TestMerchant> {
  const data = await op(t, 'mutation($i: MerchantInput!) { createMerchant(input: $i) { merchant { id } apiKey { kid } fullKey } }', {
    i: { name: 'Test Shop', ...input },
  });
  return { id: data.createMerchant.merchant.id, key: data.createMerchant.fullKey, kid: data.createMerchant.apiKey.kid };
}

export async function credit(t: TestApp, merchantId: string, cents: number) {
  return op(t, 'mutation($m: UUID!, $c: Money!) { creditBalance(merchantId: $m, amountCents: $c) { balance { balanceCents } } }', {
    m: merchantId,
    c: cents,
  });
}

export const eftDetails = {
  account_number: '62012345678',
  branch_code: '250655',
  account_holder: 'Thandi Nkosi',
  bank_name: 'First National Bank',
};

export function payoutBody(amount = 10_000, extra: Record<string, unknown> = {}) {
  return { amount_cents: amount, currency: 'ZAR', payout_method: 'eft', payment_details: eftDetails, ...extra };
}

/** The ledger invariants of CONTRACT §5 must hold after every scenario. */
export async function expectLedgerOk(t: TestApp) {
  const report = await t.app.services.balances.verify(OPERATOR);
  if (!report.ok) throw new Error(`ledger invariants failed: ${JSON.stringify(report.problems)}`);
  return report;
}

/** The GraphQL-over-HTTP media type: request errors (parse, validation, limits) are then status 400. */
export const GRAPHQL_RESPONSE = { accept: 'application/graphql-response+json' };
