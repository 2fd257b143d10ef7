import { type Kysely, sql } from 'kysely';

/**
 * The dashboard's People screen pages through a merchant's people (issue 33: `list-next` on every
 * list), oldest first: an index in that order, of the people not removed, so a page is an index
 * range and never a sort of the merchant's every person. (A merchant's refunds page newest first
 * over refunds_merchant_idx (merchant_id, seq), which is there already.)
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index merchant_people_listed_idx on merchant_people (merchant_id, created_at, id) where removed_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists merchant_people_listed_idx`.execute(db);
}
