import { interleaved, load, type Measurement } from '../load.ts';
import { createCall, drive, READS } from './rest.ts';
import { type BenchContext, pick, type Row, type Scenario } from './types.ts';

const PAYOUT_FIELDS = 'id merchantId amountCents feeCents grossAmountCents currency status payoutMethod merchantReference description metadata createdAt updatedAt completedAt';

/** The GraphQL twin of each REST read: same merchant, same row, the fields of the REST JSON. */
const READ_TWINS: { name: string; rest: (typeof READS)[number]; body: (ctx: BenchContext, i: number) => { merchant: number; body: unknown } }[] = [
  {
    name: 'payout(id)',
    rest: READS[0]!,
    body: ({ seed }, i) => {
      const p = seed.payouts[pick(i, seed.payouts.length)]!;
      return { merchant: p.merchant, body: { query: `query($id: UUID!) { payout(id: $id) { ${PAYOUT_FIELDS} } }`, variables: { id: p.id } } };
    },
  },
  {
    name: 'payment(id)',
    rest: READS[1]!,
    body: ({ seed }, i) => {
      const p = seed.payments[pick(i, seed.payments.length)]!;
      const fields = 'id status amount currency feeCents netAmountCents latestAttempt { status provider providerRef createdAt }';
      return { merchant: p.merchant, body: { query: `query($id: UUID!) { payment(id: $id) { ${fields} } }`, variables: { id: p.id } } };
    },
  },
  {
    name: 'balance',
    rest: READS[2]!,
    body: ({ seed }, i) => ({
      merchant: pick(i, seed.merchants.length),
      body: { query: '{ balance { merchantId balanceCents reservedCents availableCents currency totals { grossCents feesCents withdrawalsCents } } }' },
    }),
  },
  {
    name: 'payouts(first: 50)',
    rest: READS[3]!,
    body: ({ seed }, i) => ({
      merchant: pick(i, seed.merchants.length),
      body: { query: `{ payouts(first: 50) { totalCount edges { node { ${PAYOUT_FIELDS} } } } }` },
    }),
  },
];

function graphqlLoad(ctx: BenchContext, body: (i: number) => { merchant: number; body: unknown }, round: number): Promise<Measurement> {
  return load({
    url: ctx.zarpayUrl,
    connections: ctx.connections,
    durationSec: ctx.durationSec,
    warmupSec: round === 0 ? ctx.warmupSec : 0,
    inspectBodies: true,
    request: (i) => {
      const b = body(i);
      return { method: 'POST', path: '/graphql', headers: { 'x-api-key': ctx.seed.merchants[b.merchant]!.key }, body: JSON.stringify(b.body) };
    },
  });
}

export const graphqlReads: Scenario = async (ctx) => {
  const rows: Row[] = [];
  for (const twin of READ_TWINS) {
    // The REST twin and its GraphQL row in turns, so that the ratio is taken in the same minutes.
    const { rest, zarpay } = await interleaved(ctx.rounds, {
      rest: (round) => drive(ctx, 'zarpay', (i) => twin.rest.call(ctx, i), round),
      zarpay: (round) => graphqlLoad(ctx, (i) => twin.body(ctx, i), round),
    });
    rows.push({
      group: 'graphql',
      name: `GraphQL ${twin.name}`,
      zarpay,
      rssMiB: ctx.takeRssPeak(),
      twinName: `REST ${twin.rest.name}`,
      twin: rest,
      target: { text: '≥ 0.7× REST twin', met: null },
    });
  }
  return rows;
};

const CREATE = `mutation($input: CreatePayoutInput!) { createPayout(input: $input) { payout { ${PAYOUT_FIELDS} } } }`;

export const graphqlWrites: Scenario = async (ctx) => {
  const n = ctx.seed.merchants.length;
  const create = (i: number) => ({
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
  const { rest, zarpay } = await interleaved(ctx.rounds, {
    rest: (round) => drive(ctx, 'zarpay', createCall(n, (i) => i % n), round),
    zarpay: (round) => graphqlLoad(ctx, create, round),
  });
  return [
    {
      group: 'graphql',
      name: `GraphQL createPayout, ${n} merchants`,
      zarpay,
      rssMiB: ctx.takeRssPeak(),
      twinName: `REST POST /payouts, ${n} merchants`,
      twin: rest,
      target: { text: '≥ 0.7× REST twin', met: null },
    },
  ];
};
