import type { Person, Role } from '../domain/people.ts';
import type { DbOrTx, Tx } from './index.ts';
import { statement } from './statement.ts';

/** Every statement about the dashboard's people, their invites, sessions and wrong passwords. */

interface PersonRow {
  id: string;
  merchant_id: string;
  email: string;
  role: Role;
  active: boolean;
  created_at: Date;
}

const PERSON = `id, merchant_id, email, role, password_hash is not null as active, created_at`;

const toPerson = (r: PersonRow): Person => ({ id: r.id, merchantId: r.merchant_id, email: r.email, role: r.role, active: r.active, createdAt: r.created_at });

const insertPersonStatement = statement<{ id: string; merchantId: string; email: string; role: Role }, PersonRow>(
  'invite a person',
  `insert into merchant_people (id, merchant_id, email, role) values (:id::uuid, :merchantId::uuid, :email::text, :role::text)
   on conflict (merchant_id, email) where removed_at is null do nothing
   returning ${PERSON}`,
);

/** A new person; undefined when the merchant has invited this address already. */
export async function insertPerson(tx: Tx, p: { id: string; merchantId: string; email: string; role: Role }): Promise<Person | undefined> {
  const [row] = await insertPersonStatement.run(tx, p);
  return row && toPerson(row);
}

const pendingPersonStatement = statement<{ merchantId: string; email: string; role: Role }, PersonRow>(
  'a person invited again before accepting',
  `update merchant_people set role = :role::text
    where merchant_id = :merchantId::uuid and email = :email::text and removed_at is null and password_hash is null
   returning ${PERSON}`,
);

/**
 * The same merchant invites someone again before they accepted: the same person, with the new
 * role, and a new link. Undefined for a person who can sign in already: a new link would set
 * them a new password, and their role changes only by `setRole` (which reaches their keys).
 */
export async function reinvitePending(tx: Tx, p: { merchantId: string; email: string; role: Role }): Promise<Person | undefined> {
  const [row] = await pendingPersonStatement.run(tx, p);
  return row && toPerson(row);
}

const insertInviteStatement = statement<{ id: string; personId: string; tokenHash: Buffer; ttlMs: number }, { expires_at: Date }>(
  'create an invite',
  `insert into merchant_invites (id, person_id, token_hash, expires_at)
   values (:id::uuid, :personId::uuid, :tokenHash::bytea, now() + :ttlMs::bigint * interval '1 millisecond')
   returning expires_at`,
);

export async function insertInvite(tx: Tx, i: { id: string; personId: string; tokenHash: Buffer; ttlMs: number }): Promise<Date> {
  const [row] = await insertInviteStatement.run(tx, i);
  return row!.expires_at;
}

const useInviteStatement = statement<{ tokenHash: Buffer }, { person_id: string }>(
  'use an invite, once',
  `update merchant_invites i set used_at = now()
     from merchant_people p
    where i.token_hash = :tokenHash::bytea and i.used_at is null and i.expires_at > now()
      and p.id = i.person_id and p.removed_at is null
   returning i.person_id`,
);

/** Marks the invite used if it is valid (unused, unexpired, its person not removed); its person. */
export async function useInvite(tx: Tx, tokenHash: Buffer): Promise<string | undefined> {
  const [row] = await useInviteStatement.run(tx, { tokenHash });
  return row?.person_id;
}

const inviteValidStatement = statement<{ tokenHash: Buffer }, { email: string }>(
  'whether an invite may still be used',
  `select p.email from merchant_invites i join merchant_people p on p.id = i.person_id
    where i.token_hash = :tokenHash::bytea and i.used_at is null and i.expires_at > now() and p.removed_at is null`,
);

export async function inviteEmail(db: DbOrTx, tokenHash: Buffer): Promise<string | undefined> {
  const [row] = await inviteValidStatement.run(db, { tokenHash });
  return row?.email;
}

