import { type Kysely, sql } from 'kysely';

/**
 * Saved payees (issue 33): bank accounts a merchant's owner has added once, after re-entering
 * their password, and pays by id from then on. The account details are sealed like a payout's
 * (`details_sealed`, purpose `payee-details`, associated data `payee-details:<payee id>`); the
 * bank the branch code belongs to is kept beside them in the clear, as on a payout. A keyed
 * digest of branch code and account number keeps one live payee per account and merchant.
 * A removed payee keeps its row (`removed_at`) so the payouts that named it still do.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table payees (
      id uuid primary key,
      merchant_id uuid not null references merchants (id),
      name text not null,
      bank text not null,
      details_sealed bytea not null,
      account_digest bytea not null,
      created_by_person_id uuid references merchant_people (id),
      created_at timestamptz not null default now(),
      removed_at timestamptz
    )`.execute(db);
  await sql`create unique index payees_one_per_account on payees (merchant_id, account_digest) where removed_at is null`.execute(db);
  await sql`create index payees_by_merchant on payees (merchant_id, created_at) where removed_at is null`.execute(db);
  await sql`alter table payouts add column payee_id uuid references payees (id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table payouts drop column if exists payee_id`.execute(db);
  await sql`drop table if exists payees`.execute(db);
}
