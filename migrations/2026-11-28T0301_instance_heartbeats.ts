import { type Kysely, sql } from 'kysely';

/**
 * Which data keys the running processes hold (issue 31). `zarpay rotate-data-key` sealed every
 * value again under the first key of its own DATA_KEY, whether or not the running instances had
 * that key yet: skip the "roll it out first" step and every voucher read as null and every bank
 * account as unreadable until they did, and for good if the new key was not kept. Each service
 * and worker process now reports, every few seconds, the kids it can open; the rotation refuses
 * while a process that reported lately lacks the new one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table instance_heartbeats (
      instance_id uuid primary key,
      host text not null,
      pid integer not null,
      -- What the process runs: the service, zarpay worker, zarpay dispatcher…
      command text not null,
      -- The data keys it can open (never the keys), and the one it seals with.
      kids text[] not null,
      current_kid text not null,
      started_at timestamptz not null default now(),
      last_seen timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists instance_heartbeats`.execute(db);
}
