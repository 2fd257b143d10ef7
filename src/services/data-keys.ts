import { recordAudit } from '../db/audit.ts';
import { batchFiles as sealedFiles, payoutDetails as sealedDetails, voucherCodes as sealedCodes } from '../db/sealed-data.ts';
import { type Actor, actorLabel, requireOperator } from '../domain/actor.ts';
import { keyringOf, type ServiceDeps } from './deps.ts';

const BATCH = 500;

/** How many sealed values each key holds (by kid), per kind. */
export interface SealedInventory {
  currentKid: string;
  payoutDetails: Record<string, number>;
  voucherCodes: Record<string, number>;
  payoutBatchFiles: Record<string, number>;
}

/**
 * The data key's rotation (`zarpay rotate-data-key`): every bank account and voucher code sealed
 * under another key than the current one (the first of DATA_KEY) is opened and sealed again
 * under it, in batches, each batch one statement. Safe to run while the service runs, and to run
 * again: what is already under the current key is left alone.
 */
export class DataKeyService {
  constructor(private readonly deps: ServiceDeps) {}

  async inventory(actor: Actor): Promise<SealedInventory> {
    requireOperator(actor);
    return {
      currentKid: keyringOf(this.deps).currentKid,
      payoutDetails: await sealedDetails.countByKid(this.deps.db),
      voucherCodes: await sealedCodes.countByKid(this.deps.db),
      payoutBatchFiles: await sealedFiles.countByKid(this.deps.db),
    };
  }

  async rotate(actor: Actor): Promise<{ kid: string; payoutDetails: number; voucherCodes: number; payoutBatchFiles: number }> {
    requireOperator(actor);
    const { db } = this.deps;
    const keyring = keyringOf(this.deps);
    const kid = keyring.currentKid;
    let payoutDetails = 0;
    for (;;) {
      const rows = await sealedDetails.notUnder(db, kid, BATCH);
      if (rows.length === 0) break;
      const resealed = rows.map((r) => keyring.seal('payout-details', r.id, keyring.open('payout-details', r.id, r.sealed)));
      await sealedDetails.reseal(db, rows.map((r) => r.id), resealed);
      payoutDetails += rows.length;
    }
    let voucherCodes = 0;
    for (;;) {
      const rows = await sealedCodes.notUnder(db, kid, BATCH);
      if (rows.length === 0) break;
      const resealed = rows.map((r) => keyring.seal('voucher-code', r.id, keyring.open('voucher-code', r.id, r.sealed)));
      await sealedCodes.reseal(db, rows.map((r) => r.id), resealed);
      voucherCodes += rows.length;
    }
    let payoutBatchFiles = 0;
    for (;;) {
      // Files are large: a few at a time.
      const rows = await sealedFiles.notUnder(db, kid, 10);
      if (rows.length === 0) break;
      const resealed = rows.map((r) => keyring.seal('payout-batch-file', r.id, keyring.open('payout-batch-file', r.id, r.sealed)));
      await sealedFiles.reseal(db, rows.map((r) => r.id), resealed);
      payoutBatchFiles += rows.length;
    }
    await recordAudit(db, {
      actor: actorLabel(actor),
      action: 'data_key.rotate',
      detail: { kid, payout_details: payoutDetails, voucher_codes: voucherCodes, payout_batch_files: payoutBatchFiles },
    });
    return { kid, payoutDetails, voucherCodes, payoutBatchFiles };
  }
}
