/**
 * What the reference servers share: a pg Pool the size of zarpay's running the statements zarpay
 * itself sent (recorded from its services at the start of the run, see statements.ts) as named
 * prepared statements, as zarpay's pool sends them, and the merchants' ids (the stand-in for
 * authentication). The statements read the merchant's rates themselves, as zarpay's do.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import '../../src/db/index.ts'; // int8 → number, as in zarpay
import { toPayout } from '../../src/db/payouts.ts';
import { payloadHash } from '../../src/domain/canonical.ts';
import type { Payout } from '../../src/domain/payout.ts';
import { payoutJson } from '../../src/domain/payout-json.ts';
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

/** Opens the pool and reads the statements (`BENCH_STATEMENTS`) and every merchant's id. */
export async function openStatements(databaseUrl: string, statementsFile: string) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_SIZE });
  const statements = JSON.parse(readFileSync(statementsFile, 'utf8'), (_k, v) =>
    typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(v) ? new Date(v) : v,
  ) as Statements;

  const merchants = new Set<string>();
  const { rows } = await pool.query('select id from merchants');
  for (const r of rows) merchants.add(r.id);

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

  /** The value a role had in the recorded sample (sealed bank details: the reference reuses their bytes). */
  function sampleOf(name: keyof Statements, role: string): unknown {
    const p = statements[name].params.find((q) => 'role' in q && q.role === role);
    if (!p || !('role' in p)) throw new Error(`${name} has no ${role}`);
    return p.sample;
  }

  /**
   * PayoutService.create's statement with the values zarpay would give it (the statement reads the
   * fee from the merchant's row): the payout as stored, or undefined when the balance does not
   * cover it.
   */
  async function createPayout(merchantId: string, body: PayoutBody): Promise<Payout | undefined> {
    const now = new Date();
    const payout: Payout = {
      id: randomUUID(), merchantId, amountCents: body.amount_cents, feeCents: 0, grossAmountCents: 0, currency: 'ZAR',
      status: 'pending', payoutMethod: 'eft', merchantReference: null, description: null, metadata: null,
      externalTransferId: null, failureReason: null, rejectionReason: null, createdAt: now, updatedAt: now, completedAt: null,
      returnedAt: null, returnReason: null,
    };
    // The event's data without the amounts the statement fills in, as PayoutService sends it.
    const { fee_cents: _fee, gross_amount_cents: _gross, ...eventData } = payoutJson(payout);
    const { rows: [row] } = await run('payoutCreate', {
      merchant: merchantId, payout: payout.id, amount: body.amount_cents, now,
      // Sealed bank details: the sample's bytes (the reference measures the database's work, not sealing).
      paymentDetails: sampleOf('payoutCreate', 'paymentDetails'), requestHash: payloadHash(body), eventData: JSON.stringify(eventData),
    });
    return row?.id ? toPayout(row) : undefined;
  }

  return { pool, merchants, run, createPayout };
}
