import { type Kysely, sql } from 'kysely';

/**
 * Bank report import as a job (issue 34): the operator's import stores the report and a
 * `payout.bank_report` job applies it in bounded steps.
 *
 * - `content_sealed`: the report's bytes (UTF-8 XML), sealed like the batch files (a report names
 *   accounts and people), kept while it is being applied and cleared once it is applied in full.
 *   Null for reports imported before this migration, all applied inside the operator's request.
 * - `message`: the message and version its namespace names (`camt.054.001.02`), checked against
 *   its published schema before it was stored. Null for earlier reports.
 * - `next_position`: how far the job has come: every entry before it is applied and recorded in
 *   bank_report_entries, written in the transaction of the step that applied them, so a job run
 *   again after a crash starts there.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table bank_reports add column content_sealed bytea, add column message text, add column next_position integer not null default 0`.execute(db);
  // Reports applied before: their every entry was applied in the request.
  await sql`update bank_reports set next_position = entry_count where finished_at is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table bank_reports drop column next_position, drop column message, drop column content_sealed`.execute(db);
}
