import type { DbOrTx } from './index.ts';
import { statement } from './statement.ts';

/**
 * The sealed columns (a payout's bank details, a voucher's code, a payout batch's file, a saved
 * payee's details, a person's TOTP secret) by the data key that sealed
 * them: what the data key's rotation reads and writes. The values are opened and sealed again by
 * the service (domain/sealing.ts); here they are only bytes.
 */

// The kid inside a sealed value (domain/sealing.ts envelope: version, kid length, kid, …), in SQL.
const kidOf = (column: string) => `convert_from(substring(${column} from 3 for get_byte(${column}, 1)), 'SQL_ASCII')`;

interface Sealed {
  /** What the sealed column belongs to. */
  table: 'payouts' | 'vouchers' | 'payout_batches' | 'payees' | 'person_second_factors' | 'bank_reports';
  /** Its key column. */
  id: string;
  column: string;
  /** What the values are (domain/sealing.ts SealPurpose). */
  purpose: 'payout-details' | 'voucher-code' | 'payout-batch-file' | 'payee-details' | 'totp-secret' | 'bank-report';
}

const FIRST_ID = '00000000-0000-0000-0000-000000000000';

function sealedIn({ table, id, column, purpose }: Sealed) {
  const inventory = statement<Record<string, never>, { kid: string; n: number }>(
    `${table}' ${column} by data key`,
    `select ${kidOf(column)} as kid, count(*)::int as n from ${table} where ${column} is not null group by 1`,
  );
  const page = statement<{ after: string; limit: number }, { id: string; sealed: Buffer }>(
    `${table}' ${column} in id order`,
    `select ${id} as id, ${column} as sealed from ${table} where ${id} > :after::uuid and ${column} is not null order by ${id} limit :limit::int`,
  );
  const reseal = statement<{ ids: string[]; sealed: Buffer[] }, never>(
    `seal ${table}' ${column} again`,
    `update ${table} t set ${column} = v.sealed
       from unnest(:ids::uuid[], :sealed::bytea[]) as v(id, sealed) where t.${id} = v.id`,
  );
  const unreadable = statement<Record<string, never>, { id: string }>(
    `${table}' ${column} noted as unreadable`,
    `select u.id from unreadable_sealed_values u join ${table} t on t.${id} = u.id where u.purpose = '${purpose}' order by u.id`,
  );
  return {
    purpose,
    /** How many values each data key holds, by kid. */
    async countByKid(db: DbOrTx): Promise<Record<string, number>> {
      const rows = await inventory.run(db, {});
      return Object.fromEntries(rows.map((r) => [r.kid, Number(r.n)]));
    },
    /** Up to `limit` values with ids after `after` (from the start when null), in id order: a walk over every value. */
    page(db: DbOrTx, after: string | null, limit: number): Promise<{ id: string; sealed: Buffer }[]> {
      return page.run(db, { after: after ?? FIRST_ID, limit });
    },
    /** Replaces each `ids[i]`'s value with `sealed[i]`, in one statement. */
    async reseal(db: DbOrTx, ids: string[], sealed: Buffer[]): Promise<void> {
      await reseal.run(db, { ids, sealed });
      if (notedPurpose(purpose)) await forgetUnreadable(db, purpose, ids);
    },
    /** The ids of the values noted as unreadable that still exist. */
    async unreadable(db: DbOrTx): Promise<string[]> {
      return (await unreadable.run(db, {})).map((r) => r.id);
    },
  };
}

/** Payouts' bank details. */
export const payoutDetails = sealedIn({ table: 'payouts', id: 'id', column: 'payment_details_sealed', purpose: 'payout-details' });
/** Vouchers' codes. */
export const voucherCodes = sealedIn({ table: 'vouchers', id: 'payment_id', column: 'code_sealed', purpose: 'voucher-code' });
/**
 * Payout batches' bank files (they hold the bank details of their payouts). A file that will not
 * open is reported by the rotation, not noted below: the table of unreadable values holds
 * payouts' and vouchers' values (its check constraint), which stats and /metrics count.
 */
export const batchFiles = sealedIn({ table: 'payout_batches', id: 'id', column: 'file_sealed', purpose: 'payout-batch-file' });

/**
 * Saved payees' bank details. Like batch files, one that will not open is reported by the
 * rotation (and shown as unreadable in the payee list), not noted below.
 */
