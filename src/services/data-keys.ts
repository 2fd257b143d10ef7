import { sql } from 'kysely';
import { recordAudit } from '../db/audit.ts';
import { type Actor, actorLabel, requireOperator } from '../domain/actor.ts';
import { keyringOf, type ServiceDeps } from './deps.ts';

const BATCH = 500;

/** How many sealed values each key holds (by kid), per kind. */
export interface SealedInventory {
  currentKid: string;
  payoutDetails: Record<string, number>;
  voucherCodes: Record<string, number>;
}

// The kid inside a sealed value (domain/sealing.ts envelope: version, kid length, kid, …), in SQL.
const kidOf = (column: string) => sql.raw(`convert_from(substring(${column} from 3 for get_byte(${column}, 1)), 'SQL_ASCII')`);

/**
 * The data key's rotation (`zarpay rotate-data-key`): every bank account and voucher code sealed
 * under another key than the current one (the first of DATA_KEY) is opened and sealed again
 * under it, in batches, each batch one statement. Safe to run while the service runs, and to run
 * again: what is already under the current key is left alone.
 */
export class DataKeyService {
  constructor(private readonly deps: ServiceDeps) {}

  async inventory(actor: Actor): Promise<SealedInventory> {
    requireOperator(actor);
    const count = async (table: 'payouts' | 'vouchers', column: string) => {
      const { rows } = await sql<{ kid: string; n: number }>`select ${kidOf(column)} as kid, count(*)::int as n from ${sql.table(table)} group by 1`.execute(this.deps.db);
      return Object.fromEntries(rows.map((r) => [r.kid, Number(r.n)]));
    };
    return {
      currentKid: keyringOf(this.deps).currentKid,
      payoutDetails: await count('payouts', 'payment_details_sealed'),
      voucherCodes: await count('vouchers', 'code_sealed'),
    };
  }

  async rotate(actor: Actor): Promise<{ kid: string; payoutDetails: number; voucherCodes: number }> {
    requireOperator(actor);
    const { db } = this.deps;
    const keyring = keyringOf(this.deps);
    const kid = keyring.currentKid;
    let payoutDetails = 0;
    for (;;) {
      const { rows } = await sql<{ id: string; sealed: Buffer }>`
        select id, payment_details_sealed as sealed from payouts where ${kidOf('payment_details_sealed')} <> ${kid} limit ${BATCH}`.execute(db);
      if (rows.length === 0) break;
      const resealed = rows.map((r) => keyring.seal('payout-details', r.id, keyring.open('payout-details', r.id, r.sealed)));
      await sql`update payouts p set payment_details_sealed = v.sealed
                  from unnest(${rows.map((r) => r.id)}::uuid[], ${resealed}::bytea[]) as v(id, sealed) where p.id = v.id`.execute(db);
      payoutDetails += rows.length;
    }
    let voucherCodes = 0;
    for (;;) {
      const { rows } = await sql<{ id: string; sealed: Buffer }>`
        select payment_id as id, code_sealed as sealed from vouchers where ${kidOf('code_sealed')} <> ${kid} limit ${BATCH}`.execute(db);
      if (rows.length === 0) break;
      const resealed = rows.map((r) => keyring.seal('voucher-code', r.id, keyring.open('voucher-code', r.id, r.sealed)));
      await sql`update vouchers v set code_sealed = x.sealed
                  from unnest(${rows.map((r) => r.id)}::uuid[], ${resealed}::bytea[]) as x(id, sealed) where v.payment_id = x.id`.execute(db);
      voucherCodes += rows.length;
    }
    await recordAudit(db, { actor: actorLabel(actor), action: 'data_key.rotate', detail: { kid, payout_details: payoutDetails, voucher_codes: voucherCodes } });
    return { kid, payoutDetails, voucherCodes };
  }
}
