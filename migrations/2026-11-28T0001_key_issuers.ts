import { type Kysely, sql } from 'kysely';

/**
 * A key records who issued it, and reaches no further than they may (CONTRACT §11, "People are
 * the owner's"): `issued_by` is `merchant` (the merchant's first credentials), `operator` (the
 * account manager, `zarpay key issue`) or `person` (one of the merchant's people, named by
 * `issued_by_person_id`); `role` is the most the key may do, the issuer's role when it was
 * issued, lowered when that person's role is, and the key revoked when they are removed.
 *
 * Keys issued before this change are taken as the merchant's own, with every right a key had
 * then: nothing recorded who issued them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table api_keys
      add column issued_by text not null default 'merchant' check (issued_by in ('merchant', 'operator', 'person')),
      add column issued_by_person_id uuid references merchant_people (id),
      add column role text not null default 'owner' check (role in ('owner', 'developer', 'viewer')),
      add constraint api_keys_issuer_named check ((issued_by = 'person') = (issued_by_person_id is not null))`.execute(db);
  // Removing a person, or changing their role, reaches the keys they issued.
  await sql`create index api_keys_issued_by_person on api_keys (issued_by_person_id) where issued_by_person_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists api_keys_issued_by_person`.execute(db);
  await sql`alter table api_keys drop constraint if exists api_keys_issuer_named, drop column if exists role, drop column if exists issued_by_person_id, drop column if exists issued_by`.execute(db);
}
