import { createHash, randomUUID } from 'node:crypto';
import type { Config } from '../config.ts';
import { recordAudit } from '../db/audit.ts';
import type { Tx } from '../db/index.ts';
import * as batches from '../db/payout-batches.ts';
import type { PayoutBatch } from '../domain/payout-batch.ts';
import * as payouts from '../db/payouts.ts';
import { type Actor, actorLabel, type MerchantScope, requireOperator, scope } from '../domain/actor.ts';
import { AppError } from '../domain/errors.ts';
import { isUuid } from '../domain/ids.ts';
import { buildPain001, type CreditTransfer } from '../domain/iso20022/pain001.ts';
import type { EftDetails } from '../domain/payout-input.ts';
import { kidOrUnknown, openOrNull } from '../domain/sealing.ts';
import { noteUnreadable } from '../db/sealed-data.ts';
import { bankById, bankForBranchCode } from '../domain/za-banks.ts';
import { executionDate } from '../domain/za-business-days.ts';
import { keyringOf, type ServiceDeps, withEvents } from './deps.ts';
import { movePayoutIn } from './payout-moves.ts';

export type { PayoutBatch };

/** A payout whose bank details will not open under this service's data keys. */
type Unreadable = { purpose: 'payout-details'; id: string; kid: string };

export interface BatchWithPayouts extends PayoutBatch {
  payoutIds: string[];
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const johannesburgDay = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Johannesburg' }).format(at);

/**
 * Bank files for payouts (issue 25): every approved payout leaves in one ISO 20022 `pain.001`
 * file; the bank's `camt.054`/`camt.053` reports complete or fail them (services/bank-reports.ts). Every move is the
 * operator's move of services/payouts.ts (`movePayoutIn`): the same state machine, ledger
 * posting, event, webhook and audit entry as `zarpay payout process|complete|fail`.
 */
export class PayoutBatchService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * Writes every approved payout into one file and moves each to `processing`, in one
   * transaction with the batch's record: the file exists exactly when its payouts are processing.
   */
  async export(actor: Actor): Promise<{ batch: BatchWithPayouts; file: string }> {
    requireOperator(actor);
    const debtor = this.debtor();
    const exported = await withEvents(this.deps, async (tx) => {
      const all = scope(actor);
      const ids = await batches.lockApprovedPayouts(tx, all);
      if (ids.length === 0) throw new AppError('NOT_FOUND', 'there are no approved payouts to export');
      const read = await this.transfersOf(tx, all, ids);
      if ('unreadable' in read) return read;
      return this.writeBatch(tx, actor, debtor, ids, read.transfers);
    });
    if ('unreadable' in exported) {
      await noteUnreadable(this.deps.db, exported.unreadable);
      throw new AppError(
        'CONFLICT',
        `the bank details of approved payout(s) ${exported.unreadable.map((u) => `${u.id} (key ${u.kid})`).join(', ')} will not open under the data keys of this service: ` +
          'nothing was exported; reject them (zarpay payout reject ID --reason …) and ask the merchant for the details again, then export',
      );
    }
    return exported;
  }

