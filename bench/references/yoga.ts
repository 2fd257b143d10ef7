/**
 * The "bare Yoga" reference: graphql-yoga straight on node:http (no Fastify), over a schema of
 * the same shape as zarpay's for the benchmarked operations (`payout(id)`, `payment(id)`,
 * `balance`, `payouts(first: 50) { totalCount edges { node } }`, `createPayout`), whose resolvers
 * run the statements zarpay itself sent for their REST twins (statements-pool.ts). No
 * authentication (the merchant comes in `X-Merchant-Id`), no limits, no rate limits, no error
 * mapping, no metrics, no logs: Yoga's defaults with GraphiQL and its landing page off, as in
 * zarpay. What zarpay's GraphQL costs on top of this is the price of everything it adds to the
 * stack it chose.
 *
 * The schema is written with plain graphql-js objects rather than Pothos: the executor runs the
 * same GraphQLSchema either way, and Pothos' core adds nothing per request once built (only its
 * plugins wrap resolvers), so plain objects are the floor and leave no doubt about it.
 *
 * Run as its own process: `node --import tsx bench/references/yoga.ts` with DATABASE_URL, PORT
 * and BENCH_STATEMENTS.
 */
import { createServer } from 'node:http';
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLError,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  Kind,
  type GraphQLFieldConfigMap,
  type GraphQLOutputType,
  type GraphQLInputType,
} from 'graphql';
import { createYoga } from 'graphql-yoga';
import { toBalance } from '../../src/db/ledger.ts';
import { toPayment } from '../../src/db/payments.ts';
import { toPayout } from '../../src/db/payouts.ts';
import { PAYMENT_STATUSES } from '../../src/domain/payment.ts';
import { type Payout, PAYOUT_STATUSES } from '../../src/domain/payout.ts';
import { openStatements } from './statements-pool.ts';

const { pool, run, createPayout } = await openStatements(process.env.DATABASE_URL!, process.env.BENCH_STATEMENTS!);

interface Context {
  merchantId: string;
}

const nn = <T extends GraphQLOutputType | GraphQLInputType>(t: T) => new GraphQLNonNull(t);
const error = (code: string, message: string) => new GraphQLError(message, { extensions: { code } });

const UUID = new GraphQLScalarType<string, string>({
  name: 'UUID',
  serialize: (v) => String(v),
  parseValue: (v) => String(v),
  parseLiteral: (ast) => (ast.kind === Kind.STRING ? ast.value : undefined!),
});
const DateTime = new GraphQLScalarType<Date, string>({
  name: 'DateTime',
  serialize: (v) => (v as Date).toISOString(),
  parseValue: (v) => new Date(String(v)),
});
const Money = new GraphQLScalarType<number, number>({
  name: 'Money',
  serialize: (v) => v as number,
  parseValue: (v) => v as number,
  parseLiteral: (ast) => (ast.kind === Kind.INT ? Number(ast.value) : undefined!),
});
const JSONScalar = new GraphQLScalarType({ name: 'JSON', serialize: (v) => v, parseValue: (v) => v });

const upper = (name: string, values: readonly string[]) =>
  new GraphQLEnumType({ name, values: Object.fromEntries(values.map((v) => [v.toUpperCase(), { value: v }])) });
const PayoutStatus = upper('PayoutStatus', PAYOUT_STATUSES);
const PayoutMethod = upper('PayoutMethod', ['eft']);
const PaymentStatus = upper('PaymentStatus', PAYMENT_STATUSES);

/** Fields read straight off the domain object (graphql-js' default resolver). */
const exposed = (fields: Record<string, GraphQLOutputType>): GraphQLFieldConfigMap<unknown, Context> =>
  Object.fromEntries(Object.entries(fields).map(([name, type]) => [name, { type }]));

const Payout = new GraphQLObjectType<Payout, Context>({
  name: 'Payout',
  fields: exposed({
    id: nn(UUID), merchantId: nn(UUID), amountCents: nn(Money), feeCents: nn(Money), grossAmountCents: nn(Money),
    currency: nn(GraphQLString), status: nn(PayoutStatus), payoutMethod: nn(PayoutMethod), merchantReference: GraphQLString,
    description: GraphQLString, metadata: JSONScalar, externalTransferId: GraphQLString, failureReason: GraphQLString,
    rejectionReason: GraphQLString, createdAt: nn(DateTime), updatedAt: nn(DateTime), completedAt: DateTime,
  }),
});

const PaymentAttempt = new GraphQLObjectType({
  name: 'PaymentAttempt',
  fields: exposed({ status: nn(GraphQLString), provider: nn(GraphQLString), providerRef: GraphQLString, createdAt: nn(DateTime) }),
});

const Payment = new GraphQLObjectType<ReturnType<typeof toPayment>, Context>({
  name: 'Payment',
  fields: {
    ...exposed({
      id: nn(UUID), merchantId: nn(UUID), merchantOrderId: nn(GraphQLString), status: nn(PaymentStatus), currency: nn(GraphQLString),
      feeCents: nn(Money), netAmountCents: nn(Money), latestAttempt: PaymentAttempt, createdAt: nn(DateTime), updatedAt: nn(DateTime),
      completedAt: DateTime,
    }),
    paymentId: { type: nn(UUID), resolve: (p) => p.id },
    amount: { type: nn(Money), resolve: (p) => p.amountCents },
  },
});

const Balance = new GraphQLObjectType({
  name: 'Balance',
  fields: exposed({
    merchantId: nn(UUID), balanceCents: nn(Money), reservedCents: nn(Money), availableCents: nn(Money), currency: nn(GraphQLString),
    totals: nn(new GraphQLObjectType({ name: 'BalanceTotals', fields: exposed({ grossCents: nn(Money), feesCents: nn(Money), withdrawalsCents: nn(Money) }) })),
  }),
});

