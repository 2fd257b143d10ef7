import { randomUUID } from 'node:crypto';
import { recordAudit } from '../db/audit.ts';
import * as ledger from '../db/ledger.ts';
import * as store from '../db/payouts.ts';
import { noteUnreadable } from '../db/sealed-data.ts';
import { authorize } from '../domain/access.ts';
import { type Actor, actorLabel, oneMerchantScope, requireMerchant, requireOperator, scope } from '../domain/actor.ts';
import { requestDigest } from '../domain/canonical.ts';
import { AppError, fieldError } from '../domain/errors.ts';
import { isUuid } from '../domain/ids.ts';
import {
  type BankAccount,
  CANCELLED_REASON,
  type MaskedBankAccount,
  type Payout,
  type PayoutAction,
  payoutNotFound,
  type PayoutStatus,
  UNREADABLE_BANK_ACCOUNT,
} from '../domain/payout.ts';
import type { CreatePayoutInput, EftDetails, ListPayoutsQuery } from '../domain/payout-input.ts';
import { kidOrUnknown, maskAccountNumber, openOrNull } from '../domain/sealing.ts';
import { payoutJson } from '../domain/payout-json.ts';
import { bankById, bankForBranchCode, bankNameMismatch } from '../domain/za-banks.ts';
import type { StepUpInput } from '../domain/payee.ts';
import type { PayeeService } from './payees.ts';
import { movePayoutIn, type PayoutMoveExtra, returnPayoutIn } from './payout-moves.ts';
import type { StepUp } from './step-up.ts';
import { keyringOf, type ServiceDeps, withEvents } from './deps.ts';

export type CreatePayoutResult = { payout: Payout; created: boolean };

/** A Relay-style page request over the creation sequence (GraphQL connections). */
export interface PayoutPageRequest {
  merchantId?: string | null;
  status?: PayoutStatus | null;
  after: number | null;
  before: number | null;
  limit: number;
  inverted: boolean;
}

