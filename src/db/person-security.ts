import type { PersonLanguage } from '../domain/people.ts';
import type { DbOrTx, Tx } from './index.ts';
import { statement } from './statement.ts';

/**
 * A person's own security and preferences (CONTRACT §11): password reset links, the second factor
 * (a sealed TOTP secret and its last accepted step), recovery codes, a merchant's demand for a
 * second factor, and the person's language. Tokens and codes are stored only as digests.
 */

// Password resets.

const insertResetStatement = statement<{ id: string; personId: string; ttlMs: number; perWindow: number }, { id: string }>(
  'ask for a password reset (unless the person has had enough of them within the hour)',
  `insert into password_resets (id, person_id, expires_at)
   select :id::uuid, :personId::uuid, now() + :ttlMs::bigint * interval '1 millisecond'
    where (select count(*) from password_resets
            where person_id = :personId::uuid and created_at > now() - :ttlMs::bigint * interval '1 millisecond') < :perWindow::int
   returning id`,
);

/** A new reset of a person's password, its token still to be drawn; false when they had `perWindow` within the TTL already. */
export async function insertReset(tx: Tx, r: { id: string; personId: string; ttlMs: number; perWindow: number }): Promise<boolean> {
  return (await insertResetStatement.run(tx, r)).length > 0;
}

const mintResetStatement = statement<{ id: string; tokenHash: Buffer }, { email: string; merchant_name: string; expires_at: Date }>(
  "draw a reset's token (each try of its e-mail draws a new one)",
  `update password_resets r set token_hash = :tokenHash::bytea
     from merchant_people p join merchants m on m.id = p.merchant_id
    where r.id = :id::uuid and r.used_at is null and r.expires_at > now()
      and p.id = r.person_id and p.removed_at is null and p.password_hash is not null
   returning p.email, m.name as merchant_name, r.expires_at`,
);

/** Stores the digest of a reset's new token; where to send it, undefined when the reset is used, expired or its person gone. */
export async function mintResetToken(db: DbOrTx, id: string, tokenHash: Buffer): Promise<{ email: string; merchantName: string; expiresAt: Date } | undefined> {
  const [row] = await mintResetStatement.run(db, { id, tokenHash });
  return row && { email: row.email, merchantName: row.merchant_name, expiresAt: row.expires_at };
}

const useResetStatement = statement<{ tokenHash: Buffer }, { person_id: string; merchant_id: string }>(
  'use a reset link, once',
  `update password_resets r set used_at = now()
     from merchant_people p
    where r.token_hash = :tokenHash::bytea and r.used_at is null and r.expires_at > now()
      and p.id = r.person_id and p.removed_at is null and p.password_hash is not null
   returning r.person_id, p.merchant_id`,
);
const endResetsStatement = statement<{ personId: string }, never>(
  "end a person's other reset links",
  `update password_resets set used_at = now() where person_id = :personId::uuid and used_at is null`,
);

/** Uses a reset link if it is valid (unused, unexpired, its person still there); every other link of that person ends too. */
export async function useReset(tx: Tx, tokenHash: Buffer): Promise<{ personId: string; merchantId: string } | undefined> {
  const [row] = await useResetStatement.run(tx, { tokenHash });
  if (!row) return undefined;
  await endResetsStatement.run(tx, { personId: row.person_id });
  return { personId: row.person_id, merchantId: row.merchant_id };
}

const setPasswordHashStatement = statement<{ id: string; passwordHash: string }, { id: string }>(
  "replace a person's password",
  `update merchant_people set password_hash = :passwordHash::text where id = :id::uuid and removed_at is null and password_hash is not null returning id`,
);

export async function replacePassword(tx: Tx, id: string, passwordHash: string): Promise<boolean> {
  return (await setPasswordHashStatement.run(tx, { id, passwordHash })).length > 0;
}

// The second factor.

export interface SecondFactorRow {
  sealed: Buffer;
  confirmed: boolean;
  lastStep: number | null;
}

const factorStatement = statement<{ personId: string }, { secret_sealed: Buffer; confirmed: boolean; last_step: string | number | null }>(
  "a person's second factor",
  `select secret_sealed, confirmed_at is not null as confirmed, last_step from person_second_factors where person_id = :personId::uuid`,
);

export async function factorOf(db: DbOrTx, personId: string): Promise<SecondFactorRow | undefined> {
  const [row] = await factorStatement.run(db, { personId });
  return row && { sealed: row.secret_sealed, confirmed: row.confirmed, lastStep: row.last_step === null ? null : Number(row.last_step) };
}

const pendingStatement = statement<{ personId: string; sealed: Buffer }, { person_id: string }>(
  'start setting up a second factor (a new secret, unless one is confirmed)',
  `insert into person_second_factors (person_id, secret_sealed) values (:personId::uuid, :sealed::bytea)
   on conflict (person_id) do update set secret_sealed = excluded.secret_sealed, created_at = now(), last_step = null
    where person_second_factors.confirmed_at is null
   returning person_id`,
);

/** A new secret being set up; false when the person has a confirmed one (remove it first). */
export async function startFactor(db: DbOrTx, personId: string, sealed: Buffer): Promise<boolean> {
  return (await pendingStatement.run(db, { personId, sealed })).length > 0;
}

