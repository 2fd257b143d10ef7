import { parseWire } from '../rest/wire.ts';
import type { Config } from '../src/config.ts';
import { openDatabase } from '../src/db/index.ts';
import { canonicalJson, payloadHash } from '../src/domain/canonical.ts';
import { initiatePaymentInput, withDefaults } from '../src/domain/payment-input.ts';
import type { Payout } from '../src/domain/payout.ts';
import { createPayoutInput } from '../src/domain/payout-input.ts';
import { payoutJson } from '../src/domain/payout-json.ts';
import { bootOn } from '../src/boot.ts';
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
 * The amounts of the samples the capture sends: chosen, with the bench merchants' rates
 * (`BENCH_RATES` in seed.ts), so that every number of a statement is told apart from the others.
 */
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
  const { services } = await bootOn(config, database);
  try {
    const actor = await services.keys.authenticate(seed.merchants[0]!.key);
    const one = async <T>(what: string, op: () => Promise<T>) => {
      sent.length = 0;
      const result = await op();
      if (sent.length !== 1) throw new Error(`${what} sent ${sent.length} statements; the benchmark's references expect one`);
      return { sent: sent[0]!, result };
    };
    const m = seed.merchants[0]!.id;
    const payout = seed.payouts.find((p) => p.merchant === 0)!.id;
    const payment = seed.payments.find((p) => p.merchant === 0)!.id;

    const get = await one('GET /payouts/{id}', () => services.payouts.get(actor, payout));
    const pay = await one('GET /payments/{id}', () => services.payments.get(actor, payment));
    const bal = await one('GET /payouts/balance', () => services.balances.get(actor));
    const list = await one('GET /payouts', () => services.payouts.list(actor, { limit: 50, offset: 0 }));

    const payoutSample = parseWire(createPayoutInput, { ...payoutBody, amount_cents: SAMPLE_PAYOUT_AMOUNT });
    const create = await one('POST /payouts', () => services.payouts.create(actor, payoutSample));
    const created: Payout = create.result.payout;
    const { fee_cents: _fee, gross_amount_cents: _gross, ...eventData } = payoutJson({ ...created, feeCents: 0, grossAmountCents: 0 });

    const paymentSample = parseWire(initiatePaymentInput, paymentBody(SAMPLE_PAYMENT_AMOUNT, `capture-${Date.now()}`));
    const init = await one('POST /payments/init', () => services.payments.init(actor, paymentSample));

    return {
      payoutGet: named(get.sent, { payout, merchant: m }),
      paymentGet: named(pay.sent, { payment, merchant: m }),
      balance: named(bal.sent, { merchant: m }),
      payoutList: named(list.sent, { merchant: m }),
      payoutCreate: named(create.sent, {
        merchant: m,
        payout: created.id,
        amount: SAMPLE_PAYOUT_AMOUNT,
        now: created.createdAt,
        // Sealed by the service, so random each time: the reference runs reuse the sample's bytes.
        paymentDetails: asParameter(create.sent.parameters.find((v) => Buffer.isBuffer(v))),
        requestHash: payloadHash(payoutSample),
        eventData: JSON.stringify(eventData),
      }),
      paymentInit: named(init.sent, {
        merchant: m,
        payment: init.result.payment.id,
        orderId: paymentSample.merchantOrderId,
        amount: SAMPLE_PAYMENT_AMOUNT,
        paramsHash: payloadHash(withDefaults(paymentSample)),
      }),
    };
  } finally {
    // Closes the database too.
    await services.stop();
  }
}

/** The payment initiation body the benchmark sends. */
export const paymentBody = (amount: number, orderId: string) => ({ amount, currency: 'ZAR', merchant_order_id: orderId });

/** Bytes travel as PostgreSQL's hex text (`\\x…`), which JSON, pg and pgbench all carry as they are. */
const asParameter = (v: unknown) => (Buffer.isBuffer(v) ? `\\x${v.toString('hex')}` : v);

function named(sent: { sql: string; parameters: readonly unknown[] }, roles: Record<string, unknown>): Statement {
  const fresh = new Map<string, string>();
  return {
    sql: sent.sql,
    params: sent.parameters.map(asParameter).map((v): Param => {
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
  // One line per statement for pgbench, so zarpay's `--` comments go first.
  const oneLine = sql.replace(/--[^\n]*/g, ' ').replace(/\s+/g, ' ');
  return { script: [...prelude, `${oneLine};`, ''].join('\n'), defines };
}

/**
 * pgbench's version of each statement. Ids come from the `bench_*` tables inside the statement
 * (pgbench has no UUID variables), a new row's ids from md5 of the client and a random number.
 */
export function pgbenchScripts(s: Statements) {
  const merchant = '(select id from bench_merchants where n = :n)';
  const fresh = "md5(:client_id::text || '.' || :r::text || '.{n}')::uuid";
  const pick = (count: string) => [`\\set n random(1, :${count})`];
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
      { merchant, payout: fresh.replace('{n}', 'p'), fresh, amount: ':amount' },
      [...pick('merchants'), '\\set amount random(100, 1000)', '\\set r random(1, 1000000000000000000)'],
      // The payout's time, details and hash, and its event's JSON, are the sample's every time.
      ['now', 'paymentDetails', 'requestHash', 'eventData'],
    ),
    paymentInit: pgbenchScript(
      s.paymentInit,
      // The statement computes the fee from the merchant's row itself.
      { merchant, payment: fresh.replace('{n}', 'p'), fresh, orderId: "(:client_id::text || '-' || :r::text)", amount: ':amount' },
      [...pick('merchants'), '\\set amount random(10000, 20000)', '\\set r random(1, 1000000000000000000)'],
      ['paramsHash'],
    ),
  };
}