/** Payout use cases: creation with its reservation, reads, and the operator's moves. */
export class PayoutService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly payees: Pick<PayeeService, 'detailsFor'>,
    private readonly stepUp: Pick<StepUp, 'verify'>,
  ) {}

  /**
   * A merchant creates a pending payout; its gross amount is reserved in the same statement as
   * the payout and its `payout.created` event. A `merchantReference` already used replays the
   * payout when the input is the same (`created: false`), and is 409 CONFLICT otherwise.
   *
   * "The same input" is the canonical parsed input (key order, defaults and null-for-absent
   * ignored): a REST body and a GraphQL input that mean the same replay each other.
   *
   * A person signed in to the dashboard who types a new account's details proves it is them
   * once more (`proof`: the password again, and the second factor when they have one), as for
   * adding a saved payee: a session left open is not enough to send money somewhere new. A
   * saved payee, or an API key (a machine's credential), needs no step-up.
   */
  async create(actor: Actor, input: CreatePayoutInput, proof?: StepUpInput): Promise<CreatePayoutResult> {
    const { merchant } = requireMerchant(actor);
    authorize(actor, 'payouts.create');
    const own = oneMerchantScope(actor);
    const requestHash = requestDigest(keyringOf(this.deps), input);
    if (input.merchantReference !== undefined) {
      const existing = await store.findByReference(this.deps.db, own, input.merchantReference);
      if (existing) return replay(existing, requestHash);
    }
    if (!Number.isSafeInteger(input.amountCents + merchant.payoutFeeCents)) throw fieldError('VALIDATION_FAILED', ['amountCents'], 'is too large');
    const account = await this.account(actor, input, proof);
    const id = randomUUID();
    const createdAt = new Date();
    // The event's data is the payout as stored; the statement adds the fee it read (see db/payouts.ts).
    const { fee_cents: _fee, gross_amount_cents: _gross, ...eventData } = payoutJson({
      id,
      merchantId: merchant.id,
      amountCents: input.amountCents,
      feeCents: 0,
      grossAmountCents: 0,
      currency: input.currency,
      status: 'pending',
      payoutMethod: input.payoutMethod,
      merchantReference: input.merchantReference ?? null,
      description: input.description ?? null,
      metadata: input.metadata ?? null,
      externalTransferId: null,
      failureReason: null,
      rejectionReason: null,
      createdAt,
      updatedAt: createdAt,
      completedAt: null,
      returnedAt: null,
      returnReason: null,
    });
    try {
      const outcome = await store.createPayout(this.deps.db, {
        id,
        merchantId: merchant.id,
        amountCents: input.amountCents,
        // Sealed before the statement: the details never reach the database in the clear.
        paymentDetails: keyringOf(this.deps).seal('payout-details', id, JSON.stringify(account.details)),
        payeeId: account.payeeId,
        merchantReference: input.merchantReference ?? null,
        description: input.description ?? null,
        metadata: input.metadata === undefined ? null : JSON.stringify(input.metadata),
        bank: account.bank,
        requestHash,
        createdAt,
        eventData: JSON.stringify(eventData),
        eventId: randomUUID(),
        deliveryId: randomUUID(),
        transactionId: randomUUID(),
      });
      if (!outcome) throw new AppError('NOT_FOUND', 'merchant not found');
      if ('requiredCents' in outcome) throw await ledger.insufficient(this.deps.db, own, outcome.requiredCents);
      this.deps.committed?.();
      return { payout: outcome.payout, created: true };
    } catch (e) {
      // Two requests with one new reference raced: the loser's insert hit the unique constraint
      // after the winner committed, and its reservation rolled back with it.
      if (input.merchantReference !== undefined && isUniqueViolation(e)) {
        const existing = await store.findByReference(this.deps.db, own, input.merchantReference);
        if (existing) return replay(existing, requestHash);
      }
      throw e;
    }
  }

  /**
   * The account a new payout pays: the details as given, or a saved payee's (its own copy is
   * sealed with the payout, so removing the payee later changes nothing about it). Exactly one.
   * Typed details from a person's session need the step-up first (see `create`).
   */
  private async account(actor: Actor, input: CreatePayoutInput, proof: StepUpInput | undefined): Promise<{ details: EftDetails; bank: string; payeeId: string | null }> {
    if (input.paymentDetails && input.payeeId) throw fieldError('VALIDATION_FAILED', ['payeeId'], 'give either paymentDetails or payeeId, not both');
    if (input.payeeId) return this.payees.detailsFor(actor, input.payeeId);
    if (!input.paymentDetails) throw fieldError('VALIDATION_FAILED', ['paymentDetails'], 'is required');
    if (actor.kind === 'merchant' && actor.person) {
      if (!proof) throw fieldError('FORBIDDEN', ['stepUp', 'password'], 'is required: to pay an account that is not a saved payee, enter your password again');
      await this.stepUp.verify(actor, proof, 'payout.create', ['stepUp']);
    }
    // The input's schema refused a code not on the list, so the bank is known here.
    return { details: input.paymentDetails, bank: bankForBranchCode(input.paymentDetails.branchCode)!.id, payeeId: null };
  }

  /** One payout; outside the actor's scope, unknown or malformed: 404 PAYOUT_NOT_FOUND. */
  async get(actor: Actor, id: string): Promise<Payout> {
    const payout = isUuid(id) ? await store.findPayout(this.deps.db, scope(actor), id.toLowerCase()) : undefined;
    if (!payout) throw payoutNotFound();
    return payout;
  }

  /** Payouts by id in key order, null where missing or outside the scope (a DataLoader batch). */
  async getMany(actor: Actor, ids: readonly string[]): Promise<(Payout | null)[]> {
    const s = scope(actor);
    const found = await store.findPayouts(this.deps.db, s, ids.filter(isUuid).map((id) => id.toLowerCase()));
    const byId = new Map(found.filter((p) => p !== null).map((p) => [p.id, p]));
    return ids.map((id) => byId.get(id.toLowerCase()) ?? null);
  }

  /** Offset listing, newest first, `total` counting every match (REST, the CLI). */
  async list(actor: Actor, query: ListPayoutsQuery & { merchantId?: string | null }): Promise<{ payouts: Payout[]; total: number }> {
    return store.listPayouts(this.deps.db, scope(actor, query.merchantId), query);
  }

  /** A keyset page, newest first unless `inverted` (GraphQL connections). */
  page(actor: Actor, request: PayoutPageRequest) {
    return store.pagePayouts(this.deps.db, scope(actor, request.merchantId), request.status ?? undefined, request);
  }

  /** A keyset page and the count of every payout the filter matches, in one read. */
  pageWithTotal(actor: Actor, request: PayoutPageRequest) {
    return store.pagePayoutsWithTotal(this.deps.db, scope(actor, request.merchantId), request.status ?? undefined, request);
  }

  count(actor: Actor, filter: { merchantId?: string | null; status?: PayoutStatus | null }): Promise<number> {
    return store.countPayouts(this.deps.db, scope(actor, filter.merchantId), filter.status ?? undefined);
  }

  /**
   * The payout view of bank accounts (a DataLoader batch, in key order): bank, branch and holder,
   * the account number masked; the bank the branch code names and whether the free-text name
   * differs. Within the actor's scope (a merchant its own: CONTRACT §10); null where a payout is
   * missing.
   */
  async bankAccounts(actor: Actor, ids: readonly string[]): Promise<(MaskedBankAccount | null)[]> {
    const sealed = await store.sealedDetails(this.deps.db, scope(actor), ids.filter(isUuid).map((id) => id.toLowerCase()));
    const keyring = keyringOf(this.deps);
    const unreadable: { purpose: 'payout-details'; id: string; kid: string }[] = [];
    const accounts = ids.map((id): MaskedBankAccount | null => {
      const found = sealed.get(id.toLowerCase());
      if (!found) return null;
      // One value that will not open is shown as such (and counted), never a failed approval queue.
      const plaintext = openOrNull(keyring, 'payout-details', id.toLowerCase(), found.sealed);
      if (plaintext === null) {
        unreadable.push({ purpose: 'payout-details', id: id.toLowerCase(), kid: kidOrUnknown(keyring, found.sealed) });
        // The bank recorded at creation is not sealed: it still tells where the money would go.
        return found.bank === null ? UNREADABLE_BANK_ACCOUNT : { ...UNREADABLE_BANK_ACCOUNT, bank: bankById(found.bank)?.name ?? found.bank };
      }
      const { accountNumber, ...rest } = JSON.parse(plaintext) as EftDetails;
      // Payouts older than the branch-code list have no bank recorded: their code tells it, if listed.
      const bank = found.bank ?? bankForBranchCode(rest.branchCode)?.id ?? null;
      return {
        ...rest,
        accountNumberMasked: maskAccountNumber(accountNumber),
        bank: bank === null ? null : (bankById(bank)?.name ?? bank),
        bankNameMismatch: bankNameMismatch(rest.bankName, bank),
        unreadable: false,
      };
    });
    await noteUnreadable(this.deps.db, unreadable);
    return accounts;
  }

  /**
   * The full bank account of one payout, for the operator making the transfer by hand: the only
   * way to the full account number, and every use is in the audit log with who, when and why.
   */
  async revealBankAccount(actor: Actor, id: string, reason: string): Promise<BankAccount> {
    requireOperator(actor);
    if (!isUuid(id)) throw payoutNotFound();
    const found = (await store.sealedDetails(this.deps.db, scope(actor), [id.toLowerCase()])).get(id.toLowerCase());
    if (!found) throw payoutNotFound();
    const keyring = keyringOf(this.deps);
    const plaintext = openOrNull(keyring, 'payout-details', id.toLowerCase(), found.sealed);
    if (plaintext === null) {
      const kid = kidOrUnknown(keyring, found.sealed);
      await noteUnreadable(this.deps.db, [{ purpose: 'payout-details', id: id.toLowerCase(), kid }]);
      throw new AppError('INTERNAL_ERROR', `this payout's bank details will not open under the data keys of this service (they name key ${kid}): ask the merchant for them again`);
    }
    const details = JSON.parse(plaintext) as EftDetails;
    await recordAudit(this.deps.db, {
      actor: actorLabel(actor),
      action: 'payout.reveal_bank_account',
      merchantId: found.merchantId,
      payoutId: id.toLowerCase(),
      detail: { reason, account_number_masked: maskAccountNumber(details.accountNumber) },
    });
    return details;
  }

  approve(actor: Actor, id: string) {
    return this.move(actor, id, 'approve', {});
  }

  reject(actor: Actor, id: string, reason: string) {
    return this.move(actor, id, 'reject', { rejectionReason: reason });
  }

  /** CONTRACT §5: the account manager cancels a pending payout; it becomes `rejected`. */
  cancel(actor: Actor, id: string) {
    return this.move(actor, id, 'reject', { rejectionReason: CANCELLED_REASON, onlyFrom: ['pending'] });
  }

  startTransfer(actor: Actor, id: string) {
    return this.move(actor, id, 'start_transfer', {});
  }

  /** Without a transfer reference, a generated `EFT-…` one is recorded. */
  complete(actor: Actor, id: string, externalTransferId?: string | null) {
    const transferId = externalTransferId || `EFT-${randomUUID().slice(0, 8).toUpperCase()}`;
    return this.move(actor, id, 'complete', { externalTransferId: transferId });
  }

  fail(actor: Actor, id: string, reason: string) {
    return this.move(actor, id, 'fail', { failureReason: reason });
  }

  /**
   * The bank's return of a completed payout, recorded by hand (CONTRACT §11: an "unpaid" the
   * bank reported on paper, by e-mail, or in a report that will not import): the same as a
   * report's return (`returnPayoutIn`): it stays completed, gains `returned_at` and
   * `return_reason`, its amount comes back to the balance (the fee stays), `payout.returned`, and
   * the audit entry. A payout returned already is refused: its amount came back once.
   */
  async recordReturn(actor: Actor, id: string, reason: string): Promise<Payout> {
    requireOperator(actor);
    if (!isUuid(id)) throw payoutNotFound();
    return withEvents(this.deps, async (tx) => {
      const { payout, returned } = await returnPayoutIn(tx, actor, id.toLowerCase(), reason, { by_hand: true });
      if (!returned) {
        throw new AppError('INVALID_STATUS_TRANSITION', `payout ${payout.id} was returned already (${payout.returnReason ?? 'no reason given'}): its amount came back then`);
      }
      return payout;
    });
  }

  /** One operator move, in a transaction of its own (see `movePayoutIn`). */
  private move(actor: Actor, id: string, action: PayoutAction, extra: PayoutMoveExtra): Promise<Payout> {
    requireOperator(actor);
    if (!isUuid(id)) throw payoutNotFound();
    return withEvents(this.deps, async (tx) => (await movePayoutIn(tx, actor, id.toLowerCase(), action, extra)).payout);
  }
}

function replay(existing: { payout: Payout; requestHash: string }, requestHash: string): CreatePayoutResult {
  if (existing.requestHash !== requestHash) {
    throw new AppError('CONFLICT', 'this merchant reference was already used with different parameters');
  }
  return { payout: existing.payout, created: false };
}

function isUniqueViolation(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === '23505';
}