const acceptStepStatement = statement<{ personId: string; step: number; confirm: boolean }, { person_id: string }>(
  'accept a code of the second factor: its step later than the last (a code works once)',
  `update person_second_factors set last_step = :step::bigint, confirmed_at = case when :confirm::boolean then coalesce(confirmed_at, now()) else confirmed_at end
    where person_id = :personId::uuid and (last_step is null or last_step < :step::bigint)
      and (confirmed_at is not null) = not :confirm::boolean
   returning person_id`,
);

/**
 * Records an accepted step (and, with `confirm`, confirms a factor being set up); false when a
 * concurrent use took this step or a later one first, or the factor is not in the state asked.
 */
export async function acceptStep(db: DbOrTx, personId: string, step: number, confirm: boolean): Promise<boolean> {
  return (await acceptStepStatement.run(db, { personId, step, confirm })).length > 0;
}

const removeFactorStatement = statement<{ personId: string }, never>('remove a second factor', `delete from person_second_factors where person_id = :personId::uuid`);
const removeCodesStatement = statement<{ personId: string }, never>("remove a person's recovery codes", `delete from person_recovery_codes where person_id = :personId::uuid`);

export async function removeFactor(tx: Tx, personId: string): Promise<void> {
  await removeFactorStatement.run(tx, { personId });
  await removeCodesStatement.run(tx, { personId });
}

const insertCodesStatement = statement<{ personId: string; hashes: Buffer[] }, never>(
  'store recovery codes (digests)',
  `insert into person_recovery_codes (person_id, code_hash) select :personId::uuid, h from unnest(:hashes::bytea[]) as h`,
);

/** Replaces a person's recovery codes with these digests. */
export async function replaceRecoveryCodes(tx: Tx, personId: string, hashes: Buffer[]): Promise<void> {
  await removeCodesStatement.run(tx, { personId });
  await insertCodesStatement.run(tx, { personId, hashes });
}

const useCodeStatement = statement<{ personId: string; hash: Buffer }, { left: number }>(
  'use a recovery code, once',
  `with used as (update person_recovery_codes set used_at = now()
                  where person_id = :personId::uuid and code_hash = :hash::bytea and used_at is null returning id)
   select (select count(*) from person_recovery_codes where person_id = :personId::uuid and used_at is null)::int - 1 as left
    where exists (select 1 from used)`,
);

/** Uses a recovery code; how many are left, undefined when it is not one of theirs or was used. */
export async function useRecoveryCode(db: DbOrTx, personId: string, hash: Buffer): Promise<number | undefined> {
  const [row] = await useCodeStatement.run(db, { personId, hash });
  return row ? Number(row.left) : undefined;
}

const codesLeftStatement = statement<{ personId: string }, { left: number }>(
  "a person's unused recovery codes",
  `select count(*)::int as left from person_recovery_codes where person_id = :personId::uuid and used_at is null`,
);

export async function recoveryCodesLeft(db: DbOrTx, personId: string): Promise<number> {
  const [row] = await codesLeftStatement.run(db, { personId });
  return Number(row!.left);
}

// The merchant's demand.

const requiredStatement = statement<{ merchantId: string }, { required: boolean }>(
  'whether a merchant demands a second factor of its people',
  `select second_factor_required as required from merchants where id = :merchantId::uuid`,
);

export async function secondFactorRequired(db: DbOrTx, merchantId: string): Promise<boolean> {
  const [row] = await requiredStatement.run(db, { merchantId });
  return row?.required === true;
}

const setRequiredStatement = statement<{ merchantId: string; required: boolean }, never>(
  'demand (or stop demanding) a second factor',
  `update merchants set second_factor_required = :required::boolean where id = :merchantId::uuid`,
);

export async function setSecondFactorRequired(tx: Tx, merchantId: string, required: boolean): Promise<void> {
  await setRequiredStatement.run(tx, { merchantId, required });
}

const withoutFactorStatement = statement<{ merchantId: string }, { id: string }>(
  "the sessions of a merchant's people who have no second factor",
  `update merchant_sessions s set revoked_at = now()
     from merchant_people p
    where p.id = s.person_id and p.merchant_id = :merchantId::uuid and s.revoked_at is null
      and not exists (select 1 from person_second_factors f where f.person_id = p.id and f.confirmed_at is not null)
   returning s.id`,
);

/** Ends every session of the merchant's people without a confirmed second factor (they set one up at their next sign-in). */
export async function revokeSessionsWithoutFactor(tx: Tx, merchantId: string): Promise<string[]> {
  return (await withoutFactorStatement.run(tx, { merchantId })).map((r) => r.id);
}

// Language.

const languageStatement = statement<{ personId: string }, { language: PersonLanguage }>(
  "a person's language",
  `select language from merchant_people where id = :personId::uuid`,
);

export async function languageOf(db: DbOrTx, personId: string): Promise<PersonLanguage> {
  const [row] = await languageStatement.run(db, { personId });
  return row?.language ?? 'en';
}

const setLanguageStatement = statement<{ personId: string; language: PersonLanguage }, never>(
  "set a person's language",
  `update merchant_people set language = :language::text where id = :personId::uuid and removed_at is null`,
);

export async function setLanguage(db: DbOrTx, personId: string, language: PersonLanguage): Promise<void> {
  await setLanguageStatement.run(db, { personId, language });
}
