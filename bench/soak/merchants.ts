import { randomUUID } from 'node:crypto';
import { type Answer, type Client, NoAnswer } from './http.ts';
import type { Followups, Stream } from './pace.ts';
import { gqlBody, OperatorApi, type Shop, type Target } from './shops.ts';

/** What the merchants' traffic needs: where to send it, from where, and who. */
export interface MerchantWorld {
  targets: Target[];
  merchants: Client;
  customers: Client;
  operatorToken: string;
  shops: Shop[];
  followups: Followups;
}

const BANK = { account_number: '62012345678', branch_code: '250655', account_holder: 'Thandi Nkosi', bank_name: 'FNB' };
const BANK_GQL = { accountNumber: BANK.account_number, branchCode: BANK.branch_code, accountHolder: BANK.account_holder, bankName: BANK.bank_name };
/** Each shop keeps this many of its latest ids to read back. */
const REMEMBER = 50;

const between = (lo: number, hi: number) => lo + Math.floor(Math.random() * (hi - lo + 1));
const pick = <T>(items: T[]): T | undefined => items[Math.floor(Math.random() * items.length)];
const remember = (list: string[], id: string) => {
  list.push(id);
  if (list.length > REMEMBER) list.shift();
};

/** Requests go to the instances in turn, as a load balancer without affinity sends them. */
function roundRobin(targets: Target[]) {
  let n = 0;
  return () => targets[n++ % targets.length]!;
}

/**
 * Retries a step of a follow-up that got no answer or a 503 (the instance killed, its database
 * cut) on the other instance, a second apart, as a client with a retry policy would: the first
 * answer that is neither wins. Every try is recorded.
 */
