import type { BankAccount, MaskedBankAccount } from '../../domain/payout.ts';
import { reasonSchema } from '../../domain/validation.ts';
import { actorOf, builder } from '../builder.ts';
import { validated } from '../validation.ts';
import { PayoutRef } from './payout.ts';

/**
 * A payout's bank account (CONTRACT §9, §10): the payout view shows it masked, to the operator
 * and to the merchant whose payout it is; the full account number comes from one audited
 * mutation, the operator's only. Merchants never read it back in full.
 */
const MaskedBankAccountRef = builder.objectRef<MaskedBankAccount>('PayoutBankAccount').implement({
  description: 'The bank account a payout is paid into, as the operator\'s payout view shows it: the account number masked.',
  fields: (t) => ({
    bankName: t.exposeString('bankName', { description: 'The bank.' }),
    branchCode: t.exposeString('branchCode', { description: 'The 6-digit branch code.' }),
    accountHolder: t.exposeString('accountHolder', { description: 'The account holder\'s full name.' }),
    accountNumberMasked: t.exposeString('accountNumberMasked', { description: '`****` and the last four digits of the account number.' }),
    bank: t.exposeString('bank', {
      nullable: true,
      description: 'The bank the branch code belongs to, recorded when the payout was created (for older payouts, told by the code): where the money goes, whatever bankName says. Null when the code is not on the list.',
    }),
    bankNameMismatch: t.exposeBoolean('bankNameMismatch', {
      description: 'True when the merchant\'s bankName names another bank than the one the branch code belongs to: check with the merchant before paying.',
    }),
    unreadable: t.exposeBoolean('unreadable', {
      description:
        'True when the sealed bank details will not open under any data key of this service (other key material under their kid, or damage); bankName, branchCode, accountHolder and accountNumberMasked then read `unreadable` (bank is still the one recorded at creation). Counted in stats.sealedValuesUnreadable.',
    }),
  }),
});

const BankAccountRef = builder.objectRef<BankAccount>('RevealedBankAccount').implement({
  description: 'A payout\'s full bank account, for making the transfer by hand. Every reveal is in the audit log.',
  fields: (t) => ({
    bankName: t.exposeString('bankName', { description: 'The bank.' }),
    branchCode: t.exposeString('branchCode', { description: 'The 6-digit branch code.' }),
    accountHolder: t.exposeString('accountHolder', { description: 'The account holder\'s full name.' }),
    accountNumber: t.exposeString('accountNumber', { description: 'The full account number.' }),
  }),
});

builder.objectField(PayoutRef, 'bankAccount', (t) =>
  t.loadable({
    type: MaskedBankAccountRef,
    nullable: true,
    authScopes: { merchant: true, operator: true },
    description: 'The account the payout is paid into, the number masked (`****` + last 4): the merchant its own, the operator any. The full number: revealPayoutBankAccount (operator only).',
    load: (ids: string[], ctx) => ctx.services.payouts.bankAccounts(actorOf(ctx), ids),
    resolve: (payout) => payout.id,
  }),
);

const RevealPayload = builder.simpleObject('RevealPayoutBankAccountPayload', {
  description: 'The payout\'s full bank account.',
  fields: (t) => ({ bankAccount: t.field({ type: BankAccountRef, description: 'The account, number in full.' }) }),
});

builder.mutationFields((t) => ({
  revealPayoutBankAccount: t.field({
    type: RevealPayload,
    description:
      'The full bank account of a payout, for the operator making the transfer (operator only). The one way to the full account number: each call is audited with who, when and the reason. Errors: PAYOUT_NOT_FOUND.',
    authScopes: { operator: true },
    args: {
      id: t.arg({ type: 'UUID', required: true, description: 'The payout id.' }),
      reason: t.arg.string({ required: true, description: 'Why it is needed (1 to 500 characters), for the audit log.', validate: validated(reasonSchema) }),
    },
    resolve: async (_r, { id, reason }, ctx) => ({ bankAccount: await ctx.services.payouts.revealBankAccount(actorOf(ctx), id, reason) }),
  }),
}));
