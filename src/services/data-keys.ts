import { timingSafeEqual } from 'node:crypto';
import { recordAudit } from '../db/audit.ts';
import type { DbOrTx } from '../db/index.ts';
import {
  batchFiles as sealedFiles,
  dataKeyChecks,
  forgetUnreadable,
  notedPurpose,
  noteUnreadable,
  payeeDetails as sealedPayees,
  payoutDetails as sealedDetails,
  recordDataKeyChecks,
  type SealedPurpose,
  totpSecrets as sealedTotp,
  bankReports as sealedReports,
  voucherCodes as sealedCodes,
} from '../db/sealed-data.ts';
import { forgetStaleInstances, liveInstances, type ReportedInstance } from '../db/instance-heartbeats.ts';
import { ConfigError } from '../config.ts';
import { type Actor, actorLabel, requireOperator } from '../domain/actor.ts';
import { AppError } from '../domain/errors.ts';
import { type Keyring, kidOrUnknown, openOrNull } from '../domain/sealing.ts';
import { keyringOf, type ServiceDeps } from './deps.ts';
import { HEARTBEAT_STALE_MS } from './instance-heartbeat.ts';

const BATCH = 500;
/** Bank files are large: a few at a time. */
const FILE_BATCH = 10;

/**
 * Every kind of sealed value the rotation walks, in the order it walks them, with how many it
 * opens per statement. A new sealed column is one line here (and its `sealedIn` in db/sealed-data.ts).
 */
const KINDS = {
  payoutDetails: { values: sealedDetails, batch: BATCH },
  voucherCodes: { values: sealedCodes, batch: BATCH },
  payoutBatchFiles: { values: sealedFiles, batch: FILE_BATCH },
  payeeDetails: { values: sealedPayees, batch: BATCH },
  totpSecrets: { values: sealedTotp, batch: BATCH },
  bankReports: { values: sealedReports, batch: FILE_BATCH },
} as const;

/** A kind of sealed value (camelCase here; the CLI and the audit log print it in snake_case). */
export type SealedKind = keyof typeof KINDS;
export const SEALED_KINDS = Object.keys(KINDS) as SealedKind[];
/** One `T` per kind of sealed value. */
export type PerKind<T> = Record<SealedKind, T>;

const perKind = <T>(of: (kind: SealedKind) => T): PerKind<T> => Object.fromEntries(SEALED_KINDS.map((k) => [k, of(k)])) as PerKind<T>;
/** `payoutDetails` → `payout_details`. */
export const snakeKind = (kind: SealedKind): string => kind.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** How many sealed values each key holds (by kid), per kind. */
export type SealedInventory = { currentKid: string } & PerKind<Record<string, number>>;

/**
 * Per kind: the ids of the values that will not open under any key of the ring. Only payouts'
 * details and vouchers' codes are also noted for stats and /metrics; the others are reported here.
 */
export type UnreadableValues = PerKind<string[]>;

/** What a walk over every sealed value found: how many the rotation would seal again, and what will not open. */
export interface SealedScan {
  currentKid: string;
  toReseal: PerKind<number>;
  unreadable: UnreadableValues;
}

/** A running process (its heartbeat is recent) and whether it can open what the rotation would seal. */
export interface RunningInstance extends ReportedInstance {
  holdsCurrentKid: boolean;
}

/** What the rotation did: per kind, how many it sealed again. */
export type Rotation = {
  kid: string;
  /** The running processes the rotation checked (none on the embedded database). */
  instances: RunningInstance[];
  /** Run with `force` while some of them lacked the key. */
  forced: boolean;
  /** Skipped: values that will not open (left as they are, and noted). */
  unreadable: UnreadableValues;
} & PerKind<number>;

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
 * The data key's rotation (`zarpay rotate-data-key`): every sealed value (KINDS: bank details,
 * voucher codes, payout batch files, saved payees, TOTP secrets, bank reports being applied) sealed under another key than the current one (the first of DATA_KEY) is opened and sealed again
 * under it, in batches, each batch one statement. Safe to run while the service runs, and to run
 * again: what is already under the current key is left alone. A value that will not open under
 * any key of the ring is skipped, noted and reported; the rest is done.
 */
export class DataKeyService {
  constructor(private readonly deps: ServiceDeps) {}

  async inventory(actor: Actor): Promise<SealedInventory> {
    requireOperator(actor);
    const counts: Partial<PerKind<Record<string, number>>> = {};
    for (const kind of SEALED_KINDS) counts[kind] = await KINDS[kind].values.countByKid(this.deps.db);
    return { currentKid: keyringOf(this.deps).currentKid, ...(counts as PerKind<Record<string, number>>) };
  }

  /** The rotation's dry run: opens every value, seals nothing; what will not open is noted. */
  async scan(actor: Actor): Promise<SealedScan> {
    requireOperator(actor);
    const walked = await this.walkAll(false);
    return { currentKid: keyringOf(this.deps).currentKid, toReseal: perKind((k) => walked[k].resealed), unreadable: perKind((k) => walked[k].unreadable) };
  }

