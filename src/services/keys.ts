import { createHmac, hash, timingSafeEqual } from 'node:crypto';
import { activeKeysIssuedBy, endKey, findKeyWithMerchant, insertKey, type KeyWithMerchant, keysOf, lockKey, revokeKeyById } from '../db/api-keys.ts';
import type { DbOrTx } from '../db/index.ts';
import { merchantExists } from '../db/merchants.ts';
import { authorize, lesserRole, roleCovers, roleOf } from '../domain/access.ts';
import { type Actor, covers, type KeyActor, type MerchantActor, oneMerchant, requireMerchant, requireOperator, scope } from '../domain/actor.ts';
import { type ApiKeyRecord, generateKey, hashSecret, issuerOf, type KeyIssuer, parseKey, secretMatches } from '../domain/api-key.ts';
import { AppError } from '../domain/errors.ts';
import { isUuid } from '../domain/ids.ts';
import type { ServiceDeps } from './deps.ts';
import { KeyCache } from './key-cache.ts';
import { KeyWatch, type WatchKey } from './key-watch.ts';
import type { Notifications } from './notifications.ts';

/** What authentication keeps of a key: its keyed hash, and the actor it stands for. */
interface KnownKey {
  secretHash: Buffer;
  /** SHA-256 of the secret once it has passed the keyed hash (see `secretOf`). */
  verified?: Buffer;
  /** Shared by every request with this key while it is cached: never changed. */
  actor: KeyActor;
}

function toKnownKey({ key, secretHash, merchant }: KeyWithMerchant): KnownKey {
  return { secretHash, actor: Object.freeze({ kind: 'merchant' as const, merchant: Object.freeze(merchant), key: Object.freeze(key) }) };
}

const unauthorized = () => new AppError('UNAUTHORIZED', 'missing or invalid API key');

/** The issuer of a key a merchant's caller issues: the person, or the calling key's own issuer. */
function issuerFor(actor: MerchantActor): KeyIssuer {
  return actor.person ? { by: 'person', personId: actor.person.personId, role: actor.person.role } : issuerOf(actor.key);
}

/** FORBIDDEN when `key` carries more than the caller: a developer does not replace or revoke an owner's key. */
function mayTouch(actor: MerchantActor, key: ApiKeyRecord): void {
  if (!roleCovers(roleOf(actor), key.role)) throw new AppError('FORBIDDEN', `this key carries the ${key.role} role, more than yours (${roleOf(actor)})`);
}

/** The issuer of a key issued in place of `key` by another caller: theirs, at the lesser of the two roles. */
function replacedBy(actor: MerchantActor, key: ApiKeyRecord): KeyIssuer {
  mayTouch(actor, key);
  const issuer = issuerFor(actor);
  return { ...issuer, role: lesserRole(issuer.role, key.role) };
}

/** Compared against when a key has no verified digest yet, so every refusal does the same work. */
const NO_DIGEST = Buffer.alloc(32);

/** Secret API keys (CONTRACT §3): issue, authenticate, regenerate, revoke, expire. */
export class KeyService {
  private readonly pepper: Buffer;
  private readonly cache: KeyCache<KnownKey>;
  private readonly watcher: KeyWatch;

  constructor(
    private readonly deps: ServiceDeps,
    notifications: Notifications,
  ) {
    // A key derived for this one purpose, so the stored hashes are useless without SERVICE_SECRET.
    this.pepper = createHmac('sha256', deps.config.serviceSecret).update('zarpay api-key pepper v1').digest();
    this.cache = new KeyCache(notifications);
    this.watcher = new KeyWatch(deps.db, notifications);
  }

  /**
   * Calls `onEnd` once, with the refusal the key now gets, when it stops working here or in any
   * other process: revoked, regenerated, expired (also when its `expires_at` passes). What a key
   * holds open (its event streams) ends with it.
   */
  watch: WatchKey = (key, onEnd) => this.watcher.watch(key, onEnd);

  async issueIn(db: DbOrTx, merchantId: string, issuer: KeyIssuer): Promise<{ apiKey: ApiKeyRecord; fullKey: string }> {
    const key = generateKey(this.deps.config.serviceEnv);
    const apiKey = await insertKey(db, { merchantId, kid: key.kid, env: key.env, secretHash: hashSecret(this.pepper, key.secret), checksum: key.checksum, issuer });
    return { apiKey, fullKey: key.fullKey };
  }

