import { type Kysely, sql } from 'kysely';

/**
 * Payment links (CONTRACT §11): a merchant takes money without writing code. A link is a page,
 * `/l/{link_id}`, whose form makes a payment of the link's merchant, for the link's amount or
 * the one the customer types; each payment made through it names it (`payments.payment_link_id`).
 * `seq` orders a merchant's links, newest first (REST pages and GraphQL cursors).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table payment_links (
      id uuid primary key,
      seq bigint generated always as identity,
      merchant_id uuid not null references merchants (id),
      description text not null check (char_length(description) between 1 and 200),
      amount_cents bigint check (amount_cents is null or amount_cents between 100 and 10000000),
      merchant_reference text check (merchant_reference is null or char_length(merchant_reference) between 1 and 64),
      single_use boolean not null default false,
      active boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index payment_links_seq on payment_links (seq)`.execute(db);
  await sql`create index payment_links_merchant_seq on payment_links (merchant_id, seq desc)`.execute(db);
  await sql`alter table payments add column payment_link_id uuid references payment_links (id)`.execute(db);
  // A link's counts (payments_count, captured_cents) and the single-use check read its payments.
  await sql`create index payments_payment_link on payments (payment_link_id, status) where payment_link_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists payments_payment_link`.execute(db);
  await sql`alter table payments drop column if exists payment_link_id`.execute(db);
  await sql`drop table if exists payment_links`.execute(db);
}