const PageInfo = new GraphQLObjectType({
  name: 'PageInfo',
  fields: exposed({ hasNextPage: nn(GraphQLBoolean), hasPreviousPage: nn(GraphQLBoolean), startCursor: GraphQLString, endCursor: GraphQLString }),
});
const cursor = (p: Payout) => Buffer.from(`payout:${p.id}`).toString('base64url');
const PayoutEdge = new GraphQLObjectType<Payout, Context>({
  name: 'QueryPayoutsConnectionEdge',
  fields: { cursor: { type: nn(GraphQLString), resolve: cursor }, node: { type: nn(Payout), resolve: (p) => p } },
});
const PayoutConnection = new GraphQLObjectType<{ total: number; payouts: Payout[] }, Context>({
  name: 'QueryPayoutsConnection',
  fields: {
    totalCount: { type: nn(GraphQLInt), resolve: (c) => c.total },
    edges: { type: nn(new GraphQLList(nn(PayoutEdge))), resolve: (c) => c.payouts },
    pageInfo: {
      type: nn(PageInfo),
      resolve: ({ total, payouts }) => ({
        hasNextPage: total > payouts.length,
        hasPreviousPage: false,
        startCursor: payouts[0] ? cursor(payouts[0]) : null,
        endCursor: payouts.length ? cursor(payouts[payouts.length - 1]!) : null,
      }),
    },
  },
});

/** The page size of the recorded listing statement (REST `limit=50`). */
const PAGE = 50;

const Query = new GraphQLObjectType<unknown, Context>({
  name: 'Query',
  fields: {
    payout: {
      type: nn(Payout),
      args: { id: { type: nn(UUID) } },
      resolve: async (_r, { id }, { merchantId }) => {
        const { rows: [row] } = await run('payoutGet', { payout: id, merchant: merchantId });
        if (!row) throw error('PAYOUT_NOT_FOUND', 'payout not found');
        return toPayout(row);
      },
    },
    payment: {
      type: nn(Payment),
      args: { id: { type: nn(UUID) } },
      resolve: async (_r, { id }, { merchantId }) => {
        const { rows: [row] } = await run('paymentGet', { payment: id, merchant: merchantId });
        if (!row) throw error('PAYMENT_NOT_FOUND', 'payment not found');
        return toPayment(row);
      },
    },
    balance: {
      type: nn(Balance),
      resolve: async (_r, _a, { merchantId }) => {
        const { rows: [row] } = await run('balance', { merchant: merchantId });
        if (!row) throw error('NOT_FOUND', 'no balance');
        return toBalance(row);
      },
    },
    payouts: {
      type: nn(PayoutConnection),
      args: { first: { type: GraphQLInt } },
      resolve: async (_r, { first }, { merchantId }) => {
        if (first != null && first !== PAGE) throw error('VALIDATION_FAILED', `this reference serves pages of ${PAGE}`);
        const { rows } = await run('payoutList', { merchant: merchantId });
        return { total: Number(rows[0].total), payouts: rows.filter((r) => r.id !== null).map(toPayout) };
      },
    },
  },
});

const PaymentDetailsInput = new GraphQLInputObjectType({
  name: 'PaymentDetailsInput',
  fields: { accountNumber: { type: nn(GraphQLString) }, branchCode: { type: nn(GraphQLString) }, accountHolder: { type: nn(GraphQLString) }, bankName: { type: nn(GraphQLString) } },
});
const CreatePayoutInput = new GraphQLInputObjectType({
  name: 'CreatePayoutInput',
  fields: {
    amountCents: { type: nn(Money) }, currency: { type: nn(GraphQLString) }, payoutMethod: { type: nn(PayoutMethod) },
    paymentDetails: { type: nn(PaymentDetailsInput) },
  },
});
const CreatePayoutPayload = new GraphQLObjectType({
  name: 'CreatePayoutPayload',
  fields: exposed({ payout: nn(Payout), created: nn(GraphQLBoolean) }),
});

const Mutation = new GraphQLObjectType<unknown, Context>({
  name: 'Mutation',
  fields: {
    createPayout: {
      type: nn(CreatePayoutPayload),
      args: { input: { type: nn(CreatePayoutInput) } },
      resolve: async (_r, { input }, { merchantId }) => {
        // GraphQL's input onto the REST body, as zarpay's resolver does, so it hashes the same.
        const created = await createPayout(merchantId, {
          amount_cents: input.amountCents,
          currency: input.currency,
          payout_method: input.payoutMethod,
          payment_details: {
            account_number: input.paymentDetails.accountNumber,
            branch_code: input.paymentDetails.branchCode,
            account_holder: input.paymentDetails.accountHolder,
            bank_name: input.paymentDetails.bankName,
          },
        });
        if (!created) throw error('INSUFFICIENT_BALANCE', 'insufficient balance');
        return { payout: created, created: true };
      },
    },
  },
});

const yoga = createYoga<object, Context>({
  schema: new GraphQLSchema({ query: Query, mutation: Mutation }),
  graphqlEndpoint: '/graphql',
  graphiql: false,
  landingPage: false,
  logging: false,
  context: ({ request }) => ({ merchantId: request.headers.get('x-merchant-id') ?? '' }),
});

const server = createServer((req, res) => {
  if (req.url === '/healthz') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    return;
  }
  void yoga(req, res);
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.end().finally(() => process.exit(0));
});
