import { timingSafeEqual } from 'node:crypto';
import { recordAudit } from '../db/audit.ts';
import type { DbOrTx } from '../db/index.ts';
import {
  dataKeyChecks,
  forgetUnreadable,
  noteUnreadable,
  payoutDetails as sealedDetails,
  recordDataKeyChecks,
  type SealedPurpose,
  voucherCodes as sealedCodes,
} from '../db/sealed-data.ts';
import { ConfigError } from '../config.ts';
import { type Actor, actorLabel, requireOperator } from '../domain/actor.ts';
import { type Keyring, kidOrUnknown, openOrNull } from '../domain/sealing.ts';
import { keyringOf, type ServiceDeps } from './deps.ts';

const BATCH = 500;

/** How many sealed values each key holds (by kid), per kind. */
export interface SealedInventory {
  currentKid: string;
  payoutDetails: Record<string, number>;
  voucherCodes: Record<string, number>;
}

/** Per kind: the ids of the values that will not open under any key of the ring. */
export interface UnreadableValues {
  payoutDetails: string[];
  voucherCodes: string[];
}

/** What a walk over every sealed value found: how many the rotation would seal again, and what will not open. */
export interface SealedScan {
  currentKid: string;
  toReseal: { payoutDetails: number; voucherCodes: number };
  unreadable: UnreadableValues;
}

export interface Rotation {
  kid: string;
  payoutDetails: number;
  voucherCodes: number;
  /** Skipped: values that will not open (left as they are, and noted). */
  unreadable: UnreadableValues;
}

/**
 * Start-up's proof that the data keys are the keys that sealed this database's data: each kid's
 * check value is compared with the one stored the first time that kid was used, and the ones not
 * yet stored are stored. Other material under a known kid (a copy-paste slip in a rollout) would
 * seal data no other instance can open: the process refuses to start, naming the kid. A refused
 * start records nothing.
 */
export async function proveDataKeys(db: DbOrTx, keyring: Pick<Keyring, 'checks'>): Promise<void> {
  const checks = keyring.checks();
  const known = await dataKeyChecks(db);
  const differing = checks.filter((c) => {
    const stored = known.get(c.kid);
    return stored !== undefined && !(stored.length === c.check.length && timingSafeEqual(stored, c.check));
  });
  if (differing.length > 0) {
    const kids = differing.map((c) => c.kid).join(', ');
    throw new ConfigError(
      `DATA_KEY: the key under kid ${kids} is not the one that sealed this database's data under that kid (its check value differs): ` +
        'copy the key exactly from the other instances, or give new key material a new kid',
    );
  }
  await recordDataKeyChecks(db, checks.filter((c) => !known.has(c.kid)));
  // Two instances starting at once with different material for a new kid: the second to write loses, and sees it.
  const stored = await dataKeyChecks(db);
  const lost = checks.filter((c) => !stored.get(c.kid)?.equals(c.check));
  if (lost.length > 0) throw new ConfigError(`DATA_KEY: another instance recorded other key material under kid ${lost.map((c) => c.kid).join(', ')} just now`);
}

/**
 * The data key's rotation (`zarpay rotate-data-key`): every bank account and voucher code sealed
 * under another key than the current one (the first of DATA_KEY) is opened and sealed again
 * under it, in batches, each batch one statement. Safe to run while the service runs, and to run
 * again: what is already under the current key is left alone. A value that will not open under
 * any key of the ring is skipped, noted and reported; the rest is done.
 */
export class DataKeyService {
  constructor(private readonly deps: ServiceDeps) {}

  async inventory(actor: Actor): Promise<SealedInventory> {
    requireOperator(actor);
    return {
      currentKid: keyringOf(this.deps).currentKid,
      payoutDetails: await sealedDetails.countByKid(this.deps.db),
      voucherCodes: await sealedCodes.countByKid(this.deps.db),
    };
  }

  /** The rotation's dry run: opens every value, seals nothing; what will not open is noted. */
  async scan(actor: Actor): Promise<SealedScan> {
    requireOperator(actor);
    const [details, codes] = [await this.walk(sealedDetails, false), await this.walk(sealedCodes, false)];
    return {
      currentKid: keyringOf(this.deps).currentKid,
      toReseal: { payoutDetails: details.resealed, voucherCodes: codes.resealed },
      unreadable: { payoutDetails: details.unreadable, voucherCodes: codes.unreadable },
    };
  }

  async rotate(actor: Actor): Promise<Rotation> {
    requireOperator(actor);
    const kid = keyringOf(this.deps).currentKid;
    const [details, codes] = [await this.walk(sealedDetails, true), await this.walk(sealedCodes, true)];
    const unreadable = { payoutDetails: details.unreadable, voucherCodes: codes.unreadable };
    await recordAudit(this.deps.db, {
      actor: actorLabel(actor),
      action: 'data_key.rotate',
      detail: {
        kid,
        payout_details: details.resealed,
        voucher_codes: codes.resealed,
        ...((details.unreadable.length > 0 || codes.unreadable.length > 0) && { unreadable: { payout_details: details.unreadable.length, voucher_codes: codes.unreadable.length } }),
      },
    });
    return { kid, payoutDetails: details.resealed, voucherCodes: codes.resealed, unreadable };
  }

  /**
   * Every value of one kind, in id order, a batch at a time: each is opened (what will not open
   * is noted, what does is forgotten as unreadable), and with `reseal` what is under another key
   * is sealed again under the current one. Walking by id, a value that will not open is passed
   * over rather than met again on every round.
   */
  private async walk(kind: typeof sealedDetails, reseal: boolean): Promise<{ resealed: number; unreadable: string[] }> {
    const { db } = this.deps;
    const keyring = keyringOf(this.deps);
    const unreadable: string[] = [];
    let resealed = 0;
    let after: string | null = null;
    for (;;) {
      const rows = await kind.page(db, after, BATCH);
      if (rows.length === 0) break;
      after = rows.at(-1)!.id;
      const fresh: { id: string; sealed: Buffer }[] = [];
      const opened: string[] = [];
      const failed: { purpose: SealedPurpose; id: string; kid: string }[] = [];
      for (const row of rows) {
        const plaintext = openOrNull(keyring, kind.purpose, row.id, row.sealed);
        if (plaintext === null) {
          failed.push({ purpose: kind.purpose, id: row.id, kid: kidOrUnknown(keyring, row.sealed) });
          continue;
        }
        opened.push(row.id);
        if (keyring.kidOf(row.sealed) !== keyring.currentKid) fresh.push({ id: row.id, sealed: keyring.seal(kind.purpose, row.id, plaintext) });
      }
      unreadable.push(...failed.map((f) => f.id));
      await noteUnreadable(db, failed);
      await forgetUnreadable(db, kind.purpose, opened);
      resealed += fresh.length;
      if (reseal && fresh.length > 0) await kind.reseal(db, fresh.map((r) => r.id), fresh.map((r) => r.sealed));
    }
    return { resealed, unreadable };
  }
}
