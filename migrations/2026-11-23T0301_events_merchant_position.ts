import { type Kysely, sql } from 'kysely';

/**
 * A merchant's stream resumes by reading its events after a position (CONTRACT §9): this index
 * finds them in log order without walking every merchant's events since that position.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index events_merchant_position_idx on events (merchant_id, xact_id, seq)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists events_merchant_position_idx`.execute(db);
}
