import { type Kysely, sql } from 'kysely';

/**
 * The dashboard's people, second round (CONTRACT §11): a forgotten password reset by e-mail, a
 * second factor (TOTP, RFC 6238) with recovery codes, an owner's demand that everyone have one,
 * and each person's language.
 *
 * - A reset's token is stored as a SHA-256 digest only, and only once the e-mail job has drawn it
 *   (the job's payload names the reset, never a token): no table holds a usable link.
 * - A TOTP secret is sealed with the data keys (domain/sealing.ts, purpose `totp-secret`), its
 *   last accepted time step kept so a code is never accepted twice. `confirmed_at` null: being
 *   set up, not yet asked at sign-in.
 * - Recovery codes are stored as digests, each used once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table password_resets (
      id uuid primary key,
      person_id uuid not null references merchant_people (id),
      token_hash bytea unique,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz
    )`.execute(db);
  await sql`create index password_resets_person on password_resets (person_id, created_at)`.execute(db);

  await sql`
    create table person_second_factors (
      person_id uuid primary key references merchant_people (id),
      secret_sealed bytea not null,
      created_at timestamptz not null default now(),
      confirmed_at timestamptz,
      last_step bigint
    )`.execute(db);

  await sql`
    create table person_recovery_codes (
      id bigint generated always as identity primary key,
      person_id uuid not null references merchant_people (id),
      code_hash bytea not null,
      used_at timestamptz,
      unique (person_id, code_hash)
    )`.execute(db);

  await sql`alter table merchants add column second_factor_required boolean not null default false`.execute(db);
  await sql`alter table merchant_people add column language text not null default 'en' check (language in ('en', 'af', 'zu'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table merchant_people drop column if exists language`.execute(db);
  await sql`alter table merchants drop column if exists second_factor_required`.execute(db);
  await sql`drop table if exists person_recovery_codes`.execute(db);
  await sql`drop table if exists person_second_factors`.execute(db);
  await sql`drop table if exists password_resets`.execute(db);
}
