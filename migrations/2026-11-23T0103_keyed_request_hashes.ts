import { type Kysely, sql } from 'kysely';

/**
 * The hashes that recognise a request again (`payouts.request_hash`, `payments.params_hash`,
 * `idempotency_keys.request_hash`) were plain SHA-256 of the canonical request, which covers a
 * payout's bank details and a customer's e-mail and phone: with the other fields known, a dump
 * let anyone test guesses of an account number against it. They become keyed: the stored value
 * is the service's keyed digest (HMAC) of the old hash, so a request made before this migration
 * still replays exactly as it did.
 *
 * The key is the service's and is not in the database, so the migration runner passes the digest
 * (src/db/migrate.ts), as for the sealed bank details.
 */
interface Digester {
  digest(purpose: 'request', plaintext: string): Buffer;
}

const BATCH = 1000;

const COLUMNS = [
  { table: 'payouts', key: 'id', column: 'request_hash' },
  { table: 'payments', key: 'id', column: 'params_hash' },
  { table: 'idempotency_keys', key: 'ctid', column: 'request_hash' },
] as const;

export async function up(db: Kysely<any>, sealer?: Digester): Promise<void> {
  // Terminal payouts and payments never change, but for this: their hash is rewritten, the same
  // request under a keyed name. The guards are off only inside this migration's transaction.
  await sql`alter table payouts disable trigger payouts_terminal_guard`.execute(db);
  await sql`alter table payments disable trigger payments_terminal_guard`.execute(db);
  for (const { table, column } of COLUMNS) {
    // Marks the rows already keyed, so a migration interrupted half-way resumes where it stopped.
    await sql`alter table ${sql.table(table)} add column ${sql.ref(`${column}_keyed`)} boolean not null default false`.execute(db);
  }
  for (const { table, key, column } of COLUMNS) {
    for (;;) {
      const { rows } = await sql<{ k: string; hash: string }>`
        select ${sql.ref(key)}::text as k, ${sql.ref(column)} as hash from ${sql.table(table)}
         where not ${sql.ref(`${column}_keyed`)} limit ${BATCH}`.execute(db);
      if (rows.length === 0) break;
      if (!sealer) throw new Error(`existing ${table}.${column} values must be keyed with the service's key: run the migration through the service (npm start) or zarpay migrate`);
      const keyed = rows.map((r) => sealer.digest('request', r.hash).toString('hex'));
      const keyType = key === 'ctid' ? sql`tid` : sql`uuid`;
      await sql`update ${sql.table(table)} t set ${sql.ref(column)} = v.keyed, ${sql.ref(`${column}_keyed`)} = true
                  from unnest(${rows.map((r) => r.k)}::${keyType}[], ${keyed}::text[]) as v(k, keyed)
                 where t.${sql.ref(key)} = v.k`.execute(db);
    }
  }
  for (const { table, column } of COLUMNS) {
    await sql`alter table ${sql.table(table)} drop column ${sql.ref(`${column}_keyed`)}`.execute(db);
  }
  await sql`alter table payouts enable trigger payouts_terminal_guard`.execute(db);
  await sql`alter table payments enable trigger payments_terminal_guard`.execute(db);
}

export async function down(): Promise<void> {
  // A keyed hash cannot be turned back into the plain one; requests made before the migration
  // replay through the keyed value in any case.
  throw new Error('2026-11-23T0103_keyed_request_hashes cannot be undone');
}
