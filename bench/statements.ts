import type { Config } from '../src/config.ts';
import { canonicalJson, payloadHash } from '../src/domain/canonical.ts';
import { paymentFee } from '../src/domain/money.ts';
import { parseInitPayment } from '../src/domain/payment-input.ts';
import { parseCreatePayout } from '../src/domain/validation.ts';
import { payoutJson } from '../src/domain/wire.ts';
import { openDatabase } from '../src/db/index.ts';
import { createServices } from '../src/services/index.ts';
import { feeRatesOf } from '../src/services/payments.ts';
import type { Payout } from '../src/domain/payout.ts';
import type { Seed } from './seed.ts';

/**
 * What a parameter of a captured statement stands for: a role filled per request (with the value
 * it had in the sample), or a value the same in every request.
 */
export type Param = { role: string; sample: unknown } | { value: unknown };

/** A statement exactly as zarpay sent it, with each parameter named. */
export interface Statement {
  sql: string;
  params: Param[];
}

export interface Statements {
  payoutGet: Statement;
  paymentGet: Statement;
  balance: Statement;
  payoutList: Statement;
  payoutCreate: Statement;
  paymentInit: Statement;
}

/**
 * The bench merchants' rates, and the amounts of the samples the capture sends: each chosen so
 * that every number of a statement is told apart from the others.
 */
export const BENCH_RATES = { payoutFeeCents: 7, paymentFeeBps: 150, paymentFeeFixedCents: 9 };
const SAMPLE_PAYOUT_AMOUNT = 1013;
const SAMPLE_PAYMENT_AMOUNT = 10_013;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Runs each operation once through zarpay's own services on the bench database and records the
 * statement it sent, so that the references run zarpay's SQL, not a copy that could drift.
 * Each parameter is named by the sample value it carried (the merchant's id, the payout's, the
 * amount…); any other UUID is an id drawn per request (`fresh:<n>`); the rest are constants.
 */
export async function captureStatements(config: Config, seed: Seed, payoutBody: Record<string, unknown>): Promise<Statements> {
  const sent: { sql: string; parameters: readonly unknown[] }[] = [];
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: 'unused', onQuery: (sql, parameters) => sent.push({ sql, parameters }) });
  try {
    const services = createServices({ db: database.db, config });
    const one = async <T>(what: string, op: () => Promise<T>) => {
      sent.length = 0;
      const result = await op();
      if (sent.length !== 1) throw new Error(`${what} sent ${sent.length} statements; the benchmark's references expect one`);
      return { sent: sent[0]!, result };
    };
    const m = seed.merchants[0]!.id;
    const payout = seed.payouts.find((p) => p.merchant === 0)!.id;
    const payment = seed.payments.find((p) => p.merchant === 0)!.id;
    const payoutFee = BENCH_RATES.payoutFeeCents;

    const get = await one('GET /payouts/{id}', () => services.payouts.get(payout, m));
    const pay = await one('GET /payments/{id}', () => services.payments.get(payment, m));
    const bal = await one('GET /payouts/balance', () => services.balances.get(m));
    const list = await one('GET /payouts', () => services.payouts.list({ merchantId: m }, { limit: '50' }));

    const payoutSample = { ...payoutBody, amount_cents: SAMPLE_PAYOUT_AMOUNT };
    const create = await one('POST /payouts', () => services.payouts.create(m, payoutSample, payoutFee));
    const created: Payout = create.result.payout;
    const gross = SAMPLE_PAYOUT_AMOUNT + payoutFee;

    const paymentSample = paymentBody(SAMPLE_PAYMENT_AMOUNT, `capture-${Date.now()}`);
    const rates = feeRatesOf(BENCH_RATES);
    const init = await one('POST /payments/init', () => services.payments.init(m, paymentSample, undefined, rates));
    const fee = paymentFee(SAMPLE_PAYMENT_AMOUNT, rates.bps, rates.fixedCents);

    return {
      payoutGet: named(get.sent, { payout, merchant: m }),
      paymentGet: named(pay.sent, { payment, merchant: m }),
      balance: named(bal.sent, { merchant: m }),
      payoutList: named(list.sent, { merchant: m }),
      payoutCreate: named(create.sent, {
        merchant: m,
        payout: created.id,
        amount: SAMPLE_PAYOUT_AMOUNT,
        fee: payoutFee,
        gross,
        negativeGross: -gross,
        now: created.createdAt,
        paymentDetails: JSON.stringify(parseCreatePayout(payoutSample).payment_details),
        requestHash: payloadHash(parseCreatePayout(payoutSample)),
        eventData: JSON.stringify(payoutJson(created)),
      }),
      paymentInit: named(init.sent, {
        merchant: m,
        payment: init.result.payment_id,
        orderId: paymentSample.merchant_order_id,
        amount: SAMPLE_PAYMENT_AMOUNT,
        fee,
        net: SAMPLE_PAYMENT_AMOUNT - fee,
        paramsHash: payloadHash(parseInitPayment(paymentSample, false)),
      }),
    };
  } finally {
    await database.close();
  }
}

