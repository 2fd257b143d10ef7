/**
 * What the reference servers share: a pg Pool the size of zarpay's running the statements zarpay
 * itself sent (recorded from its services at the start of the run, see statements.ts) as named
 * prepared statements, as zarpay's pool sends them, and each merchant's rates, which those
 * statements need as zarpay's cached merchant gives them.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import '../../src/db/index.ts'; // int8 → number, as in zarpay
import { payloadHash } from '../../src/domain/canonical.ts';
import type { Payout } from '../../src/domain/payout.ts';
import { payoutJson } from '../../src/domain/wire.ts';
import type { Statement, Statements } from '../statements.ts';

/** zarpay's default pool size (src/db), which the bench gives every server. */
export const POOL_SIZE = 20;

/** A payout as the REST body gives it (GraphQL's input is mapped onto this, as zarpay does). */
export interface PayoutBody {
  amount_cents: number;
  currency: string;
  payout_method: string;
  payment_details: Record<string, string>;
}

/** Opens the pool and reads the statements (`BENCH_STATEMENTS`) and every merchant's rates. */
export async function openStatements(databaseUrl: string, statementsFile: string) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_SIZE });
  const statements = JSON.parse(readFileSync(statementsFile, 'utf8'), (_k, v) =>
    typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(v) ? new Date(v) : v,
  ) as Statements;

  const rates = new Map<string, { payout: number; bps: number; fixed: number }>();
  const { rows } = await pool.query('select id, payout_fee_cents, payment_fee_bps, payment_fee_fixed_cents from merchants');
  for (const r of rows) rates.set(r.id, { payout: r.payout_fee_cents, bps: r.payment_fee_bps, fixed: r.payment_fee_fixed_cents });

  /** Runs a captured statement with the request's values for its roles; fresh ids are drawn here. */
  function run(name: keyof Statements, roles: Record<string, unknown>) {
    const s: Statement = statements[name];
    const fresh = new Map<string, string>();
    const values = s.params.map((p) => {
      if (!('role' in p)) return p.value;
      if (p.role.startsWith('fresh:')) {
        if (!fresh.has(p.role)) fresh.set(p.role, randomUUID());
        return fresh.get(p.role);
      }
      if (!(p.role in roles)) throw new Error(`no value for ${p.role} in ${name}`);
      return roles[p.role];
    });
    return pool.query({ name, text: s.sql, values });
  }

  /**
   * PayoutService.create's statement with the values zarpay would give it: the payout and its
   * REST JSON (the event's data), or undefined when the balance does not cover it.
   */
  async function createPayout(merchantId: string, body: PayoutBody): Promise<{ payout: Payout; json: ReturnType<typeof payoutJson> } | undefined> {
    const fee = rates.get(merchantId)!.payout;
    const gross = body.amount_cents + fee;
    const now = new Date();
    const payout: Payout = {
      id: randomUUID(), merchantId, amountCents: body.amount_cents, feeCents: fee, grossAmountCents: gross, currency: body.currency,
      status: 'pending', payoutMethod: body.payout_method as Payout['payoutMethod'], merchantReference: null, description: null,
      metadata: null, externalTransferId: null, failureReason: null, rejectionReason: null, createdAt: now, updatedAt: now, completedAt: null,
    };
    const json = payoutJson(payout);
    const { rows: [row] } = await run('payoutCreate', {
      merchant: merchantId, payout: payout.id, amount: body.amount_cents, fee, gross, negativeGross: -gross, now,
      paymentDetails: JSON.stringify(body.payment_details), requestHash: payloadHash(body), eventData: JSON.stringify(json),
    });
    return row?.id ? { payout, json } : undefined;
  }

  return { pool, rates, run, createPayout };
}
