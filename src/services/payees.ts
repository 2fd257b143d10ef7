import { randomUUID } from 'node:crypto';
import { recordAudit } from '../db/audit.ts';
import { lockMerchant } from '../db/merchants.ts';
import { countPayees, findPayee, insertPayee, listPayees, type PayeeRecord, removePayee } from '../db/payees.ts';
import { authorize } from '../domain/access.ts';
import { type Actor, actorLabel, oneMerchantScope, requireMerchant } from '../domain/actor.ts';
import { AppError } from '../domain/errors.ts';
import { isUuid } from '../domain/ids.ts';
import { type CreatePayeeInput, MAX_PAYEES, type Payee, payeeNotFound } from '../domain/payee.ts';
import type { EftDetails } from '../domain/payout-input.ts';
import { type Keyring, maskAccountNumber, openOrNull } from '../domain/sealing.ts';
import { bankById, bankForBranchCode } from '../domain/za-banks.ts';
import { keyringOf, type ServiceDeps } from './deps.ts';
import type { StepUp } from './step-up.ts';

/**
 * Saved payees (issue 33): an owner, signed in and re-entering their password, adds a bank
 * account once; payouts then name it by id (`PayoutService.create` with `payeeId`), by session
 * or by key. Adding and removing are the owner's in the dashboard (`payees.manage`, session
 * only); every role and key reads them, the account number masked.
 */
export class PayeeService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly stepUp: StepUp,
  ) {}

  /** The merchant's payees, oldest first. */
  async list(actor: Actor): Promise<Payee[]> {
    authorize(actor, 'read');
    const keyring = keyringOf(this.deps);
    return (await listPayees(this.deps.db, oneMerchantScope(actor))).map((r) => toPayee(keyring, r));
  }

  /**
   * Adds a payee after the step-up (the person's password again). At most MAX_PAYEES per merchant
   * (counted under the merchant's lock, so two at once cannot pass it); one payee per account
   * (CONFLICT otherwise). The details are sealed before they reach the database; the audit log
   * names who added it and the masked account.
   */
  async create(actor: Actor, input: CreatePayeeInput): Promise<Payee> {
    const caller = requireMerchant(actor);
    const { merchant } = caller;
    authorize(actor, 'payees.manage');
    await this.stepUp.verify(caller, { password: input.password, ...(input.code !== undefined && { code: input.code }) }, 'payee.create');
    const keyring = keyringOf(this.deps);
    const details: EftDetails = input.paymentDetails;
    const id = randomUUID();
    const record = await this.deps.db.transaction().execute(async (tx) => {
      await lockMerchant(tx, merchant.id);
      if ((await countPayees(tx, merchant.id)) >= MAX_PAYEES) {
        throw new AppError('CONFLICT', `a merchant has at most ${MAX_PAYEES} payees: remove one you no longer pay first`);
      }
      const added = await insertPayee(tx, {
        id,
        merchantId: merchant.id,
        name: input.name,
        // The input's schema refused a code not on the list.
        bank: bankForBranchCode(details.branchCode)!.id,
        sealed: keyring.seal('payee-details', id, JSON.stringify(details)),
        accountDigest: keyring.digest('payee-details', `${details.branchCode}:${details.accountNumber}`),
        createdByPersonId: caller.person?.personId ?? null,
      });
      if (!added) throw new AppError('CONFLICT', 'paymentDetails: this account is a payee already');
      await recordAudit(tx, {
        actor: actorLabel(actor),
        action: 'payee.create',
        merchantId: merchant.id,
        detail: { payee_id: id, name: input.name, bank: added.bank, account_number_masked: maskAccountNumber(details.accountNumber) },
      });
      return added;
    });
    return toPayee(keyring, record);
  }

  /** Removes a payee; payouts already made to it keep its details. NOT_FOUND when unknown or another merchant's. */
  async remove(actor: Actor, payeeId: string): Promise<Payee> {
    const { merchant } = requireMerchant(actor);
    authorize(actor, 'payees.manage');
    if (!isUuid(payeeId)) throw payeeNotFound();
    const record = await this.deps.db.transaction().execute(async (tx) => {
      const removed = await removePayee(tx, merchant.id, payeeId.toLowerCase());
      if (!removed) throw payeeNotFound();
      await recordAudit(tx, { actor: actorLabel(actor), action: 'payee.remove', merchantId: merchant.id, detail: { payee_id: removed.id, name: removed.name } });
      return removed;
    });
    return toPayee(keyringOf(this.deps), record);
  }

  /**
   * A payee's full bank details and its bank, for a payout to it (the payout seals its own copy).
   * NOT_FOUND when unknown, removed or another merchant's; INVALID_PAYMENT_DETAILS when its
   * sealed details will not open under this service's keys.
   */
  async detailsFor(actor: Actor, payeeId: string): Promise<{ payeeId: string | null; details: EftDetails; bank: string }> {
    const found = isUuid(payeeId) ? await findPayee(this.deps.db, oneMerchantScope(actor), payeeId.toLowerCase()) : undefined;
    if (!found) throw new AppError('NOT_FOUND', 'payeeId: no such payee (it may have been removed)', { fields: [{ path: ['payeeId'], message: 'no such payee (it may have been removed)' }] });
    const plaintext = openOrNull(keyringOf(this.deps), 'payee-details', found.id, found.sealed);
    if (plaintext === null) throw new AppError('INVALID_PAYMENT_DETAILS', 'payeeId: this payee\'s bank details will not open under the data keys of this service: add the payee again');
    return { payeeId: found.id, details: JSON.parse(plaintext) as EftDetails, bank: found.bank };
  }
}

/** A payee as read back: its details opened and the account number masked. */
function toPayee(keyring: Keyring, r: PayeeRecord): Payee {
  const plaintext = openOrNull(keyring, 'payee-details', r.id, r.sealed);
  const bank = bankById(r.bank)?.name ?? r.bank;
  const base = { id: r.id, merchantId: r.merchantId, name: r.name, bank, createdAt: r.createdAt };
  if (plaintext === null) {
    return { ...base, accountHolder: 'unreadable', bankName: 'unreadable', branchCode: 'unreadable', accountNumberMasked: 'unreadable', unreadable: true };
  }
  const d = JSON.parse(plaintext) as EftDetails;
  return { ...base, accountHolder: d.accountHolder, bankName: d.bankName, branchCode: d.branchCode, accountNumberMasked: maskAccountNumber(d.accountNumber), unreadable: false };
}
