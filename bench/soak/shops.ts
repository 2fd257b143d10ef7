import type { Answer, Client } from './http.ts';

/** A merchant of the soak, with what it has created so far (for its reads). */
export interface Shop {
  name: string;
  id: string;
  key: string;
  payouts: string[];
  payments: string[];
}

/** An instance as the traffic sees it: its name in the figures, and its address. */
export interface Target {
  name: string;
  url: string;
}

/** A GraphQL request body. */
export const gqlBody = (query: string, variables: Record<string, unknown> = {}) => JSON.stringify({ query, variables });

/** The answer's GraphQL data, or a failure naming what came back. */
function dataOf(answer: Answer, what: string): any {
  if (answer.json?.data && !answer.json.errors) return answer.json.data;
  throw new Error(`${what}: HTTP ${answer.status} ${answer.body.slice(0, 200)}`);
}

/** The operator's GraphQL API, as the CLI and an operator's tools call it. */
export class OperatorApi {
  constructor(
    private readonly client: Client,
    private readonly token: string,
  ) {}

  send(target: Target, kind: string, query: string, variables: Record<string, unknown> = {}) {
    return this.client.send(target, 'operator', kind, {
      path: '/graphql',
      headers: { authorization: `Bearer ${this.token}` },
      body: gqlBody(query, variables),
    });
  }

  /** For the set-up: the data, or an exception. */
  async data(target: Target, kind: string, query: string, variables: Record<string, unknown> = {}) {
    return dataOf(await this.send(target, kind, query, variables), kind);
  }
}

/** Creates the shops through the operator's GraphQL API and the merchants' REST API, as an operator and merchants would. */
export async function createShops(
  targets: Target[],
  client: Client,
  operatorToken: string,
  names: string[],
  hookUrl: string,
  trust: (shop: string, secret: string) => void,
): Promise<Shop[]> {
  const operator = new OperatorApi(client, operatorToken);
  let turn = 0;
  const next = () => targets[turn++ % targets.length]!;
  const shops: Shop[] = [];
  for (const name of names) {
    const created = await operator.data(next(), 'setup', 'mutation($i: MerchantInput!) { createMerchant(input: $i) { merchant { id } fullKey } }', {
      i: { name: `Soak ${name}`, webhookUrl: `${hookUrl}/${name}`, paymentFeeBps: 250, payoutFeeCents: 500, autoTopup: true },
    });
    const shop: Shop = { name, id: created.createMerchant.merchant.id, key: created.createMerchant.fullKey, payouts: [], payments: [] };
    // R 10 million: no payout of the run can be refused for want of balance.
    await operator.data(next(), 'setup', 'mutation($m: UUID!) { creditBalance(merchantId: $m, amountCents: 1000000000, memo: "soak") { balance { balanceCents } } }', { m: shop.id });
    const secret = await client.send(next(), 'merchant', 'setup', { method: 'POST', path: '/api/v1/merchant/webhooks/secret', headers: { 'x-api-key': shop.key } });
    if (secret.status !== 201) throw new Error(`webhook secret: HTTP ${secret.status} ${secret.body}`);
    trust(name, secret.json.data.secret);
    shops.push(shop);
  }
  return shops;
}
