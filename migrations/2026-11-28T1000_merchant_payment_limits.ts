import { type Kysely, sql } from 'kysely';

/**
 * A merchant's own payment limits (CONTRACT §11, "Payment limits per merchant"): the range of
 * amounts it takes, in cents. Every merchant starts with the specification's R55 to R3000; the
 * account manager sets another within the platform's bounds, 100 to 10000000 cents.
 *
 * A payment's amount was held to the specification's range by the table; it is now held to its
 * merchant's range where it is written, and to the platform's bounds by the table.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table merchants
      add column payment_min_cents bigint not null default 5500,
      add column payment_max_cents bigint not null default 300000,
      add constraint merchants_payment_limits check (
        payment_min_cents between 100 and 10000000 and payment_max_cents between 100 and 10000000 and payment_min_cents <= payment_max_cents
      )`.execute(db);
  await sql`alter table payments drop constraint payments_amount_cents_check`.execute(db);
  await sql`alter table payments add constraint payments_amount_cents_check check (amount_cents between 100 and 10000000)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table payments drop constraint if exists payments_amount_cents_check`.execute(db);
  await sql`alter table payments add constraint payments_amount_cents_check check (amount_cents between 5500 and 300000) not valid`.execute(db);
  await sql`alter table merchants drop constraint if exists merchants_payment_limits, drop column if exists payment_max_cents, drop column if exists payment_min_cents`.execute(db);
}
