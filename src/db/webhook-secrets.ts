import type { DbOrTx, Tx } from './index.ts';
import { statement } from './statement.ts';

/**
 * Every statement about webhook signing secrets. A secret is stored only encrypted (`secret_enc`,
 * sealed and opened by the service); a merchant's changes to them are serialised by locking its
 * merchant row first (merchants.ts `lockMerchant`).
 */

export type StoredSecretStatus = 'active' | 'rotating' | 'disabled';

// A rotating secret past its window reads as disabled: the state is computed from
// rotating_until at read and sign time, so no sweeper has to run for it to be correct.
const EFFECTIVE_STATUS = `case when status = 'rotating' and rotating_until <= now() then 'disabled' else status end`;

const activeStatement = statement<{ merchantId: string }, { kid: string }>(
  "a merchant's active webhook secret",
  `select kid from webhook_secrets where merchant_id = :merchantId::uuid and status = 'active'`,
);

/** The kid of the merchant's active secret, if it has one. */
export async function activeSecretKid(db: DbOrTx, merchantId: string): Promise<string | undefined> {
  const [row] = await activeStatement.run(db, { merchantId });
  return row?.kid;
}

const disableRotatingStatement = statement<{ merchantId: string }, never>(
  "disable a merchant's rotating webhook secret",
  `update webhook_secrets
      set status = 'disabled',
          disabled_at = least(coalesce(rotating_until, now()), now()),
          rotating_until = least(coalesce(rotating_until, now()), now())
    where merchant_id = :merchantId::uuid and status = 'rotating'`,
);

/** Disables the merchant's rotating secret, if any: it stops signing now, or when its window ended. */
export async function disableRotating(tx: Tx, merchantId: string): Promise<void> {
  await disableRotatingStatement.run(tx, { merchantId });
}

const startRotationStatement = statement<{ merchantId: string; windowMs: number }, { kid: string; rotating_until: Date }>(
  "start the rotation of a merchant's active webhook secret",
  `update webhook_secrets
      set status = 'rotating', rotating_until = now() + :windowMs::bigint * interval '1 millisecond'
    where merchant_id = :merchantId::uuid and status = 'active'
   returning kid, rotating_until`,
);

/** The merchant's active secret goes on signing for `windowMs` as a rotating one; what it was, if any. */
export async function startRotation(tx: Tx, merchantId: string, windowMs: number): Promise<{ kid: string; rotatingUntil: Date } | undefined> {
  const [row] = await startRotationStatement.run(tx, { merchantId, windowMs });
  return row && { kid: row.kid, rotatingUntil: row.rotating_until };
}

export interface NewWebhookSecret {
  id: string;
  merchantId: string;
  kid: string;
  /** The secret, encrypted by the service with the row id as associated data. */
  secretEnc: Buffer;
}

const insertStatement = statement<NewWebhookSecret, { kid: string; created_at: Date }>(
  'create an active webhook secret',
  `insert into webhook_secrets (id, merchant_id, kid, status, secret_enc)
   values (:id::uuid, :merchantId::uuid, :kid::text, 'active', :secretEnc::bytea)
   returning kid, created_at`,
);

/** Writes a new active secret; when it was created. */
export async function insertSecret(tx: Tx, secret: NewWebhookSecret): Promise<{ kid: string; createdAt: Date }> {
  const [row] = await insertStatement.run(tx, secret);
  return { kid: row!.kid, createdAt: row!.created_at };
}

/** A secret's metadata as stored, with its state as of now. */
export interface StoredWebhookSecret {
  id: string;
  merchantId: string;
  kid: string;
  status: StoredSecretStatus;
  createdAt: Date;
  rotatingUntil: Date | null;
  disabledAt: Date | null;
}

const listStatement = statement<
  { merchantId: string },
  { id: string; merchant_id: string; kid: string; created_at: Date; rotating_until: Date | null; disabled_at: Date | null; status: StoredSecretStatus }
>(
  "a merchant's webhook secrets",
  `select id, merchant_id, kid, created_at, rotating_until, disabled_at, ${EFFECTIVE_STATUS} as status
     from webhook_secrets where merchant_id = :merchantId::uuid order by created_at desc`,
);

/** Every secret of the merchant, newest first; never the secret itself. */
export async function listSecrets(db: DbOrTx, merchantId: string): Promise<StoredWebhookSecret[]> {
  const rows = await listStatement.run(db, { merchantId });
  return rows.map((r) => ({
    id: r.id,
    merchantId: r.merchant_id,
    kid: r.kid,
    status: r.status,
    createdAt: r.created_at,
    rotatingUntil: r.rotating_until,
    disabledAt: r.disabled_at,
  }));
}

const signingStatement = statement<{ merchantIds: string[] }, { id: string; merchant_id: string; secret_enc: Buffer; status: 'active' | 'rotating' }>(
  "merchants' signing webhook secrets",
  `select id, merchant_id, secret_enc, status from webhook_secrets
    where merchant_id = any(:merchantIds::uuid[])
      and (status = 'active' or (status = 'rotating' and rotating_until > now()))`,
);

/** The encrypted secrets that sign now (active, or rotating within their window) of these merchants, in no particular order. */
export async function signingSecrets(
  db: DbOrTx,
  merchantIds: readonly string[],
): Promise<{ id: string; merchantId: string; secretEnc: Buffer; status: 'active' | 'rotating' }[]> {
  if (merchantIds.length === 0) return [];
  const rows = await signingStatement.run(db, { merchantIds: [...merchantIds] });
  return rows.map((r) => ({ id: r.id, merchantId: r.merchant_id, secretEnc: r.secret_enc, status: r.status }));
}