const inviteStateStatement = statement<
  { tokenHash: Buffer },
  { email: string; role: Role; merchant_name: string; expires_at: Date; used: boolean; expired: boolean; removed: boolean; active: boolean }
>(
  'what an invite link stands for, used or not',
  `select p.email, p.role, m.name as merchant_name, i.expires_at, i.used_at is not null as used, i.expires_at <= now() as expired,
          p.removed_at is not null as removed, p.password_hash is not null as active
     from merchant_invites i join merchant_people p on p.id = i.person_id join merchants m on m.id = p.merchant_id
    where i.token_hash = :tokenHash::bytea`,
);

/** An invite link's state, before anything is typed: who it is for, and whether it still works. */
export interface InviteState {
  state: 'valid' | 'used' | 'expired' | 'unknown';
  email?: string;
  role?: Role;
  merchantName?: string;
  expiresAt?: Date;
}

export async function inviteState(db: DbOrTx, tokenHash: Buffer): Promise<InviteState> {
  const [row] = await inviteStateStatement.run(db, { tokenHash });
  if (!row || row.removed) return { state: 'unknown' };
  if (row.used) return { state: 'used' };
  if (row.expired) return { state: 'expired' };
  return { state: 'valid', email: row.email, role: row.role, merchantName: row.merchant_name, expiresAt: row.expires_at };
}

const setPasswordStatement = statement<{ id: string; passwordHash: string }, { id: string }>(
  "set a person's password (unless their address signs in elsewhere already)",
  `update merchant_people p set password_hash = :passwordHash::text
    where p.id = :id::uuid and p.removed_at is null
      and not exists (select 1 from merchant_people o where o.email = p.email and o.id <> p.id and o.removed_at is null and o.password_hash is not null)
   returning p.id`,
);

/** Whether the password was set: not when another person with the same address can sign in already. */
export async function setPassword(tx: Tx, id: string, passwordHash: string): Promise<boolean> {
  return (await setPasswordStatement.run(tx, { id, passwordHash })).length > 0;
}

const activeElsewhereStatement = statement<{ merchantId: string; email: string }, { id: string }>(
  'whether an address signs in for another merchant',
  `select id from merchant_people where email = :email::text and merchant_id <> :merchantId::uuid and removed_at is null and password_hash is not null`,
);

export async function signsInElsewhere(db: DbOrTx, merchantId: string, email: string): Promise<boolean> {
  return (await activeElsewhereStatement.run(db, { merchantId, email })).length > 0;
}

const byEmailStatement = statement<{ email: string }, PersonRow & { password_hash: string | null }>(
  'a person by e-mail address, for sign-in',
  `select ${PERSON}, password_hash from merchant_people where email = :email::text and removed_at is null and password_hash is not null`,
);

export async function personForSignIn(db: DbOrTx, email: string): Promise<(Person & { passwordHash: string | null }) | undefined> {
  const [row] = await byEmailStatement.run(db, { email });
  return row && { ...toPerson(row), passwordHash: row.password_hash };
}

const peopleStatement = statement<{ merchantId: string; limit: number | null; offset: number }, PersonRow>(
  "a merchant's people",
  `select ${PERSON} from merchant_people where merchant_id = :merchantId::uuid and removed_at is null order by created_at, id
    limit :limit::int offset :offset::int`,
);

/** A merchant's people, oldest first: all of them, or a page (merchant_people_listed_idx). */
export async function peopleOf(db: DbOrTx, merchantId: string, page: { limit: number | null; offset: number } = { limit: null, offset: 0 }): Promise<Person[]> {
  return (await peopleStatement.run(db, { merchantId, ...page })).map(toPerson);
}

const removeStatement = statement<{ merchantId: string; id: string }, PersonRow>(
  'remove a person',
  `update merchant_people set removed_at = now() where id = :id::uuid and merchant_id = :merchantId::uuid and removed_at is null returning ${PERSON}`,
);

