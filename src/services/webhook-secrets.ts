import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import type { DbOrTx, Tx } from '../db/index.ts';
import { lockMerchant } from '../db/merchants.ts';
import {
  activeSecretKid,
  disableRotating,
  insertSecret,
  listSecrets,
  signingSecrets,
  type StoredSecretStatus,
  startRotation,
} from '../db/webhook-secrets.ts';
import { authorize } from '../domain/access.ts';
import { type Actor, covers, oneMerchant, requireMerchant, scope } from '../domain/actor.ts';
import { AppError } from '../domain/errors.ts';
import { generateWebhookSecret, newWebhookKid, webhookSecretKey } from '../domain/webhook-signature.ts';
import type { ServiceDeps } from './deps.ts';

export type WebhookSecretStatus = StoredSecretStatus;

/** A webhook secret's metadata; `secret` is present only in the answer that created it. */
export interface WebhookSecret {
  id: string;
  merchantId: string;
  kid: string;
  status: WebhookSecretStatus;
  createdAt: Date;
  rotatingUntil: Date | null;
  secret?: string;
}

export interface RotatedWebhookSecret extends WebhookSecret {
  secret: string;
  rotatingKid: string | null;
  rotatingUntil: Date | null;
}

/**
 * Webhook signing secrets (spec "Webhook secret states", CONTRACT §6). Secrets are stored
 * encrypted with AES-256-GCM under a key derived from SERVICE_SECRET, returned only once, and
 * never logged.
 */
export class WebhookSecretService {
  private readonly key: Buffer;

  constructor(private readonly deps: ServiceDeps) {
    this.key = Buffer.from(hkdfSync('sha256', deps.config.serviceSecret, 'zarpay', 'webhook-secrets v1', 32));
  }

  /** A merchant's first active secret; CONFLICT when one is already active (rotate instead). */
  async create(actor: Actor): Promise<WebhookSecret> {
    const merchantId = requireMerchant(actor).merchant.id;
    authorize(actor, 'webhooks.manage');
    return this.deps.db.transaction().execute(async (tx) => {
      await this.serialise(tx, merchantId);
      const active = await activeSecretKid(tx, merchantId);
      if (active) throw new AppError('CONFLICT', `webhook secret ${active} is already active; rotate it instead`);
      return this.insert(tx, merchantId);
    });
  }

  /**
   * A new active secret; the active one starts its rotation window, and one already rotating
   * is disabled, so that at most two secrets sign. With none active, it simply creates one.
   */
  async rotate(actor: Actor): Promise<RotatedWebhookSecret> {
    const merchantId = requireMerchant(actor).merchant.id;
    authorize(actor, 'webhooks.manage');
    return this.deps.db.transaction().execute(async (tx) => {
      await this.serialise(tx, merchantId);
      await disableRotating(tx, merchantId);
      const old = await startRotation(tx, merchantId, this.deps.config.webhookSecretRotationWindowMs);
      const created = await this.insert(tx, merchantId);
      return { ...created, secret: created.secret!, rotatingKid: old?.kid ?? null, rotatingUntil: old?.rotatingUntil ?? null };
    });
  }

  /** Every secret of a merchant (its own, or the one the operator names), newest first, with its state as of now; never the secret. */
  async list(actor: Actor, requested?: string | null): Promise<WebhookSecret[]> {
    const merchantId = oneMerchant(actor, requested);
    const rows = await listSecrets(this.deps.db, merchantId);
    // A secret disabled by a second rotation stopped signing when it was disabled, before the
    // end of its window: it must not show a window still open.
    const until = (r: (typeof rows)[number]) =>
      r.status === 'disabled' && r.rotatingUntil && r.disabledAt && r.disabledAt < r.rotatingUntil ? r.disabledAt : r.rotatingUntil;
    return rows.map((r) => ({
      id: r.id,
      merchantId: r.merchantId,
      kid: r.kid,
      status: r.status,
      createdAt: r.createdAt,
      rotatingUntil: until(r),
    }));
  }

  /**
   * The HMAC keys that sign a delivery now, for several merchants in one read (a dispatcher's
   * batch): for each, the active secret first, then the rotating one, or the error that kept
   * them from being read. Only zarpay's own delivery work (a `system` actor) signs for any merchant.
   */
  async signingKeys(actor: Actor, merchantIds: readonly string[], db: DbOrTx = this.deps.db): Promise<Map<string, Buffer[] | Error>> {
    const s = scope(actor);
    merchantIds = merchantIds.filter((id) => covers(s, id));
    const rows = await signingSecrets(db, merchantIds);
    rows.sort((a, b) => (a.status === b.status ? 0 : a.status === 'active' ? -1 : 1));
    const keys = new Map<string, Buffer[] | Error>(merchantIds.map((id) => [id, []]));
    for (const r of rows) {
      const mine = keys.get(r.merchantId);
      if (mine instanceof Error) continue;
      try {
        mine!.push(webhookSecretKey(this.decrypt(r.id, r.secretEnc)));
      } catch (e) {
        keys.set(r.merchantId, e as Error);
      }
    }
    return keys;
  }

  private async insert(tx: Tx, merchantId: string): Promise<WebhookSecret> {
    const id = randomUUID();
    const secret = generateWebhookSecret();
    const row = await insertSecret(tx, { id, merchantId, kid: newWebhookKid(), secretEnc: this.encrypt(id, secret) });
    return { id, merchantId, kid: row.kid, status: 'active', createdAt: row.createdAt, rotatingUntil: null, secret };
  }

  /** Serialises secret changes per merchant, so two concurrent rotations cannot leave three signing. */
  private async serialise(tx: Tx, merchantId: string) {
    if (!(await lockMerchant(tx, merchantId))) throw new AppError('NOT_FOUND', 'merchant not found');
  }

  private encrypt(id: string, secret: string): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    // The row id as associated data: a ciphertext copied onto another row does not decrypt.
    cipher.setAAD(Buffer.from(id));
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  private decrypt(id: string, blob: Buffer): string {
    const decipher = createDecipheriv('aes-256-gcm', this.key, blob.subarray(0, 12));
    decipher.setAAD(Buffer.from(id));
    decipher.setAuthTag(blob.subarray(12, 28));
    return Buffer.concat([decipher.update(blob.subarray(28)), decipher.final()]).toString('utf8');
  }
}
