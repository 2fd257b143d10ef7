import { AppError } from '../domain/errors.ts';
import type { Balance } from '../domain/payout.ts';
import { creditSchema, parseInput } from '../domain/validation.ts';
import type { ServiceDeps } from './deps.ts';
import * as ledger from './ledger.ts';
import { isUuid } from './merchants.ts';

/** The merchant's payout balance: reads, operator credits and the ledger check. */
export class BalanceService {
  constructor(private readonly deps: ServiceDeps) {}

  get(merchantId: string): Promise<Balance> {
    return ledger.getBalance(this.deps.db, merchantId);
  }

  /** Balances in the order of `merchantIds`, `null` where there is none (a DataLoader batch). */
  async getMany(merchantIds: readonly string[]): Promise<(Balance | null)[]> {
    const valid = merchantIds.filter(isUuid);
    const rows = valid.length ? await this.deps.db.selectFrom('balances').selectAll().where('merchant_id', 'in', valid).execute() : [];
    const byId = new Map(rows.map((r) => [r.merchant_id, ledger.toBalance(r)]));
    return merchantIds.map((id) => byId.get(id) ?? null);
  }

  /** An operator credit: money arriving from outside (funding) into the available balance. */
  async credit(merchantId: string, input: unknown): Promise<Balance> {
    const { amount_cents, memo } = parseInput(creditSchema, input);
    if (!isUuid(merchantId)) throw new AppError('NOT_FOUND', 'merchant not found');
    return this.deps.db.transaction().execute(async (tx) => {
      const exists = await tx.selectFrom('balances').select('merchant_id').where('merchant_id', '=', merchantId).executeTakeFirst();
      if (!exists) throw new AppError('NOT_FOUND', 'merchant not found');
      return ledger.post(tx, {
        merchantId,
        kind: 'credit',
        memo: memo ?? 'operator credit',
        legs: [
          { account: 'funding', amountCents: -amount_cents },
          { account: 'merchant_available', amountCents: amount_cents },
        ],
      });
    });
  }

  verify(): Promise<ledger.VerifyReport> {
    return ledger.verifyLedger(this.deps.db);
  }
}