/** Removes one of the merchant's people; undefined when there is no such person (or another merchant's). */
export async function removePerson(tx: Tx, merchantId: string, id: string): Promise<Person | undefined> {
  const [row] = await removeStatement.run(tx, { merchantId, id });
  return row && toPerson(row);
}

const setRoleStatement = statement<{ merchantId: string; id: string; role: Role }, PersonRow>(
  "change a person's role",
  `update merchant_people set role = :role::text where id = :id::uuid and merchant_id = :merchantId::uuid and removed_at is null returning ${PERSON}`,
);

/** Changes one of the merchant's people's role; undefined when there is no such person (or another merchant's). */
export async function setRole(tx: Tx, merchantId: string, id: string, role: Role): Promise<Person | undefined> {
  const [row] = await setRoleStatement.run(tx, { merchantId, id, role });
  return row && toPerson(row);
}

const ownersStatement = statement<{ merchantId: string }, { owners: string }>(
  "how many owners a merchant has who can sign in",
  `select count(*)::text as owners from merchant_people where merchant_id = :merchantId::uuid and role = 'owner' and removed_at is null`,
);

export async function ownerCount(db: DbOrTx, merchantId: string): Promise<number> {
  const [row] = await ownersStatement.run(db, { merchantId });
  return Number(row!.owners);
}

// Sessions.

const insertSessionStatement = statement<{ id: string; personId: string; tokenHash: Buffer; maxMs: number }, { expires_at: Date }>(
  'start a session',
  `insert into merchant_sessions (id, person_id, token_hash, expires_at)
   values (:id::uuid, :personId::uuid, :tokenHash::bytea, now() + :maxMs::bigint * interval '1 millisecond')
   returning expires_at`,
);

export async function insertSession(db: DbOrTx, s: { id: string; personId: string; tokenHash: Buffer; maxMs: number }): Promise<Date> {
  const [row] = await insertSessionStatement.run(db, s);
  return row!.expires_at;
}

export interface LiveSession {
  sessionId: string;
  personId: string;
  merchantId: string;
  email: string;
  role: Role;
  expiresAt: Date;
}

const touchStatement = statement<
  { tokenHash: Buffer; idleMs: number },
  { id: string; person_id: string; merchant_id: string; email: string; role: Role; expires_at: Date }
>(
  'use a session: still valid, and seen now',
  `update merchant_sessions s set last_seen_at = now()
     from merchant_people p
    where s.token_hash = :tokenHash::bytea and s.revoked_at is null and s.expires_at > now()
      and s.last_seen_at > now() - :idleMs::bigint * interval '1 millisecond'
      and p.id = s.person_id and p.removed_at is null
   returning s.id, s.person_id, p.merchant_id, p.email, p.role, s.expires_at`,
);

/** The session of a cookie if it is still valid (not revoked, within 12 h and 30 idle minutes); its idle clock starts again. */
export async function touchSession(db: DbOrTx, tokenHash: Buffer, idleMs: number): Promise<LiveSession | undefined> {
  const [r] = await touchStatement.run(db, { tokenHash, idleMs });
  return r && { sessionId: r.id, personId: r.person_id, merchantId: r.merchant_id, email: r.email, role: r.role, expiresAt: r.expires_at };
}

const liveAmongStatement = statement<{ ids: string[]; idleMs: number }, { id: string; expires_at: Date }>(
  'which of these sessions are still valid',
  `select s.id, s.expires_at from merchant_sessions s join merchant_people p on p.id = s.person_id
    where s.id = any(:ids::uuid[]) and s.revoked_at is null and s.expires_at > now()
      and s.last_seen_at > now() - :idleMs::bigint * interval '1 millisecond' and p.removed_at is null`,
);

export async function liveSessions(db: DbOrTx, ids: readonly string[], idleMs: number): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  return new Set((await liveAmongStatement.run(db, { ids: [...ids], idleMs })).map((r) => r.id));
}

