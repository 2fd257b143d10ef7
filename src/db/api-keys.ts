import { randomUUID } from 'node:crypto';
import { type ApiKeyRecord, type ApiKeyStatus, displayMask, type KeyIssuer } from '../domain/api-key.ts';
import type { Role } from '../domain/people.ts';
import type { Merchant } from '../domain/merchant.ts';
import type { DbOrTx, Tx } from './index.ts';
import { toMerchant } from './merchants.ts';
import { statement } from './statement.ts';
import type { ApiKeyRow, MerchantRow } from './types.ts';

/**
 * Every statement about secret API keys. A key's secret is never stored: only its keyed hash,
 * which the service computes and compares.
 */

/** The columns of a key record (never its hash). */
const COLUMNS = 'id, merchant_id, kid, env, type, status, checksum, created_at, revoked_at, expires_at, issued_by, issued_by_person_id, role';

type Row = Omit<ApiKeyRow, 'secret_hash'>;

/** A key as services hand it out; an active key past its `expires_at` reads as expired. */
export function toKeyRecord(row: Row, now = new Date()): ApiKeyRecord {
  const expired = row.status === 'expired' || (row.expires_at !== null && row.expires_at <= now);
  return {
    id: row.id,
    merchantId: row.merchant_id,
    kid: row.kid,
    env: row.env,
    type: row.type,
    status: row.status === 'active' && expired ? 'expired' : row.status,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    displayMask: displayMask(row.env, row.kid, row.checksum),
    issuedBy: row.issued_by,
    issuedByPersonId: row.issued_by_person_id,
    role: row.role,
  };
}

type AuthRow = MerchantRow & {
  key_id: string;
  kid: string;
  env: string;
  type: string;
  status: ApiKeyRow['status'];
  secret_hash: Buffer;
  checksum: string;
  key_created_at: Date;
  revoked_at: Date | null;
  expires_at: Date | null;
  issued_by: ApiKeyRow['issued_by'];
  issued_by_person_id: string | null;
  key_role: Role;
};

const keyWithMerchant = statement<{ kid: string }, AuthRow>(
  'an API key with its merchant',
  `select m.*, k.id as key_id, k.kid, k.env, k.type, k.status, k.secret_hash, k.checksum, k.created_at as key_created_at,
          k.revoked_at, k.expires_at, k.issued_by, k.issued_by_person_id, k.role as key_role
     from api_keys k join merchants m on m.id = k.merchant_id
    where k.kid = :kid::text`,
);

/** What authentication reads of a key: the key, its keyed hash and its merchant. */
export interface KeyWithMerchant {
  key: ApiKeyRecord;
  secretHash: Buffer;
  merchant: Merchant;
}

/** The key of `kid` with its merchant, in one statement (authentication's one read). */
export async function findKeyWithMerchant(db: DbOrTx, kid: string): Promise<KeyWithMerchant | undefined> {
  const [row] = await keyWithMerchant.run(db, { kid });
  if (!row) return undefined;
  const key = toKeyRecord({
    id: row.key_id,
    merchant_id: row.id,
    kid: row.kid,
    env: row.env,
    type: row.type,
    status: row.status,
    checksum: row.checksum,
    created_at: row.key_created_at,
    revoked_at: row.revoked_at,
    expires_at: row.expires_at,
    issued_by: row.issued_by,
    issued_by_person_id: row.issued_by_person_id,
    role: row.key_role,
  });
  return { key, secretHash: row.secret_hash, merchant: toMerchant(row) };
}

export interface NewApiKey {
  merchantId: string;
  kid: string;
  env: string;
  /** The secret's keyed hash (domain/api-key.ts `hashSecret`). */
  secretHash: Buffer;
  checksum: string;
  issuer: KeyIssuer;
}

const insertStatement = statement<
  Omit<NewApiKey, 'issuer'> & { id: string; issuedBy: string; issuedByPersonId: string | null; role: Role },
  Row
>(
  'issue an API key',
  `insert into api_keys (id, merchant_id, kid, env, status, secret_hash, checksum, issued_by, issued_by_person_id, role)
   values (:id::uuid, :merchantId::uuid, :kid::text, :env::text, 'active', :secretHash::bytea, :checksum::text,
           :issuedBy::text, :issuedByPersonId::uuid, :role::text)
   returning ${COLUMNS}`,
);

/** Writes a new active key. */
export async function insertKey(db: DbOrTx, { issuer, ...key }: NewApiKey): Promise<ApiKeyRecord> {
  const [row] = await insertStatement.run(db, {
    id: randomUUID(),
    ...key,
    issuedBy: issuer.by,
    issuedByPersonId: issuer.by === 'person' ? issuer.personId : null,
    role: issuer.role,
  });
  return toKeyRecord(row!);
}

const revokeIssuedByStatement = statement<{ personId: string }, Row>(
  'revoke the keys a person issued',
  `update api_keys set status = 'revoked', revoked_at = now()
    where issued_by_person_id = :personId::uuid and status = 'active' returning ${COLUMNS}`,
);

