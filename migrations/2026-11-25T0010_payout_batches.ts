import { type Kysely, sql } from 'kysely';

/**
 * Payout rails (issue 25): approved payouts leave as one ISO 20022 `pain.001` file, and the
 * bank's `camt.054`/`camt.053` reports complete or fail them.
 *
 * - `payouts.bank`: the bank the payout's branch code belongs to (domain/za-banks.ts), recorded at
 *   creation beside the merchant's free-text bank name (which stays sealed with the account).
 *   Null for payouts created before this migration.
 * - `payout_batches`: one exported file: its message id, the SHA-256 of its bytes, how many
 *   payouts and how much, and the file itself, sealed (it carries full account numbers).
 * - `payout_batch_items`: which payout is in which batch. The payout is the primary key, so the
 *   database itself refuses a payout in two batches.
 * - `bank_reports` / `bank_report_entries`: each imported report by the SHA-256 of its bytes, and
 *   what became of each of its entries. An entry's row is written in the transaction that moves
 *   its payout, so an import cut short (kill -9) resumes where it stopped and a second import of
 *   the same file changes nothing.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table payouts add column bank text`.execute(db);
  await sql`
    create table payout_batches (
      id uuid primary key,
      seq bigint generated always as identity unique,
      message_id text not null unique,
      file_sha256 text not null unique,
      file_sealed bytea not null,
      payout_count integer not null check (payout_count > 0),
      total_cents bigint not null check (total_cents > 0),
      created_by text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table payout_batch_items (
      payout_id uuid primary key references payouts (id),
      batch_id uuid not null references payout_batches (id),
      position integer not null,
      unique (batch_id, position)
    )`.execute(db);
  await sql`
    create table bank_reports (
      id uuid primary key,
      seq bigint generated always as identity unique,
      file_sha256 text not null unique,
      kind text not null check (kind in ('camt.054', 'camt.053')),
      message_id text not null,
      entry_count integer not null,
      imported_by text not null,
      started_at timestamptz not null default now(),
      finished_at timestamptz
    )`.execute(db);
  await sql`
    create table bank_report_entries (
      report_id uuid not null references bank_reports (id),
      position integer not null,
      payout_id uuid references payouts (id),
      outcome text not null check (outcome in ('completed', 'failed', 'unchanged', 'unmatched')),
      reference text,
      amount_cents bigint,
      currency text,
      detail text,
      recorded_at timestamptz not null default now(),
      primary key (report_id, position)
    )`.execute(db);
  await sql`create index bank_report_entries_payout_idx on bank_report_entries (payout_id) where payout_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table bank_report_entries`.execute(db);
  await sql`drop table bank_reports`.execute(db);
  await sql`drop table payout_batch_items`.execute(db);
  await sql`drop table payout_batches`.execute(db);
  await sql`alter table payouts drop column bank`.execute(db);
}