const revokeByTokenStatement = statement<{ tokenHash: Buffer }, { id: string }>(
  'end a session (sign-out)',
  `update merchant_sessions set revoked_at = now() where token_hash = :tokenHash::bytea and revoked_at is null returning id`,
);

export async function revokeSessionByToken(db: DbOrTx, tokenHash: Buffer): Promise<string | undefined> {
  const [row] = await revokeByTokenStatement.run(db, { tokenHash });
  return row?.id;
}

const revokeOfPersonStatement = statement<{ personId: string }, { id: string }>(
  "end every session of a person",
  `update merchant_sessions set revoked_at = now() where person_id = :personId::uuid and revoked_at is null returning id`,
);

export async function revokeSessionsOf(db: DbOrTx, personId: string): Promise<string[]> {
  return (await revokeOfPersonStatement.run(db, { personId })).map((r) => r.id);
}

// The sign-in throttle.

const failuresStatement = statement<
  { personId: string; address: string; windowMs: number },
  { from_address: string; oldest_from_address: Date | null; all_failures: string }
>(
  'recent wrong passwords of a person: from an address, and from all',
  `select count(*) filter (where address = :address::text)::text as from_address,
          min(at) filter (where address = :address::text) as oldest_from_address,
          count(*)::text as all_failures
     from sign_in_failures
    where person_id = :personId::uuid and at > now() - :windowMs::bigint * interval '1 millisecond'`,
);

/** A person's wrong passwords within the window: from this address (and the oldest of them), and from every address. */
export interface RecentFailures {
  fromAddress: number;
  oldestFromAddress: Date | null;
  all: number;
}

export async function recentFailures(db: DbOrTx, personId: string, address: string, windowMs: number): Promise<RecentFailures> {
  const [row] = await failuresStatement.run(db, { personId, address, windowMs });
  return { fromAddress: Number(row!.from_address), oldestFromAddress: row!.oldest_from_address, all: Number(row!.all_failures) };
}

// The count leaves out the row being inserted (one snapshot): hence the + 1.
const recordFailureStatement = statement<{ personId: string; address: string; windowMs: number }, { all_failures: string }>(
  'record a wrong password (and forget those past the window); how many the person now has',
  `with gone as (delete from sign_in_failures where at < now() - :windowMs::bigint * interval '1 millisecond'),
        added as (insert into sign_in_failures (person_id, address) values (:personId::uuid, :address::text))
   select (count(*) + 1)::text as all_failures from sign_in_failures
    where person_id = :personId::uuid and at > now() - :windowMs::bigint * interval '1 millisecond'`,
);

/** Records a wrong password; the person's wrong passwords within the window from every address, this one included. */
export async function recordFailure(tx: Tx, personId: string, address: string, windowMs: number): Promise<number> {
  const [row] = await recordFailureStatement.run(tx, { personId, address, windowMs });
  return Number(row!.all_failures);
}

const merchantOfStatement = statement<{ id: string }, { merchant_id: string }>(
  "a person's merchant",
  `select merchant_id from merchant_people where id = :id::uuid and removed_at is null`,
);

export async function merchantOfPerson(db: DbOrTx, id: string): Promise<string | undefined> {
  const [row] = await merchantOfStatement.run(db, { id });
  return row?.merchant_id;
}

const forNoticeStatement = statement<{ id: string }, { email: string; merchant_name: string }>(
  'a person to e-mail about their account, with their merchant\'s name',
  `select p.email, m.name as merchant_name from merchant_people p join merchants m on m.id = p.merchant_id
    where p.id = :id::uuid and p.removed_at is null`,
);

/** Where to e-mail a person about their own account; undefined once they are removed. */
export async function personForNotice(db: DbOrTx, id: string): Promise<{ email: string; merchantName: string } | undefined> {
  const [row] = await forNoticeStatement.run(db, { id });
  return row && { email: row.email, merchantName: row.merchant_name };
}
