import { type Kysely, sql } from 'kysely';

/**
 * The merchant dashboard's people (CONTRACT §10): each belongs to one merchant with a role, is
 * invited by a one-time link, signs in with an e-mail address and a password (stored only as a
 * memory-hard hash), and holds server-side sessions that can be revoked. Tokens (invite links,
 * session cookies) are stored only as SHA-256 digests: a database dump opens no session.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table merchant_people (
      id uuid primary key,
      merchant_id uuid not null references merchants (id),
      email text not null check (length(email) between 3 and 254 and email = lower(email)),
      role text not null check (role in ('owner', 'developer', 'viewer')),
      password_hash text,
      created_at timestamptz not null default now(),
      removed_at timestamptz
    )`.execute(db);
  // One person per address among those who can sign in (sign-in asks for the address alone);
  // an invite not yet accepted is one per merchant and address.
  await sql`create unique index merchant_people_email on merchant_people (email) where removed_at is null and password_hash is not null`.execute(db);
  await sql`create unique index merchant_people_invited on merchant_people (merchant_id, email) where removed_at is null`.execute(db);

  await sql`
    create table merchant_invites (
      id uuid primary key,
      person_id uuid not null references merchant_people (id),
      token_hash bytea not null unique,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz
    )`.execute(db);

  await sql`
    create table merchant_sessions (
      id uuid primary key,
      person_id uuid not null references merchant_people (id),
      token_hash bytea not null unique,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      expires_at timestamptz not null,
      revoked_at timestamptz
    )`.execute(db);
  await sql`create index merchant_sessions_person on merchant_sessions (person_id) where revoked_at is null`.execute(db);

  // A session ended anywhere (sign-out, the person removed, by any process or by hand) is heard
  // at once by every process, whose open event streams of it then end (services/people.ts).
  await sql`
    create function zarpay_session_ended() returns trigger language plpgsql as $$
    begin
      perform pg_notify('zarpay_cache', 'session:' || new.id::text);
      return null;
    end $$`.execute(db);
  await sql`create trigger merchant_sessions_ended after update of revoked_at on merchant_sessions
    for each row when (old.revoked_at is null and new.revoked_at is not null) execute function zarpay_session_ended()`.execute(db);

  // Wrong passwords, by person and address, for the sign-in throttle (5 in 15 minutes).
  await sql`
    create table sign_in_failures (
      id bigint generated always as identity primary key,
      person_id uuid not null references merchant_people (id),
      address text not null,
      at timestamptz not null default now()
    )`.execute(db);
  await sql`create index sign_in_failures_person on sign_in_failures (person_id, address, at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists sign_in_failures`.execute(db);
  await sql`drop trigger if exists merchant_sessions_ended on merchant_sessions`.execute(db);
  await sql`drop function if exists zarpay_session_ended`.execute(db);
  await sql`drop table if exists merchant_sessions`.execute(db);
  await sql`drop table if exists merchant_invites`.execute(db);
  await sql`drop table if exists merchant_people`.execute(db);
}
