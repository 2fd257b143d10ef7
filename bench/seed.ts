import { join } from 'node:path';
import { sql } from 'kysely';
import type { Config } from '../src/config.ts';
import { type Db, openDatabase } from '../src/db/index.ts';
import { parseWire } from '../rest/wire.ts';
import { OPERATOR } from '../src/domain/actor.ts';
import { initiatePaymentInput } from '../src/domain/payment-input.ts';
import { createPayoutInput } from '../src/domain/payout-input.ts';
import { bootOn } from '../src/boot.ts';

/** What the scenarios rotate over. Index 0 is the "hot" merchant of the contended scenario. */
export interface Seed {
  merchants: { id: string; key: string }[];
  payouts: { id: string; merchant: number }[];
  payments: { id: string; merchant: number }[];
}

export interface SeedSize {
  merchants: number;
  payoutsPerMerchant: number;
  paymentsPerMerchant: number;
}

/**
 * The bench merchants' rates: chosen, with the amounts of the samples statements.ts captures, so
 * that every number of a captured statement is told apart from the others.
 */
export const BENCH_RATES = { payoutFeeCents: 7, paymentFeeBps: 150, paymentFeeFixedCents: 9 };

export const PAYOUT_BODY = {
  amount_cents: 25_000,
  currency: 'ZAR',
  payout_method: 'eft',
  payment_details: { account_number: '62012345678', branch_code: '250655', account_holder: 'Thandi Nkosi', bank_name: 'FNB' },
};

/** Runs `task(i)` for i in [0, n) with `width` in flight, in order of i. */
async function inParallel(n: number, width: number, task: (i: number) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < n) await task(next++);
  };
  await Promise.all(Array.from({ length: width }, worker));
}

/**
 * Migrates the fresh bench database and seeds it through zarpay's own services (the same code
 * paths as the API, minus HTTP), so keys hash with the service's pepper and the ledger balances.
 * Also writes `bench_*` lookup tables numbering the ids 1..n, for pgbench's `\set` random picks.
 */
export async function seed(config: Config, size: SeedSize): Promise<Seed> {
  // Without DATABASE_URL, the embedded database where the service will find it (bench/ab.ts --embedded).
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: join(config.dataDir, 'pg'), poolSize: 16 });
  // Up as every process comes up: migrations sealed with the data key, the keys' proof.
  const { services } = await bootOn(config, database);
  try {
    const out: Seed = { merchants: [], payouts: [], payments: [] };
    await inParallel(size.merchants, 16, async (i) => {
      const { merchant, fullKey } = await services.merchants.create(OPERATOR, {
        name: `Bench shop ${i}`,
        webhookUrl: null,
        payoutFeeCents: BENCH_RATES.payoutFeeCents,
        paymentFeeBps: BENCH_RATES.paymentFeeBps,
        paymentFeeFixedCents: BENCH_RATES.paymentFeeFixedCents,
      });
      // Well funded, so only the contended scenario can ever run a balance down.
      await services.balances.credit(OPERATOR, merchant.id, { amountCents: 1_000_000_000_000, memo: 'bench funding' });
      out.merchants[i] = { id: merchant.id, key: fullKey };
    });
    const payout = parseWire(createPayoutInput, PAYOUT_BODY);
    await inParallel(size.merchants, 16, async (m) => {
      const actor = await services.keys.authenticate(out.merchants[m]!.key);
      for (let k = 0; k < size.payoutsPerMerchant; k++) {
        const created = await services.payouts.create(actor, payout);
        out.payouts.push({ id: created.payout.id, merchant: m });
      }
      for (let k = 0; k < size.paymentsPerMerchant; k++) {
        const body = { amount: 10_000, currency: 'ZAR', merchant_order_id: `seed-${m}-${k}` };
        const { payment } = await services.payments.init(actor, parseWire(initiatePaymentInput, body));
        out.payments.push({ id: payment.id, merchant: m });
      }
    });
    await writeLookupTables(database.db, out);
    await sql`vacuum analyze`.execute(database.db);
    return out;
  } finally {
    // Closes the database too.
    await services.stop();
  }
}

async function writeLookupTables(db: Db, s: Seed) {
  const tables = [
    ['bench_merchants', s.merchants.map((m) => [m.id, m.id])],
    ['bench_payouts', s.payouts.map((p) => [p.id, s.merchants[p.merchant]!.id])],
    ['bench_payments', s.payments.map((p) => [p.id, s.merchants[p.merchant]!.id])],
  ] as const;
  for (const [table, rows] of tables) {
    await sql`create table ${sql.table(table)} (n int primary key, id uuid not null, merchant_id uuid not null)`.execute(db);
    const ids = rows.map((r) => r[0]);
    const merchants = rows.map((r) => r[1]);
    await sql`insert into ${sql.table(table)} (n, id, merchant_id)
      select ord, id, m from unnest(${ids}::uuid[], ${merchants}::uuid[]) with ordinality as t(id, m, ord)`.execute(db);
  }
}
