import { interleaved, load, type Measurement } from '../load.ts';
import { checkAnswers, type Document } from './graphql-check.ts';
import { createCall, drive, READS } from './rest.ts';
import { type BenchContext, pick, type Row, type Scenario, targetText, type Thresholds } from './types.ts';

const PAYOUT_FIELDS = 'id merchantId amountCents feeCents grossAmountCents currency status payoutMethod merchantReference description metadata createdAt updatedAt completedAt';
/** PostGraphile's names for the same columns: `rowId` is the uuid (its `id` is a global Node id). */
const PGL_PAYOUT_FIELDS = PAYOUT_FIELDS.replace(/^id /, 'rowId ');

interface ReadTwin {
  name: string;
  rest: (typeof READS)[number];
  /** zarpay's document; bare Yoga is sent the very same one. */
  body: (ctx: BenchContext, i: number) => Document;
  /**
   * PostGraphile's document for the same row or merchant: its own field names, and its own
   * shapes (bigint columns as strings, statuses in lower case, no computed fields).
   */
  postgraphile: (ctx: BenchContext, i: number) => Document;
  /** zarpay's `data` and PostGraphile's carry the same facts (ids, amounts, counts). */
  agree: (zarpay: any, postgraphile: any) => boolean;
  /** A read of one row by its id, where the target asks zarpay to be ahead of PostGraphile. */
  point: boolean;
}

/** The GraphQL twin of each REST read: same merchant, same row, the fields of the REST JSON. */
const READ_TWINS: ReadTwin[] = [
  {
    name: 'payout(id)',
    rest: READS[0]!,
    body: ({ seed }, i) => {
      const p = seed.payouts[pick(i, seed.payouts.length)]!;
      return { merchant: p.merchant, body: { query: `query($id: UUID!) { payout(id: $id) { ${PAYOUT_FIELDS} } }`, variables: { id: p.id } } };
    },
    postgraphile: ({ seed }, i) => {
      const p = seed.payouts[pick(i, seed.payouts.length)]!;
      return { merchant: p.merchant, body: { query: `query($id: UUID!) { payoutByRowId(rowId: $id) { ${PGL_PAYOUT_FIELDS} } }`, variables: { id: p.id } } };
    },
    agree: (z, p) => p.payoutByRowId.rowId === z.payout.id && Number(p.payoutByRowId.grossAmountCents) === z.payout.grossAmountCents,
    point: true,
  },
  {
    name: 'payment(id)',
    rest: READS[1]!,
    body: ({ seed }, i) => {
      const p = seed.payments[pick(i, seed.payments.length)]!;
      const fields = 'id status amount currency feeCents netAmountCents latestAttempt { status provider providerRef createdAt }';
      return { merchant: p.merchant, body: { query: `query($id: UUID!) { payment(id: $id) { ${fields} } }`, variables: { id: p.id } } };
    },
    postgraphile: ({ seed }, i) => {
      const p = seed.payments[pick(i, seed.payments.length)]!;
      const fields =
        'rowId status amountCents currency feeCents netAmountCents paymentAttemptsByPaymentId(first: 1, orderBy: SEQ_DESC) { nodes { status provider providerRef createdAt } }';
      return { merchant: p.merchant, body: { query: `query($id: UUID!) { paymentByRowId(rowId: $id) { ${fields} } }`, variables: { id: p.id } } };
    },
    agree: (z, p) =>
      p.paymentByRowId.rowId === z.payment.id &&
      Number(p.paymentByRowId.netAmountCents) === z.payment.netAmountCents &&
      p.paymentByRowId.paymentAttemptsByPaymentId.nodes.length === (z.payment.latestAttempt ? 1 : 0),
    point: true,
  },
  {
    name: 'balance',
    rest: READS[2]!,
    body: ({ seed }, i) => ({
      merchant: pick(i, seed.merchants.length),
      body: { query: '{ balance { merchantId balanceCents reservedCents availableCents currency totals { grossCents feesCents withdrawalsCents } } }' },
    }),
    // No availableCents (zarpay computes it) and no currency (not a column of balances).
    postgraphile: ({ seed }, i) => {
      const m = pick(i, seed.merchants.length);
      const query = 'query($m: UUID!) { balanceByMerchantId(merchantId: $m) { merchantId balanceCents reservedCents grossCents feesCents withdrawalsCents } }';
      return { merchant: m, body: { query, variables: { m: seed.merchants[m]!.id } } };
    },
    agree: (z, p) => p.balanceByMerchantId.merchantId === z.balance.merchantId && Number(p.balanceByMerchantId.reservedCents) === z.balance.reservedCents,
    point: false,
  },
  {
    name: 'payouts(first: 50)',
    rest: READS[3]!,
    body: ({ seed }, i) => ({
      merchant: pick(i, seed.merchants.length),
      body: { query: `{ payouts(first: 50) { totalCount edges { node { ${PAYOUT_FIELDS} } } } }` },
    }),
    // The merchant's page, newest first, as zarpay's keyset order (seq) gives it.
    postgraphile: ({ seed }, i) => {
      const m = pick(i, seed.merchants.length);
      const query = `query($m: UUID!) { allPayouts(first: 50, condition: { merchantId: $m }, orderBy: SEQ_DESC) { totalCount nodes { ${PGL_PAYOUT_FIELDS} } } }`;
      return { merchant: m, body: { query, variables: { m: seed.merchants[m]!.id } } };
    },
    agree: (z, p) =>
      p.allPayouts.totalCount === z.payouts.totalCount &&
      p.allPayouts.nodes.length === z.payouts.edges.length &&
      p.allPayouts.nodes[0]?.rowId === z.payouts.edges[0]?.node.id,
    point: false,
  },
];