  /** One of the merchant's keys by kid; NOT_FOUND for another merchant's or an unknown one. */
  private async ownKey(merchantId: string, kid: string): Promise<ApiKeyRecord> {
    const found = (await keysOf(this.deps.db, [merchantId])).find((k) => k.kid === kid);
    if (!found) throw new AppError('NOT_FOUND', `no API key with kid ${kid}`);
    return found;
  }

  /**
   * The operator issues a merchant another key; a merchant issues itself one, from a session or
   * with a key. The new key carries its issuer and reaches no further than they may: a person's
   * key their role (and it goes when they do), a key's key the same issuer and role as the key.
   */
  async issue(actor: Actor, requested: string | null | undefined): Promise<{ apiKey: ApiKeyRecord; fullKey: string }> {
    if (actor.kind !== 'merchant') requireOperator(actor);
    authorize(actor, 'keys.manage');
    const merchantId = oneMerchant(actor, requested);
    if (!isUuid(merchantId)) throw new AppError('NOT_FOUND', 'merchant not found');
    if (!(await merchantExists(this.deps.db, merchantId))) throw new AppError('NOT_FOUND', 'merchant not found');
    const issuer: KeyIssuer = actor.kind === 'merchant' ? issuerFor(actor) : { by: 'operator', role: 'owner' };
    const issued = await this.issueIn(this.deps.db, merchantId, issuer);
    this.keyIssued(issued.apiKey.kid);
    return issued;
  }

  /**
   * After a new key's insert has committed: this process forgets at once whatever it remembers
   * of the kid (that it was unknown), before the response hands the key out. Other processes
   * hear of it from the insert trigger.
   */
  keyIssued(kid: string) {
    this.cache.keyCreated(kid);
  }

  /**
   * Resolves the `X-API-Key` header to the merchant actor it stands for. Anything malformed, unknown, of another
   * environment or with a wrong secret is 401; a revoked or expired key is 403 (spec
   * "Authentication"). The secret is compared in constant time against its keyed hash.
   *
   * Answered at once, without a promise, when the key cache knows the kid (nearly every request):
   * the same checks in the same order, only no turn of the event loop. Throws then; otherwise
   * the promise rejects.
   */
  authenticate(header: string | undefined): KeyActor | Promise<KeyActor> {
    if (!header) throw unauthorized();
    const parsed = parseKey(header);
    if (!parsed || parsed.env !== this.deps.config.serviceEnv) throw unauthorized();
    const known = this.cache.get(parsed.kid, async () => {
      const found = await findKeyWithMerchant(this.deps.db, parsed.kid);
      return found && { merchantId: found.merchant.id, value: toKnownKey(found) };
    });
    return known instanceof Promise ? known.then((k) => this.admit(k, parsed.secret)) : this.admit(known, parsed.secret);
  }

  /** The actor of a key whose record (or its absence) is known, if `secret` is the key's and it is in force. */
  private admit(known: KnownKey | undefined, secret: string): KeyActor {
    // secretOf runs first even for an unknown kid, so timing does not tell the two apart.
    if (!this.secretOf(known, secret) || !known) throw unauthorized();
    const { key } = known.actor;
    if (key.status === 'revoked') throw new AppError('FORBIDDEN', 'API key has been revoked');
    if (key.status === 'expired' || (key.expiresAt !== null && key.expiresAt <= new Date())) {
      throw new AppError('FORBIDDEN', 'API key has expired');
    }
    return known.actor;
  }

  /**
   * Whether `secret` is the key's. The keyed hash is checked the first time; a secret that
   * passed is remembered as its SHA-256 (not as itself), which later requests compare in
   * constant time at a third of the HMAC's cost. Every refusal does the same work (digest,
   * comparison, keyed hash), whether the kid is unknown, its key never verified or the secret
   * wrong, so timing does not tell them apart.
   */
  private secretOf(known: KnownKey | undefined, secret: string): boolean {
    const digest = hash('sha256', secret, 'buffer');
    if (timingSafeEqual(digest, known?.verified ?? NO_DIGEST) && known) return true;
    if (!secretMatches(this.pepper, secret, known?.secretHash ?? NO_DIGEST) || !known) return false;
    known.verified = digest;
    return true;
  }