/** The payment initiation body the benchmark sends. */
export const paymentBody = (amount: number, orderId: string) => ({ amount, currency: 'ZAR', merchant_order_id: orderId });

function named(sent: { sql: string; parameters: readonly unknown[] }, roles: Record<string, unknown>): Statement {
  const fresh = new Map<string, string>();
  return {
    sql: sent.sql,
    params: sent.parameters.map((v): Param => {
      const role = Object.entries(roles).find(([, sample]) => sameValue(sample, v))?.[0];
      if (role) return { role, sample: v };
      if (typeof v === 'string' && UUID.test(v)) {
        if (!fresh.has(v)) fresh.set(v, `fresh:${fresh.size}`);
        return { role: fresh.get(v)!, sample: v };
      }
      return { value: v };
    }),
  };
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  return a === b;
}

/** A value as text, for pgbench's `-D`. */
function asText(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') return canonicalJson(v);
  return String(v);
}

/**
 * A pgbench script running `statement`: a role's parameter becomes the pgbench expression
 * `bindings` gives it (`fresh` binds every `fresh:<n>`, with `{n}` in it), or, for the roles in
 * `sampled`, the sample's value; a constant becomes a `-D` variable (pgbench sends both as
 * parameters, like zarpay); `null` stays a literal. `prelude` comes first (\set lines).
 */
export function pgbenchScript(
  statement: Statement,
  bindings: Record<string, string>,
  prelude: string[],
  sampled: string[] = [],
): { script: string; defines: Record<string, string> } {
  const defines: Record<string, string> = {};
  const sql = statement.sql.replace(/\$(\d+)/g, (_m, n: string) => {
    const p = statement.params[Number(n) - 1]!;
    let value: unknown;
    if ('role' in p) {
      if (!sampled.includes(p.role)) {
        const fresh = /^fresh:(\d+)$/.exec(p.role);
        const bound = bindings[p.role] ?? (fresh ? bindings['fresh']?.replaceAll('{n}', fresh[1]!) : undefined);
        if (bound === undefined) throw new Error(`no pgbench binding for ${p.role}`);
        return bound;
      }
      value = p.sample;
    } else value = p.value;
    if (value === null || value === undefined) return 'null';
    defines[`c${n}`] = asText(value);
    return `:c${n}`;
  });
  return { script: [...prelude, `${sql.replace(/\s+/g, ' ')};`, ''].join('\n'), defines };
}

/**
 * pgbench's version of each statement. Ids come from the `bench_*` tables inside the statement
 * (pgbench has no UUID variables), a new row's ids from md5 of the client and a random number.
 */
export function pgbenchScripts(s: Statements) {
  const merchant = '(select id from bench_merchants where n = :n)';
  const fresh = "md5(:client_id::text || '.' || :r::text || '.{n}')::uuid";
  const pick = (count: string) => [`\\set n random(1, :${count})`];
  const { payoutFeeCents: fee, paymentFeeBps: bps, paymentFeeFixedCents: fixed } = BENCH_RATES;
  return {
    payoutGet: pgbenchScript(s.payoutGet, {
      payout: '(select id from bench_payouts where n = :n)',
      merchant: '(select merchant_id from bench_payouts where n = :n)',
    }, pick('payouts')),
    paymentGet: pgbenchScript(s.paymentGet, { payment: '(select id from bench_payments where n = :n)', merchant }, pick('payments')),
    balance: pgbenchScript(s.balance, { merchant }, pick('merchants')),
    payoutList: pgbenchScript(s.payoutList, { merchant }, pick('merchants')),
    payoutCreate: pgbenchScript(
      s.payoutCreate,
      { merchant, payout: fresh.replace('{n}', 'p'), fresh, amount: ':amount', fee: String(fee), gross: ':gross', negativeGross: ':neg' },
      [...pick('merchants'), '\\set amount random(100, 1000)', `\\set gross :amount + ${fee}`, '\\set neg -1 * :gross', '\\set r random(1, 1000000000000000000)'],
      // The payout's time, details and hash, and its event's JSON, are the sample's every time.
      ['now', 'paymentDetails', 'requestHash', 'eventData'],
    ),
    paymentInit: pgbenchScript(
      s.paymentInit,
      { merchant, payment: fresh.replace('{n}', 'p'), fresh, orderId: "(:client_id::text || '-' || :r::text)", amount: ':amount', fee: ':fee', net: ':net' },
      [
        ...pick('merchants'),
        '\\set amount random(10000, 20000)',
        // zarpay's paymentFee: round half up of amount × bps / 10000, plus the fixed part.
        `\\set fee (:amount * ${bps} + 5000) / 10000 + ${fixed}`,
        '\\set net :amount - :fee',
        '\\set r random(1, 1000000000000000000)',
      ],
      ['paramsHash'],
    ),
  };
}