export const payeeDetails = sealedIn({ table: 'payees', id: 'id', column: 'details_sealed', purpose: 'payee-details' });

/**
 * People's TOTP secrets (sealed under the person's id). One that will not open is reported by
 * the rotation; its person signs in with a recovery code and sets the second factor up again.
 */
/** Bank reports still being applied (their content is dropped once applied): reported like batch files. */
export const bankReports = sealedIn({ table: 'bank_reports', id: 'id', column: 'content_sealed', purpose: 'bank-report' });

export const totpSecrets = sealedIn({ table: 'person_second_factors', id: 'person_id', column: 'secret_sealed', purpose: 'totp-secret' });

const noteStatement = statement<{ purposes: string[]; ids: string[]; kids: string[] }, never>(
  'note sealed values that will not open',
  `insert into unreadable_sealed_values (purpose, id, kid)
   select * from unnest(:purposes::text[], :ids::uuid[], :kids::text[])
   on conflict (purpose, id) do update set kid = excluded.kid`,
);
const forgetStatement = statement<{ purpose: string; ids: string[] }, never>(
  'forget sealed values that open again',
  `delete from unreadable_sealed_values where purpose = :purpose and id = any(:ids::uuid[])`,
);
const countStatement = statement<Record<string, never>, { purpose: string; n: number }>(
  'sealed values that will not open, by purpose',
  `select u.purpose, count(*)::int as n from unreadable_sealed_values u
    where exists (select 1 from payouts p where u.purpose = 'payout-details' and p.id = u.id)
       or exists (select 1 from vouchers v where u.purpose = 'voucher-code' and v.payment_id = u.id)
    group by u.purpose`,
);

/** What unreadable_sealed_values holds: payouts' bank details and vouchers' codes. */
export type SealedPurpose = 'payout-details' | 'voucher-code';

/** Whether values of this purpose are noted in unreadable_sealed_values when they will not open. */
export function notedPurpose(purpose: Sealed['purpose']): purpose is SealedPurpose {
  return purpose === 'payout-details' || purpose === 'voucher-code';
}

/** Notes values that would not open (where they were found: a view, the rotation), with the kid each names. */
export async function noteUnreadable(db: DbOrTx, values: { purpose: SealedPurpose; id: string; kid: string }[]): Promise<void> {
  if (values.length === 0) return;
  await noteStatement.run(db, { purposes: values.map((v) => v.purpose), ids: values.map((v) => v.id), kids: values.map((v) => v.kid) });
}

/** Forgets values that opened after all (the key was found, or they were sealed again). */
export async function forgetUnreadable(db: DbOrTx, purpose: SealedPurpose, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await forgetStatement.run(db, { purpose, ids });
}

/** How many values noted as unreadable still exist, by purpose (both purposes, 0 for none). */
export async function unreadableCounts(db: DbOrTx): Promise<Record<SealedPurpose, number>> {
  const rows = await countStatement.run(db, {});
  const of = (purpose: SealedPurpose) => Number(rows.find((r) => r.purpose === purpose)?.n ?? 0);
  return { 'payout-details': of('payout-details'), 'voucher-code': of('voucher-code') };
}

const checksStatement = statement<Record<string, never>, { kid: string; check_value: Buffer }>(
  'the data keys\' check values',
  `select kid, check_value from data_key_checks`,
);
const recordCheckStatement = statement<{ kids: string[]; checks: Buffer[] }, never>(
  'record data keys\' check values',
  `insert into data_key_checks (kid, check_value) select * from unnest(:kids::text[], :checks::bytea[]) on conflict (kid) do nothing`,
);

/** The check value stored for each kid that was ever used (domain/sealing.ts Keyring.checks). */
export async function dataKeyChecks(db: DbOrTx): Promise<Map<string, Buffer>> {
  const rows = await checksStatement.run(db, {});
  return new Map(rows.map((r) => [r.kid, Buffer.isBuffer(r.check_value) ? r.check_value : Buffer.from(r.check_value)]));
}

/** Stores check values for kids that have none; a kid already recorded keeps its value. */
export async function recordDataKeyChecks(db: DbOrTx, checks: { kid: string; check: Buffer }[]): Promise<void> {
  if (checks.length === 0) return;
  await recordCheckStatement.run(db, { kids: checks.map((c) => c.kid), checks: checks.map((c) => c.check) });
}
