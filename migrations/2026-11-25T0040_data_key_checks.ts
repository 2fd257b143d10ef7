import { type Kysely, sql } from 'kysely';

/**
 * Data keys that prove themselves (issue 26). A `DATA_KEY` entry is a kid and 32 bytes; nothing
 * stopped a second instance from starting with the same kid and other bytes (a copy-paste slip in
 * a rollout) and sealing bank details no other instance could open. Now each kid's check value
 * (an HMAC of a fixed text under the key, never the key) is stored the first time the kid is used,
 * and an instance whose key does not give the stored value refuses to start.
 *
 * Values that will not open (sealed by such a slip before this, or damaged) are noted where they
 * are found (a payout's view, the rotation), so that an operator sees how many there are
 * (`zarpay stats`, /metrics) instead of a failing list.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table data_key_checks (
      kid text primary key,
      check_value bytea not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table unreadable_sealed_values (
      -- What the value is (domain/sealing.ts SealPurpose) and whose: a payout's or a voucher's id.
      purpose text not null check (purpose in ('payout-details', 'voucher-code')),
      id uuid not null,
      -- The kid the value names: the key it needs.
      kid text not null,
      noticed_at timestamptz not null default now(),
      primary key (purpose, id)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists unreadable_sealed_values`.execute(db);
  await sql`drop table if exists data_key_checks`.execute(db);
}
