import type { DbOrTx } from './index.ts';
import { statement } from './statement.ts';

/**
 * The sealed columns (a payout's bank details, a voucher's code, a payout batch's file) by the data key that sealed
 * them: what the data key's rotation reads and writes. The values are opened and sealed again by
 * the service (domain/sealing.ts); here they are only bytes.
 */

// The kid inside a sealed value (domain/sealing.ts envelope: version, kid length, kid, …), in SQL.
const kidOf = (column: string) => `convert_from(substring(${column} from 3 for get_byte(${column}, 1)), 'SQL_ASCII')`;

interface Sealed {
  /** What the sealed column belongs to. */
  table: 'payouts' | 'vouchers' | 'payout_batches';
  /** Its key column. */
  id: string;
  column: string;
}

function sealedIn({ table, id, column }: Sealed) {
  const inventory = statement<Record<string, never>, { kid: string; n: number }>(
    `${table}' ${column} by data key`,
    `select ${kidOf(column)} as kid, count(*)::int as n from ${table} group by 1`,
  );
  const notUnder = statement<{ kid: string; limit: number }, { id: string; sealed: Buffer }>(
    `${table}' ${column} under another data key`,
    `select ${id} as id, ${column} as sealed from ${table} where ${kidOf(column)} <> :kid::text limit :limit::int`,
  );
  const reseal = statement<{ ids: string[]; sealed: Buffer[] }, never>(
    `seal ${table}' ${column} again`,
    `update ${table} t set ${column} = v.sealed
       from unnest(:ids::uuid[], :sealed::bytea[]) as v(id, sealed) where t.${id} = v.id`,
  );
  return {
    /** How many values each data key holds, by kid. */
    async countByKid(db: DbOrTx): Promise<Record<string, number>> {
      const rows = await inventory.run(db, {});
      return Object.fromEntries(rows.map((r) => [r.kid, Number(r.n)]));
    },
    /** Up to `limit` values sealed under another key than `kid`, with their ids. */
    notUnder(db: DbOrTx, kid: string, limit: number): Promise<{ id: string; sealed: Buffer }[]> {
      return notUnder.run(db, { kid, limit });
    },
    /** Replaces each `ids[i]`'s value with `sealed[i]`, in one statement. */
    async reseal(db: DbOrTx, ids: string[], sealed: Buffer[]): Promise<void> {
      await reseal.run(db, { ids, sealed });
    },
  };
}

/** Payouts' bank details. */
export const payoutDetails = sealedIn({ table: 'payouts', id: 'id', column: 'payment_details_sealed' });
/** Vouchers' codes. */
export const voucherCodes = sealedIn({ table: 'vouchers', id: 'payment_id', column: 'code_sealed' });
/** Payout batches' bank files (they hold the bank details of their payouts). */
export const batchFiles = sealedIn({ table: 'payout_batches', id: 'id', column: 'file_sealed' });