type Server = 'zarpay' | 'yoga' | 'postgraphile';

/**
 * One round of GraphQL documents against one server: zarpay takes the merchant's API key, bare
 * Yoga its id in `X-Merchant-Id` (as the bare REST server), PostGraphile nothing.
 */
function graphqlLoad(ctx: BenchContext, server: Server, body: (i: number) => Document, round: number): Promise<Measurement> {
  const url = { zarpay: ctx.zarpayUrl, yoga: ctx.yogaUrl, postgraphile: ctx.postgraphileUrl }[server];
  if (!url) throw new Error(`no ${server} server in this run`);
  return load({
    url,
    connections: ctx.connections,
    durationSec: ctx.durationSec,
    warmupSec: round === 0 ? ctx.warmupSec : 0,
    inspectBodies: true,
    request: (i) => {
      const b = body(i);
      const m = ctx.seed.merchants[b.merchant]!;
      const headers: Record<string, string> = server === 'zarpay' ? { 'x-api-key': m.key } : server === 'yoga' ? { 'x-merchant-id': m.id } : {};
      return { method: 'POST', path: '/graphql', headers, body: JSON.stringify(b.body) };
    },
  });
}

/**
 * The REST twin, zarpay and the references present in this run, in turns (see `interleaved`), so
 * that the ratios are taken in the same minutes.
 */
async function inTurns(ctx: BenchContext, sides: Partial<Record<'rest' | Server, (round: number) => Promise<Measurement>>>) {
  const absent = [!ctx.yogaUrl && 'yoga', !ctx.postgraphileUrl && 'postgraphile'];
  const present = Object.fromEntries(Object.entries(sides).filter(([k]) => !absent.includes(k))) as Record<string, (round: number) => Promise<Measurement>>;
  const m: Partial<Record<'rest' | Server, Measurement>> = await interleaved(ctx.rounds, present);
  return m;
}

export const graphqlReads: Scenario = async (ctx) => {
  const rows: Row[] = [];
  for (const twin of READ_TWINS) {
    await checkAnswers(ctx, {
      name: twin.name,
      document: twin.body(ctx, 0),
      exact: true,
      postgraphile: { document: twin.postgraphile(ctx, 0), agree: twin.agree },
    });
    const m = await inTurns(ctx, {
      rest: (round) => drive(ctx, 'zarpay', (i) => twin.rest.call(ctx, i), round),
      zarpay: (round) => graphqlLoad(ctx, 'zarpay', (i) => twin.body(ctx, i), round),
      yoga: (round) => graphqlLoad(ctx, 'yoga', (i) => twin.body(ctx, i), round),
      postgraphile: (round) => graphqlLoad(ctx, 'postgraphile', (i) => twin.postgraphile(ctx, i), round),
    });
    const thresholds: Thresholds = { yoga: 0.8, twin: 0.5, ...(twin.point && { postgraphile: 1 }) };
    rows.push({
      group: 'graphql',
      name: `GraphQL ${twin.name}`,
      zarpay: m.zarpay!,
      rssMiB: ctx.takeRssPeak(),
      twinName: `REST ${twin.rest.name}`,
      twin: m.rest!,
      yoga: m.yoga ?? null,
      postgraphile: m.postgraphile ?? null,
      thresholds,
      target: { text: targetText(thresholds), met: null },
    });
  }
  return rows;
};

const CREATE = `mutation($input: CreatePayoutInput!) { createPayout(input: $input) { payout { ${PAYOUT_FIELDS} } } }`;

export const graphqlWrites: Scenario = async (ctx) => {
  const n = ctx.seed.merchants.length;
  const create = (i: number): Document => ({
    merchant: i % n,
    body: {
      query: CREATE,
      variables: {
        input: {
          amountCents: 100 + (i % 900),
          currency: 'ZAR',
          payoutMethod: 'EFT',
          paymentDetails: { accountNumber: '62012345678', branchCode: '250655', accountHolder: 'Thandi Nkosi', bankName: 'FNB' },
        },
      },
    },
  });
  // A new payout each: the same shape from both, not the same values. PostGraphile is not asked:
  // its insert would be a row, not a payout (no reserve, ledger or event).
  await checkAnswers(ctx, { name: 'createPayout', document: create(0), exact: false });
  const m = await inTurns(ctx, {
    rest: (round) => drive(ctx, 'zarpay', createCall(n, (i) => i % n), round),
    zarpay: (round) => graphqlLoad(ctx, 'zarpay', create, round),
    yoga: (round) => graphqlLoad(ctx, 'yoga', create, round),
  });
  const thresholds: Thresholds = { twin: 0.8 };
  return [
    {
      group: 'graphql',
      name: `GraphQL createPayout, ${n} merchants`,
      zarpay: m.zarpay!,
      rssMiB: ctx.takeRssPeak(),
      twinName: `REST POST /payouts, ${n} merchants`,
      twin: m.rest!,
      yoga: m.yoga ?? null,
      thresholds,
      target: { text: targetText(thresholds), met: null },
    },
  ];
};