  /** The account payouts are paid from; bank files cannot be written without it. */
  private debtor(): NonNullable<Config['payoutDebtor']> {
    const debtor = this.deps.config.payoutDebtor;
    if (debtor) return debtor;
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'bank files need the account payouts are paid from: set PAYOUT_DEBTOR_NAME, PAYOUT_DEBTOR_ACCOUNT and PAYOUT_DEBTOR_BRANCH_CODE (docs/production.md)',
    );
  }

  /**
   * The credit transfers of these payouts, their bank details opened; or, when any will not open
   * under this service's data keys, which ones (they cannot be paid, so nothing is exported).
   */
  private async transfersOf(tx: Tx, all: MerchantScope, ids: string[]): Promise<{ transfers: CreditTransfer[] } | { unreadable: Unreadable[] }> {
    const keyring = keyringOf(this.deps);
    const found = await payouts.findPayouts(tx, all, ids);
    const sealed = await payouts.sealedDetails(tx, all, ids);
    const unreadable = ids
      .filter((id) => openOrNull(keyring, 'payout-details', id, sealed.get(id)!.sealed) === null)
      .map((id) => ({ purpose: 'payout-details' as const, id, kid: kidOrUnknown(keyring, sealed.get(id)!.sealed) }));
    if (unreadable.length > 0) return { unreadable };
    const transfers = found.map((p) => {
      const s = sealed.get(p!.id)!;
      const details = JSON.parse(keyring.open('payout-details', p!.id, s.sealed)) as EftDetails;
      // The bank the branch code belongs to, as recorded at creation: where the money goes.
      const bank = (s.bank ? bankById(s.bank) : undefined) ?? bankForBranchCode(details.branchCode);
      return {
        payoutId: p!.id,
        amountCents: p!.amountCents,
        creditor: { name: details.accountHolder, accountNumber: details.accountNumber, branchCode: details.branchCode, bankName: bank?.name ?? details.bankName },
        reference: p!.merchantReference ?? p!.description ?? `Payout ${p!.id.slice(0, 8)}`,
      };
    });
    return { transfers };
  }

  /** The file, its payouts moved to `processing`, the batch's record (its file sealed) and the audit entry. */
  private async writeBatch(tx: Tx, actor: Actor, debtor: NonNullable<Config['payoutDebtor']>, ids: string[], transfers: CreditTransfer[]): Promise<{ batch: BatchWithPayouts; file: string }> {
    const id = randomUUID();
    const createdAt = new Date();
    const day = johannesburgDay(createdAt);
    const messageId = `ZARPAY-${day.replaceAll('-', '')}-${String(await batches.nextBatchNumber(tx)).padStart(6, '0')}`;
    // After the cut-off, on a weekend or a public holiday, the bank executes on the next business day.
    const file = buildPain001({ messageId, createdAt, executionDate: executionDate(createdAt, this.deps.config.payoutCutoffMinutes), debtor, transfers });
    const totalCents = transfers.reduce((sum, t) => sum + t.amountCents, 0);
    for (const payoutId of ids) await movePayoutIn(tx, actor, payoutId, 'start_transfer', { audit: { batch_id: id } });
    const batch = await batches.recordBatch(tx, {
      id,
      messageId,
      fileSha256: sha256(file),
      // The file carries full account numbers: sealed like the details it was written from.
      fileSealed: keyringOf(this.deps).seal('payout-batch-file', id, file),
      totalCents,
      createdBy: actorLabel(actor),
      createdAt,
      payoutIds: ids,
    });
    await recordAudit(tx, {
      actor: actorLabel(actor),
      action: 'payout_batch.export',
      detail: { batch_id: id, message_id: messageId, file_sha256: batch.fileSha256, payouts: ids.length, total_cents: totalCents },
    });
    return { batch: { ...batch, payoutIds: ids }, file };
  }

  /** Batches, newest first, with their payouts in file order. */
  async list(actor: Actor, page: { limit: number; offset: number }): Promise<{ batches: BatchWithPayouts[]; total: number }> {
    requireOperator(actor);
    const { batches: found, total } = await batches.listBatches(this.deps.db, page);
    const items = await batches.batchPayoutIds(this.deps.db, found.map((b) => b.id));
    return { batches: found.map((b) => ({ ...b, payoutIds: items.get(b.id) ?? [] })), total };
  }

  /**
   * A batch's file again, byte for byte as exported (its hash is the batch's `fileSha256`). It
   * holds full account numbers, so every copy is in the audit log, like a revealed account.
   */
  async file(actor: Actor, id: string): Promise<{ batch: BatchWithPayouts; file: string }> {
    requireOperator(actor);
    const found = isUuid(id) ? await batches.findBatchFile(this.deps.db, id.toLowerCase()) : undefined;
    if (!found) throw new AppError('NOT_FOUND', 'payout batch not found');
    const keyring = keyringOf(this.deps);
    const file = openOrNull(keyring, 'payout-batch-file', found.batch.id, found.sealed);
    if (file === null) {
      throw new AppError(
        'INTERNAL_ERROR',
        `this batch's file will not open under the data keys of this service (it names key ${kidOrUnknown(keyring, found.sealed)}): its payouts are as the batch list shows; the bank has the file that was sent`,
      );
    }
    await recordAudit(this.deps.db, { actor: actorLabel(actor), action: 'payout_batch.file', detail: { batch_id: found.batch.id, file_sha256: found.batch.fileSha256 } });
    const items = await batches.batchPayoutIds(this.deps.db, [found.batch.id]);
    return { batch: { ...found.batch, payoutIds: items.get(found.batch.id) ?? [] }, file };
  }

}