  /**
   * Issues a new key and revokes the calling one in one transaction: the new key works at once
   * and the old one is refused (403) from the moment this commits.
   */
  async regenerate(actor: Actor, kid?: string | null): Promise<{ apiKey: ApiKeyRecord; fullKey: string }> {
    const merchant = requireMerchant(actor);
    authorize(merchant, 'keys.manage');
    // A key regenerates itself; a person in the dashboard names the key (one of the merchant's).
    const callingKeyId = kid != null ? (await this.ownKey(merchant.merchant.id, kid)).id : merchant.key?.id;
    if (!callingKeyId) throw new AppError('VALIDATION_FAILED', 'kid: required when signed in to the dashboard');
    const { issued, revokedKid } = await this.deps.db.transaction().execute(async (tx) => {
      const current = await lockKey(tx, callingKeyId);
      if (!current) throw unauthorized();
      if (current.status !== 'active') throw new AppError('FORBIDDEN', 'API key is no longer active');
      // A key in its own place keeps its issuer; one named by someone else becomes theirs, and
      // never reaches further than the key it replaces or than they do.
      const issuer = current.id === merchant.key?.id ? issuerOf(current) : replacedBy(merchant, current);
      const issued = await this.issueIn(tx, current.merchantId, issuer);
      await revokeKeyById(tx, callingKeyId);
      return { issued, revokedKid: current.kid };
    });
    this.cache.forgetKey(revokedKid);
    this.watcher.changed(revokedKid, { status: 'revoked', expiresAt: null });
    this.keyIssued(issued.apiKey.kid);
    return issued;
  }

  /**
   * After keys changed in a committed transaction of another use case (a person removed: their
   * keys revoked; their role lowered: their keys too): this process forgets them at once, and
   * what a revoked key holds open ends. Other processes hear of it from the update trigger.
   */
  keysChanged(records: readonly ApiKeyRecord[]) {
    for (const record of records) {
      this.cache.forgetKey(record.kid);
      this.watcher.changed(record.kid, record);
    }
  }

  /** The active keys each of these people issued, in the order of `personIds`; none outside the actor's scope (a DataLoader batch). */
  async issuedByMany(actor: Actor, personIds: readonly string[]): Promise<ApiKeyRecord[][]> {
    const s = scope(actor);
    const keys = (await activeKeysIssuedBy(this.deps.db, personIds.filter(isUuid))).filter((k) => covers(s, k.merchantId));
    return personIds.map((id) => keys.filter((k) => k.issuedByPersonId === id));
  }

  /** Stops watching keys (the service stops). */
  stop() {
    this.watcher.stop();
  }

  /** After a change to the merchant's row: what this process remembers of it goes at once. */
  forgetMerchant(merchantId: string) {
    this.cache.forgetMerchant(merchantId);
  }

  /** The operator revokes a key (a leaked one): refused with 403 at once, everywhere. */
  async revoke(actor: Actor, kid: string): Promise<ApiKeyRecord> {
    // A merchant revokes its own keys, up to its own role; the operator any.
    if (actor.kind === 'merchant') {
      authorize(actor, 'keys.manage');
      mayTouch(actor, await this.ownKey(actor.merchant.id, kid));
    } else requireOperator(actor);
    return this.setStatus(kid, 'revoked');
  }

  async expire(actor: Actor, kid: string): Promise<ApiKeyRecord> {
    requireOperator(actor);
    return this.setStatus(kid, 'expired');
  }

  /** Each merchant's key records, newest first, in the order of `merchantIds`; none outside the scope (a DataLoader batch). */
  async listMany(actor: Actor, merchantIds: readonly string[]): Promise<ApiKeyRecord[][]> {
    const s = scope(actor);
    const valid = merchantIds.filter(isUuid).filter((id) => covers(s, id));
    const keys = await keysOf(this.deps.db, valid);
    return merchantIds.map((id) => keys.filter((k) => k.merchantId === id));
  }

  private async setStatus(kid: string, status: 'revoked' | 'expired'): Promise<ApiKeyRecord> {
    const record = await endKey(this.deps.db, kid, status);
    this.cache.forgetKey(kid);
    if (!record) throw new AppError('NOT_FOUND', `no API key with kid ${kid}`);
    this.watcher.changed(kid, record);
    return record;
  }
}