  /**
   * The processes running on this database (a heartbeat within HEARTBEAT_STALE_MS; older rows
   * are deleted first) and whether each holds the current kid. On the embedded database there
   * are none to ask about: the caller holds DATA_DIR's lock, so no other process has it open, and
   * a row left there is a dead process's.
   */
  async instances(actor: Actor): Promise<RunningInstance[]> {
    requireOperator(actor);
    if (!this.deps.config.databaseUrl) return [];
    const kid = keyringOf(this.deps).currentKid;
    await forgetStaleInstances(this.deps.db, HEARTBEAT_STALE_MS);
    return (await liveInstances(this.deps.db, HEARTBEAT_STALE_MS)).map((i) => ({ ...i, holdsCurrentKid: i.kids.includes(kid) }));
  }

  /**
   * Seals everything again under the current key, unless a running process lacks that key: it
   * could then open none of what is sealed again (vouchers null, bank details unreadable), and
   * if the new key were then lost, nobody could. `force` goes ahead anyway (processes known to be
   * gone, whose heartbeat has not gone stale yet).
   */
  async rotate(actor: Actor, { force = false }: { force?: boolean } = {}): Promise<Rotation> {
    requireOperator(actor);
    const kid = keyringOf(this.deps).currentKid;
    const instances = await this.instances(actor);
    const lacking = instances.filter((i) => !i.holdsCurrentKid);
    if (lacking.length > 0 && !force) throw keyNotRolledOut(kid, lacking);
    const walked = await this.walkAll(true);
    const resealed = perKind((k) => walked[k].resealed);
    const unreadable = perKind((k) => walked[k].unreadable);
    const skipped = SEALED_KINDS.reduce((n, k) => n + unreadable[k].length, 0);
    const snake = <T>(per: PerKind<T>) => Object.fromEntries(SEALED_KINDS.map((k) => [snakeKind(k), per[k]]));
    await recordAudit(this.deps.db, {
      actor: actorLabel(actor),
      action: 'data_key.rotate',
      detail: {
        kid,
        ...snake(resealed),
        ...(lacking.length > 0 && { forced_past: lacking.map((i) => ({ instance_id: i.id, host: i.host, pid: i.pid, command: i.command, kids: i.kids })) }),
        ...(skipped > 0 && { unreadable: snake(perKind((k) => unreadable[k].length)) }),
      },
    });
    return { kid, instances, forced: lacking.length > 0, ...resealed, unreadable };
  }

  /** Every kind, one after the other. */
  private async walkAll(reseal: boolean): Promise<PerKind<{ resealed: number; unreadable: string[] }>> {
    const walked: Partial<PerKind<{ resealed: number; unreadable: string[] }>> = {};
    for (const kind of SEALED_KINDS) walked[kind] = await this.walk(KINDS[kind].values, reseal, KINDS[kind].batch);
    return walked as PerKind<{ resealed: number; unreadable: string[] }>;
  }

  /**
   * Every value of one kind, in id order, a batch at a time: each is opened (bank details and
   * voucher codes that will not open are noted, those that do are forgotten as unreadable; the
   * other kinds are only reported), and with `reseal` what is under another key
   * is sealed again under the current one. Walking by id, a value that will not open is passed
   * over rather than met again on every round.
   */
  private async walk(kind: (typeof KINDS)[SealedKind]['values'], reseal: boolean, batch: number): Promise<{ resealed: number; unreadable: string[] }> {
    const { db } = this.deps;
    const keyring = keyringOf(this.deps);
    const unreadable: string[] = [];
    let resealed = 0;
    let after: string | null = null;
    for (;;) {
      const rows = await kind.page(db, after, batch);
      if (rows.length === 0) break;
      after = rows.at(-1)!.id;
      const fresh: { id: string; sealed: Buffer }[] = [];
      const opened: string[] = [];
      const failed: { id: string; kid: string }[] = [];
      for (const row of rows) {
        const plaintext = openOrNull(keyring, kind.purpose, row.id, row.sealed);
        if (plaintext === null) {
          failed.push({ id: row.id, kid: kidOrUnknown(keyring, row.sealed) });
          continue;
        }
        opened.push(row.id);
        if (keyring.kidOf(row.sealed) !== keyring.currentKid) fresh.push({ id: row.id, sealed: keyring.seal(kind.purpose, row.id, plaintext) });
      }
      unreadable.push(...failed.map((f) => f.id));
      const purpose = kind.purpose;
      if (notedPurpose(purpose)) {
        await noteUnreadable(db, failed.map((f): { purpose: SealedPurpose; id: string; kid: string } => ({ purpose, ...f })));
        await forgetUnreadable(db, purpose, opened);
      }
      resealed += fresh.length;
      if (reseal && fresh.length > 0) await kind.reseal(db, fresh.map((r) => r.id), fresh.map((r) => r.sealed));
    }
    return { resealed, unreadable };
  }
}

/** The rotation's refusal: which running processes lack the key, and what to do. */
function keyNotRolledOut(kid: string, lacking: RunningInstance[]): AppError {
  const named = lacking
    .map((i) => `${i.command} ${i.id} (pid ${i.pid} on ${i.host}, seen ${Math.round(i.secondsSinceSeen)} s ago, holds ${i.kids.join(', ')})`)
    .join('; ');
  return new AppError(
    'CONFLICT',
    `DATA_KEY: ${lacking.length} running instance(s) do not hold the new key ${kid}, and could not open what would be sealed under it: ${named}. ` +
      `Roll the new DATA_KEY out to every instance first (${kid} first, the old key kept after it), then run this again; ` +
      `an instance that no longer runs is forgotten ${HEARTBEAT_STALE_MS / 1000} s after its last heartbeat (--force goes ahead before that)`,
  );
}
