import { createPayeeInput, type Payee } from '../../domain/payee.ts';
import { ZA_BANKS, type ZaBank } from '../../domain/za-banks.ts';
import { actorOf, builder } from '../builder.ts';
import { validated, validatedInput } from '../validation.ts';
import { PaymentDetailsInput } from './payout.ts';

/** Saved payees (issue 33) and the banks a payout may be paid into. */

const PayeeRef = builder.objectRef<Payee>('Payee').implement({
  description: 'A bank account an owner saved, with their password re-entered, to pay by id (`createPayout` with payeeId). The account number is masked.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID', description: 'The payee id: payeeId of a payout.' }),
    name: t.exposeString('name', { description: 'The merchant\'s own name for it.' }),
    accountHolder: t.exposeString('accountHolder', { description: 'The account holder\'s full name.' }),
    bankName: t.exposeString('bankName', { description: 'The bank as it was typed.' }),
    branchCode: t.exposeString('branchCode', { description: 'The bank\'s universal branch code.' }),
    accountNumberMasked: t.exposeString('accountNumberMasked', { description: '`****` and the last four digits of the account number.' }),
    bank: t.exposeString('bank', { description: 'The bank the branch code belongs to: where the money goes.' }),
    unreadable: t.exposeBoolean('unreadable', { description: 'The sealed details will not open under this service\'s data keys (the fields above read `unreadable`): add the payee again.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was added.' }),
  }),
});

const BankRef = builder.objectRef<ZaBank>('Bank').implement({
  description: 'A South African bank an EFT payout may be paid into, with the universal branch code every EFT to it may use.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'A stable id.' }),
    name: t.exposeString('name', { description: 'The bank\'s name.' }),
    universalBranchCode: t.exposeString('universalBranchCode', { description: 'Its universal branch code: paymentDetails.branchCode.' }),
  }),
});

const CreatePayeeInput = builder.inputType('CreatePayeeInput', {
  description: 'A new saved payee, and the password of the person adding it (a step-up: a session alone is not enough).',
  fields: (t) => ({
    name: t.string({ required: true, description: 'Your own name for it, 1 to 100 characters.' }),
    paymentDetails: t.field({ type: PaymentDetailsInput, required: true, description: 'The bank account (INVALID_PAYMENT_DETAILS when a field is wrong).' }),
    password: t.string({ required: true, description: 'The password you sign in with, entered again (FORBIDDEN on `password` when wrong; five wrong ones in 15 minutes: RATE_LIMIT_EXCEEDED).' }),
    code: t.string({ required: false, description: 'For a person with a second factor: the 6 digits their authenticator app shows now, or one of their recovery codes (FORBIDDEN on `code` when missing or wrong).' }),
  }),
});

const PayeePayload = builder.simpleObject('PayeePayload', {
  description: 'A payee as added or removed.',
  fields: (t) => ({ payee: t.field({ type: PayeeRef, description: 'The payee.' }) }),
});

builder.queryFields((t) => ({
  payees: t.field({
    type: [PayeeRef],
    description: 'The merchant\'s saved payees, oldest first (at most 200; REST `GET /api/v1/payees`). Every role and key reads them.',
    authScopes: { merchant: true },
    resolve: (_r, _a, ctx) => ctx.services.payees.list(actorOf(ctx)),
  }),
  banks: t.field({
    type: [BankRef],
    description: 'The South African banks a payout may be paid into, by name, with their universal branch codes: the codes `paymentDetails.branchCode` takes.',
    authScopes: { merchant: true, operator: true },
    resolve: () => [...ZA_BANKS].sort((a, b) => a.name.localeCompare(b.name)),
  }),
}));

builder.mutationFields((t) => ({
  createPayee: t.field({
    type: PayeePayload,
    description:
      'Saves a bank account as a payee (an owner signed in to the dashboard; never an API key), after the owner\'s password is entered again. At most 200 per merchant. Errors: FORBIDDEN (a key, another role, or a wrong password: then on `password`), RATE_LIMIT_EXCEEDED after five wrong passwords in 15 minutes, INVALID_PAYMENT_DETAILS, CONFLICT for an account that is a payee already or past 200.',
    authScopes: { merchant: true },
    args: { input: t.arg({ type: CreatePayeeInput, required: true, description: 'The payee.', validate: validated(createPayeeInput) }) },
    resolve: async (_r, { input }, ctx) => ({ payee: await ctx.services.payees.create(actorOf(ctx), validatedInput(createPayeeInput, input)) }),
  }),
  removePayee: t.field({
    type: PayeePayload,
    description: 'Removes a saved payee (an owner signed in to the dashboard): payouts already made to it are unchanged. Errors: NOT_FOUND, FORBIDDEN.',
    authScopes: { merchant: true },
    args: { id: t.arg({ type: 'UUID', required: true, description: 'The payee id.' }) },
    resolve: async (_r, { id }, ctx) => ({ payee: await ctx.services.payees.remove(actorOf(ctx), id) }),
  }),
}));