async function persist(next: () => Target, step: (t: Target) => Promise<Answer>, tries = 8): Promise<Answer | undefined> {
  for (let k = 0; k < tries; k++) {
    try {
      const answer = await step(next());
      if (answer.status !== 503) return answer;
    } catch (e) {
      if (!(e instanceof NoAnswer)) throw e;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  return undefined;
}

/**
 * The merchants' traffic at `rate` × these requests per second (all shops together, spread over
 * them and over the instances): REST and GraphQL twins of payouts, payments and balance. At rate 1
 * with 8 shops each budget is used to under a third of its per-minute limit (docs/limits.md).
 * Each payout created is then worked by the operator, each payment settled by its customer or
 * the operator (followups).
 */
export function merchantStreams(world: MerchantWorld, rate: number): Stream[] {
  const next = roundRobin(world.targets);
  const shopOf = (n: number) => world.shops[n % world.shops.length]!;
  const operator = new OperatorApi(world.merchants, world.operatorToken);
  const rest = (kind: string, shop: Shop, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    world.merchants.send(next(), 'merchant', kind, {
      path,
      headers: { 'x-api-key': shop.key, ...headers },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  const gql = (kind: string, shop: Shop, query: string, variables: Record<string, unknown> = {}) =>
    world.merchants.send(next(), 'merchant', kind, { path: '/graphql', headers: { 'x-api-key': shop.key }, body: gqlBody(query, variables) });

  const payoutCreated = (shop: Shop, id: string | undefined) => {
    if (!id) return;
    remember(shop.payouts, id);
    workPayout(world, operator, next, id);
  };
  const paymentCreated = (shop: Shop, id: string | undefined) => {
    if (!id) return;
    remember(shop.payments, id);
    settlePayment(world, operator, next, id);
  };

  const streams: Stream[] = [
    {
      name: 'rest.payout.create',
      perSecond: 1.2,
      run: async (n) => {
        const shop = shopOf(n);
        const body = { amount_cents: between(1_000, 50_000), currency: 'ZAR', payout_method: 'eft', merchant_reference: `soak-${randomUUID()}`, payment_details: BANK };
        const answer = await rest('rest.payout.create', shop, '/api/v1/payouts', body);
        payoutCreated(shop, answer.json?.data?.id);
      },
    },
    {
      name: 'gql.createPayout',
      perSecond: 0.8,
      run: async (n) => {
        const shop = shopOf(n);
        const input = { amountCents: between(1_000, 50_000), currency: 'ZAR', payoutMethod: 'EFT', merchantReference: `soak-${randomUUID()}`, paymentDetails: BANK_GQL };
        const answer = await gql('gql.createPayout', shop, 'mutation($i: CreatePayoutInput!) { createPayout(input: $i) { payout { id status grossAmountCents } } }', { i: input });
        payoutCreated(shop, answer.json?.data?.createPayout?.payout?.id);
      },
    },
    { name: 'rest.balance', perSecond: 1.2, run: (n) => rest('rest.balance', shopOf(n), '/api/v1/payouts/balance') },
    {
      name: 'gql.viewer.balance',
      perSecond: 0.6,
      run: (n) => gql('gql.viewer.balance', shopOf(n), '{ viewer { id name balance { balanceCents reservedCents availableCents totals { grossCents feesCents withdrawalsCents } } } }'),
    },
    {
      name: 'rest.payout.get',
      perSecond: 1.5,
      run: async (n) => {
        const shop = shopOf(n);
        const id = pick(shop.payouts);
        if (id) await rest('rest.payout.get', shop, `/api/v1/payouts/${id}`);
      },
    },
    { name: 'rest.payouts.list', perSecond: 0.8, run: (n) => rest('rest.payouts.list', shopOf(n), `/api/v1/payouts?limit=20${n % 3 === 0 ? '&status=pending' : ''}`) },
    {
      name: 'gql.payouts',
      perSecond: 0.8,
      run: (n) => gql('gql.payouts', shopOf(n), '{ payouts(first: 20) { totalCount edges { cursor node { id status amountCents feeCents createdAt } } } }'),
    },
    {
      name: 'gql.payout',
      perSecond: 0.8,
      run: async (n) => {
        const shop = shopOf(n);
        const id = pick(shop.payouts);
        if (id) await gql('gql.payout', shop, 'query($id: UUID!) { payout(id: $id) { id status amountCents grossAmountCents events { type } } }', { id });
      },
    },
    {
      name: 'rest.payment.init',
      perSecond: 0.8,
      run: async (n) => {
        const shop = shopOf(n);
        const body = { amount: between(5_500, 300_000), currency: 'ZAR', merchant_order_id: `soak-${randomUUID()}`, intent_type: 'purchase', description: 'Soak order' };
        const headers: Record<string, string> = n % 2 === 0 ? { 'idempotency-key': `soak-${randomUUID()}` } : {};
        const answer = await rest('rest.payment.init', shop, '/api/v1/payments/init', body, headers);
        paymentCreated(shop, answer.json?.data?.payment_id);
      },
    },
    {
      name: 'gql.initiatePayment',
      perSecond: 0.4,
      run: async (n) => {
        const shop = shopOf(n);
        const input = { amount: between(5_500, 300_000), currency: 'ZAR', merchantOrderId: `soak-${randomUUID()}` };
        const answer = await gql('gql.initiatePayment', shop, 'mutation($i: InitiatePaymentInput!) { initiatePayment(input: $i) { payment { paymentId status paymentUrl } } }', { i: input });
        paymentCreated(shop, answer.json?.data?.initiatePayment?.payment?.paymentId);
      },
    },
    {
      name: 'rest.payment.get',
      perSecond: 1.0,
      run: async (n) => {
        const shop = shopOf(n);
        const id = pick(shop.payments);
        if (id) await rest('rest.payment.get', shop, `/api/v1/payments/${id}`);
      },
    },
    { name: 'rest.payments.list', perSecond: 0.4, run: (n) => rest('rest.payments.list', shopOf(n), '/api/v1/payments?limit=20') },
    {
      name: 'gql.payment',
      perSecond: 0.5,
      run: async (n) => {
        const shop = shopOf(n);
        const id = pick(shop.payments);
        if (id) await gql('gql.payment', shop, 'query($id: UUID!) { payment(id: $id) { paymentId status amount feeCents netAmountCents latestAttempt { status provider } } }', { id });
      },
    },
    {
      name: 'gql.operator.pending',
      perSecond: 0.2,
      run: () => operator.send(next(), 'gql.operator.pending', '{ payouts(status: PENDING, first: 50) { totalCount edges { node { id merchantId amountCents } } } }'),
    },
  ];
  return streams.map((s) => ({ ...s, perSecond: s.perSecond * rate }));
}

/**
 * The operator's work on a new payout, a few seconds apart: approve (85 %), reject (10 %) or cancel
 * (5 %); an approved one is transferred, then completed (90 %) or failed (10 %).
 */
function workPayout(world: MerchantWorld, operator: OperatorApi, next: () => Target, id: string) {
  const move = (kind: string, mutation: string, then?: () => void) =>
    world.followups.after(between(1_000, 4_000), kind, async () => {
      const answer = await persist(next, (t) => operator.send(t, kind, `mutation($id: UUID!) { ${mutation} { payout { id status } } }`, { id }));
      // A retried move may find the first try went through (INVALID_STATUS_TRANSITION): it did its work.
      if (answer && (answer.json?.data || answer.json?.errors?.[0]?.extensions?.code === 'INVALID_STATUS_TRANSITION')) then?.();
    });
  const roll = Math.random();
  if (roll < 0.05) return move('gql.operator.cancelPayout', 'cancelPayout(id: $id)');
  if (roll < 0.15) return move('gql.operator.rejectPayout', 'rejectPayout(id: $id, reason: "soak: not this one")');
  move('gql.operator.approvePayout', 'approvePayout(id: $id)', () =>
    move('gql.operator.startPayoutTransfer', 'startPayoutTransfer(id: $id)', () =>
      Math.random() < 0.9
        ? move('gql.operator.completePayout', `completePayout(id: $id, externalTransferId: "SOAK-${id.slice(0, 8)}")`)
        : move('gql.operator.failPayout', 'failPayout(id: $id, reason: "soak: bank refused")'),
    ),
  );
}

/**
 * A new payment ends a few seconds later: half the time its customer opens the hosted page and
 * presses pay (80 %; the sandbox confirms it after SANDBOX_CONFIRM_DELAY_MS), decline or cancel;
 * otherwise the operator settles it (captured, failed or cancelled).
 */
function settlePayment(world: MerchantWorld, operator: OperatorApi, next: () => Target, id: string) {
  const roll = Math.random();
  if (roll < 0.5) {
    world.followups.after(between(1_000, 3_000), 'customer', async () => {
      const page = await persist(next, (t) => world.customers.send(t, 'customer', 'page.view', { path: `/pay/${id}` }));
      const token = /name="token" value="([^"]+)"/.exec(page?.body ?? '')?.[1];
      if (!token) throw new Error(`no form on the payment page: HTTP ${page?.status}`);
      const button = roll < 0.4 ? 'pay' : roll < 0.45 ? 'decline' : 'cancel';
      await persist(next, (t) =>
        world.customers.send(t, 'customer', `page.${button}`, {
          method: 'POST',
          path: `/pay/${id}/${button}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `token=${encodeURIComponent(token)}`,
        }),
      );
    });
    return;
  }
  const outcome = roll < 0.9 ? 'CAPTURED' : roll < 0.95 ? 'FAILED' : 'CANCELLED';
  world.followups.after(between(1_000, 3_000), 'gql.operator.settlePayment', () =>
    persist(next, (t) => operator.send(t, 'gql.operator.settlePayment', 'mutation($id: UUID!, $o: PaymentOutcome!) { settlePayment(id: $id, outcome: $o) { payment { paymentId status } } }', { id, o: outcome })),
  );
}
