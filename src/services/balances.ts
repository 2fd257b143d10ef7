import * as ledger from '../db/ledger.ts';
import { type Actor, oneMerchantScope, requireOperator, scope } from '../domain/actor.ts';
import type { Balance, BalanceBreakdown, CreditInput } from '../domain/balance.ts';
import { AppError } from '../domain/errors.ts';
import { isUuid } from '../domain/ids.ts';
import { creditLegs } from '../domain/ledger.ts';
import type { ServiceDeps } from './deps.ts';

const notFound = () => new AppError('NOT_FOUND', 'merchant not found');

/** The merchant's payout balance: reads, operator credits and the ledger check. */
export class BalanceService {
  constructor(private readonly deps: ServiceDeps) {}

  /** The merchant's own balance, or the one of the merchant the operator names. */
  async get(actor: Actor, merchantId?: string | null): Promise<Balance> {
    const s = oneMerchantScope(actor, merchantId);
    const balance = isUuid(s.merchantId) ? await ledger.balanceOf(this.deps.db, s) : undefined;
    if (!balance) throw notFound();
    return balance;
  }

  /** What made the balance, apart (payments, credits, fees, payouts, refunds, returns): the caller's own, or the named merchant's. */
  async breakdown(actor: Actor, merchantId?: string | null): Promise<BalanceBreakdown> {
    const s = oneMerchantScope(actor, merchantId);
    if (!isUuid(s.merchantId)) throw notFound();
    return ledger.breakdownOf(this.deps.db, s);
  }

  /** The balance and its breakdown from one snapshot (repeatable read), so the two always add up. */
  async getWithBreakdown(actor: Actor, merchantId?: string | null): Promise<{ balance: Balance; breakdown: BalanceBreakdown }> {
    const s = oneMerchantScope(actor, merchantId);
    if (!isUuid(s.merchantId)) throw notFound();
    return this.deps.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (tx) => {
        const balance = await ledger.balanceOf(tx, s);
        if (!balance) throw notFound();
        return { balance, breakdown: await ledger.breakdownOf(tx, s) };
      });
  }

  /** Balances in the order of `merchantIds`, null where there is none or it is outside the scope (a DataLoader batch). */
  async getMany(actor: Actor, merchantIds: readonly string[]): Promise<(Balance | null)[]> {
    const valid = merchantIds.map((id) => id.toLowerCase()).filter(isUuid);
    const found = await ledger.balancesOf(this.deps.db, scope(actor), valid);
    const byId = new Map(found.filter((b) => b !== null).map((b) => [b.merchantId, b]));
    return merchantIds.map((id) => byId.get(id.toLowerCase()) ?? null);
  }

  /** An operator credit: money arriving from outside (funding) into the available balance. */
  async credit(actor: Actor, merchantId: string, input: CreditInput): Promise<Balance> {
    requireOperator(actor);
    if (!isUuid(merchantId)) throw notFound();
    const s = oneMerchantScope(actor, merchantId);
    return this.deps.db.transaction().execute(async (tx) => {
      const exists = await ledger.balanceOf(tx, s);
      if (!exists) throw notFound();
      return ledger.post(tx, { merchantId: s.merchantId, kind: 'credit', memo: input.memo ?? 'operator credit', legs: creditLegs(input.amountCents) });
    });
  }

  /** Recomputes every balance from the journal (CONTRACT §5 invariants); the operator's `ledger verify`. */
  verify(actor: Actor): Promise<ledger.VerifyReport> {
    requireOperator(actor);
    return ledger.verifyLedger(this.deps.db, scope(actor));
  }
}