/** Revokes every active key `personId` issued (the person is removed); the keys revoked. */
export async function revokeKeysIssuedBy(tx: Tx, personId: string): Promise<ApiKeyRecord[]> {
  return (await revokeIssuedByStatement.run(tx, { personId })).map((r) => toKeyRecord(r));
}

// Ranks as src/domain/access.ts has them: a key is lowered to the person's new role, never raised.
const lowerIssuedByStatement = statement<{ personId: string; role: Role }, Row>(
  "lower the keys a person issued to the person's new role",
  `update api_keys set role = :role::text
    where issued_by_person_id = :personId::uuid and status = 'active'
      and array_position(array['viewer', 'developer', 'owner'], role) > array_position(array['viewer', 'developer', 'owner'], :role::text)
   returning ${COLUMNS}`,
);

/** Lowers every active key `personId` issued to `role` where it carries more; the keys changed. */
export async function lowerKeysIssuedBy(tx: Tx, personId: string, role: Role): Promise<ApiKeyRecord[]> {
  return (await lowerIssuedByStatement.run(tx, { personId, role })).map((r) => toKeyRecord(r));
}

const activeIssuedByStatement = statement<{ personIds: string[] }, Row>(
  'the active keys people issued',
  `select ${COLUMNS} from api_keys where issued_by_person_id = any(:personIds::uuid[]) and status = 'active' order by created_at desc`,
);

/** The active keys each of these people issued, newest first (a DataLoader batch). */
export async function activeKeysIssuedBy(db: DbOrTx, personIds: readonly string[]): Promise<ApiKeyRecord[]> {
  if (personIds.length === 0) return [];
  return (await activeIssuedByStatement.run(db, { personIds: [...personIds] })).map((r) => toKeyRecord(r));
}

const lockStatement = statement<{ id: string }, Row>('lock an API key', `select ${COLUMNS} from api_keys where id = :id::uuid for update`);

/** Locks a key for a change (inside the change's transaction); undefined when there is none. */
export async function lockKey(tx: Tx, id: string): Promise<ApiKeyRecord | undefined> {
  const [row] = await lockStatement.run(tx, { id });
  return row && toKeyRecord(row);
}

const revokeByIdStatement = statement<{ id: string }, never>(
  'revoke an API key by id',
  `update api_keys set status = 'revoked', revoked_at = now() where id = :id::uuid`,
);

/** Revokes the key `id` from now (a regenerated key, locked by the caller). */
export async function revokeKeyById(tx: Tx, id: string): Promise<void> {
  await revokeByIdStatement.run(tx, { id });
}

// A key keeps when it was first revoked, and an expiry already past.
const revokeStatement = statement<{ kid: string }, Row>(
  'revoke an API key',
  `update api_keys set status = 'revoked', revoked_at = coalesce(revoked_at, now()) where kid = :kid::text returning ${COLUMNS}`,
);
const expireStatement = statement<{ kid: string }, Row>(
  'expire an API key',
  `update api_keys set status = 'expired', expires_at = least(coalesce(expires_at, now()), now()) where kid = :kid::text returning ${COLUMNS}`,
);

/** Ends the key of `kid` (revoked or expired); undefined when there is none. */
export async function endKey(db: DbOrTx, kid: string, status: Extract<ApiKeyStatus, 'revoked' | 'expired'>): Promise<ApiKeyRecord | undefined> {
  const [row] = await (status === 'revoked' ? revokeStatement : expireStatement).run(db, { kid });
  return row && toKeyRecord(row);
}

const ofMerchantsStatement = statement<{ merchantIds: string[] }, Row>(
  "merchants' API keys",
  `select ${COLUMNS} from api_keys where merchant_id = any(:merchantIds::uuid[]) order by created_at desc`,
);

/** The keys of these merchants, newest first (one statement for any number of merchants). */
export async function keysOf(db: DbOrTx, merchantIds: readonly string[]): Promise<ApiKeyRecord[]> {
  if (merchantIds.length === 0) return [];
  return (await ofMerchantsStatement.run(db, { merchantIds: [...merchantIds] })).map((r) => toKeyRecord(r));
}

const statesStatement = statement<{ kids: string[] }, Pick<Row, 'kid' | 'status' | 'expires_at'>>(
  'the states of API keys',
  `select kid, status, expires_at from api_keys where kid = any(:kids::text[])`,
);

/** What decides whether each of these keys still works, by kid, for those that exist. */
export async function keyStates(db: DbOrTx, kids: readonly string[]): Promise<Map<string, Pick<ApiKeyRecord, 'status' | 'expiresAt'>>> {
  if (kids.length === 0) return new Map();
  const rows = await statesStatement.run(db, { kids: [...kids] });
  return new Map(rows.map((r) => [r.kid, { status: r.status, expiresAt: r.expires_at }]));
}
