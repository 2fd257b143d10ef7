import { type Kysely, sql } from 'kysely';

/**
 * Bank details and voucher codes sealed at rest (CONTRACT §9), and the rows already written
 * sealed in place: `payouts.payment_details` (jsonb) becomes `payment_details_sealed`, and
 * `vouchers.code` becomes `code_sealed` plus a keyed digest that keeps codes unique. The plaintext
 * columns are dropped.
 *
 * The key is the service's and is not in the database, so SQL alone cannot seal: the migration
 * runner passes a sealer built from the service's settings (src/db/migrate.ts). A database with
 * rows to seal and no sealer refuses to migrate rather than keep plaintext.
 */
interface Sealer {
  seal(purpose: 'payout-details' | 'voucher-code', id: string, plaintext: string): Buffer;
  digest(purpose: 'voucher-code', plaintext: string): Buffer;
}

const BATCH = 500;

export async function up(db: Kysely<any>, sealer?: Sealer): Promise<void> {
  const need = (what: string) => {
    if (!sealer) throw new Error(`${what} must be sealed with the data key: run the migration through the service (npm start) or zarpay migrate`);
    return sealer;
  };

  // A terminal payout never changes again, except that its sealed bank details may be sealed
  // afresh (here, and when the data key rotates): the details themselves stay the same.
  await sql`
    create or replace function payouts_terminal_guard() returns trigger language plpgsql as $$
    begin
      if old.status in ('completed', 'failed', 'rejected')
         and to_jsonb(new) - 'payment_details_sealed' - 'payment_details' is distinct from
             to_jsonb(old) - 'payment_details_sealed' - 'payment_details' then
        raise exception 'payout % is % and cannot change', old.id, old.status;
      end if;
      return new;
    end $$`.execute(db);

  await sql`alter table payouts add column payment_details_sealed bytea`.execute(db);
  for (;;) {
    const { rows } = await sql<{ id: string; details: string }>`
      select id, payment_details::text as details from payouts where payment_details_sealed is null order by id limit ${BATCH}`.execute(db);
    if (rows.length === 0) break;
    const s = need('existing payouts\' bank details');
    const sealed = rows.map((r) => s.seal('payout-details', r.id, r.details));
    await sql`update payouts p set payment_details_sealed = v.sealed
                from unnest(${rows.map((r) => r.id)}::uuid[], ${sealed}::bytea[]) as v(id, sealed)
               where p.id = v.id`.execute(db);
  }
  await sql`alter table payouts drop column payment_details`.execute(db);
  await sql`alter table payouts alter column payment_details_sealed set not null`.execute(db);

  await sql`alter table vouchers add column code_sealed bytea, add column code_digest bytea`.execute(db);
  for (;;) {
    const { rows } = await sql<{ payment_id: string; code: string }>`
      select payment_id, code from vouchers where code_sealed is null order by payment_id limit ${BATCH}`.execute(db);
    if (rows.length === 0) break;
    const s = need('existing voucher codes');
    await sql`update vouchers v set code_sealed = x.sealed, code_digest = x.digest
                from unnest(${rows.map((r) => r.payment_id)}::uuid[], ${rows.map((r) => s.seal('voucher-code', r.payment_id, r.code))}::bytea[],
                            ${rows.map((r) => s.digest('voucher-code', r.code))}::bytea[]) as x(payment_id, sealed, digest)
               where v.payment_id = x.payment_id`.execute(db);
  }
  await sql`alter table vouchers drop column code`.execute(db);
  await sql`alter table vouchers alter column code_sealed set not null, alter column code_digest set not null`.execute(db);
  await sql`alter table vouchers add constraint vouchers_code_digest_key unique (code_digest)`.execute(db);
}

export async function down(): Promise<void> {
  // Unsealing would write the plaintext back: restore from a backup taken before instead.
  throw new Error('2026-11-23T0102_sealed_data cannot be reverted');
}
