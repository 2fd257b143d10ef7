import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { DbOrTx, Tx } from '../db/index.ts';
import { type Actor, covers, oneMerchant, requireMerchant, scope } from '../domain/actor.ts';
import { AppError } from '../domain/errors.ts';
import { generateWebhookSecret, newWebhookKid, webhookSecretKey } from '../domain/webhook-signature.ts';
import type { ServiceDeps } from './deps.ts';

export type WebhookSecretStatus = 'active' | 'rotating' | 'disabled';

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

// A rotating secret past its window reads as disabled: the state is computed from
// rotating_until at read and sign time, so no sweeper has to run for it to be correct.
const effectiveStatus = sql<WebhookSecretStatus>`case when status = 'rotating' and rotating_until <= now() then 'disabled' else status end`;

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
    return this.deps.db.transaction().execute(async (tx) => {
      await this.lockMerchant(tx, merchantId);
      const active = await tx.selectFrom('webhook_secrets').select('kid').where('merchant_id', '=', merchantId).where('status', '=', 'active').executeTakeFirst();
      if (active) throw new AppError('CONFLICT', `webhook secret ${active.kid} is already active; rotate it instead`);
      return this.insert(tx, merchantId);
    });
  }

  /**
   * A new active secret; the active one starts its rotation window, and one already rotating
   * is disabled, so that at most two secrets sign. With none active, it simply creates one.
   */
  async rotate(actor: Actor): Promise<RotatedWebhookSecret> {
    const merchantId = requireMerchant(actor).merchant.id;
    return this.deps.db.transaction().execute(async (tx) => {
      await this.lockMerchant(tx, merchantId);
      await tx
        .updateTable('webhook_secrets')
        .set({ status: 'disabled', disabled_at: sql`least(coalesce(rotating_until, now()), now())`, rotating_until: sql`least(coalesce(rotating_until, now()), now())` })
        .where('merchant_id', '=', merchantId)
        .where('status', '=', 'rotating')
        .execute();
      const window = this.deps.config.webhookSecretRotationWindowMs;
      const old = await tx
        .updateTable('webhook_secrets')
        .set({ status: 'rotating', rotating_until: sql`now() + ${window} * interval '1 millisecond'` })
        .where('merchant_id', '=', merchantId)
        .where('status', '=', 'active')
        .returning(['kid', 'rotating_until'])
        .executeTakeFirst();
      const created = await this.insert(tx, merchantId);
      return { ...created, secret: created.secret!, rotatingKid: old?.kid ?? null, rotatingUntil: old?.rotating_until ?? null };
    });
  }

  /** Every secret of a merchant (its own, or the one the operator names), newest first, with its state as of now; never the secret. */
  async list(actor: Actor, requested?: string | null): Promise<WebhookSecret[]> {
    const merchantId = oneMerchant(actor, requested);
    const rows = await this.deps.db
      .selectFrom('webhook_secrets')
      .select(['id', 'merchant_id', 'kid', 'created_at', 'rotating_until', 'disabled_at', effectiveStatus.as('status')])
      .where('merchant_id', '=', merchantId)
      .orderBy('created_at', 'desc')
      .execute();
    // A secret disabled by a second rotation stopped signing when it was disabled, before the
    // end of its window: it must not show a window still open.
    const until = (r: (typeof rows)[number]) =>
      r.status === 'disabled' && r.rotating_until && r.disabled_at && r.disabled_at < r.rotating_until ? r.disabled_at : r.rotating_until;
    return rows.map((r) => ({
      id: r.id,
      merchantId: r.merchant_id,
      kid: r.kid,
      status: r.status,
      createdAt: r.created_at,
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
    const rows = merchantIds.length
      ? await db
          .selectFrom('webhook_secrets')
          .select(['id', 'merchant_id', 'secret_enc', 'status'])
          .where('merchant_id', 'in', merchantIds)
          .where((eb) => eb.or([eb('status', '=', 'active'), eb.and([eb('status', '=', 'rotating'), eb('rotating_until', '>', sql<Date>`now()`)])]))
          .execute()
      : [];
    rows.sort((a, b) => (a.status === b.status ? 0 : a.status === 'active' ? -1 : 1));
    const keys = new Map<string, Buffer[] | Error>(merchantIds.map((id) => [id, []]));
    for (const r of rows) {
      const mine = keys.get(r.merchant_id);
      if (mine instanceof Error) continue;
      try {
        mine!.push(webhookSecretKey(this.decrypt(r.id, r.secret_enc)));
      } catch (e) {
        keys.set(r.merchant_id, e as Error);
      }
    }
    return keys;
  }

  private async insert(tx: Tx, merchantId: string): Promise<WebhookSecret> {
    const id = randomUUID();
    const secret = generateWebhookSecret();
    const row = await tx
      .insertInto('webhook_secrets')
      .values({ id, merchant_id: merchantId, kid: newWebhookKid(), status: 'active', secret_enc: this.encrypt(id, secret) })
      .returning(['kid', 'created_at'])
      .executeTakeFirstOrThrow();
    return { id, merchantId, kid: row.kid, status: 'active', createdAt: row.created_at, rotatingUntil: null, secret };
  }

  /** Serialises secret changes per merchant, so two concurrent rotations cannot leave three signing. */
  private async lockMerchant(tx: Tx, merchantId: string) {
    const m = await tx.selectFrom('merchants').select('id').where('id', '=', merchantId).forUpdate().executeTakeFirst();
    if (!m) throw new AppError('NOT_FOUND', 'merchant not found');
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
