import type { StatementEntry } from '../../domain/statement.ts';
import { STATEMENT_ENTRY_TYPES, statementArgs } from '../../domain/statement.ts';
import type { Statement } from '../../services/statements.ts';
import { actorOf, builder } from '../builder.ts';
import { validated, validatedInput } from '../validation.ts';

const StatementEntryTypeEnum = builder.enumType('StatementEntryType', {
  description: 'What moved the balance. REST writes these in lower case.',
  values: {
    PAYMENT: { value: 'payment', description: 'A captured payment credited by auto top-up: its amount less its fee.' },
    CREDIT: { value: 'credit', description: 'An operator credit.' },
    PAYOUT: { value: 'payout', description: 'A completed payout\'s amount.' },
    PAYOUT_FEE: { value: 'payout_fee', description: 'A completed payout\'s fee.' },
    REFUND: { value: 'refund', description: 'A refund paid back to a customer.' },
  } satisfies Record<string, { value: (typeof STATEMENT_ENTRY_TYPES)[number]; description: string }>,
});

const StatementEntryRef = builder.objectRef<StatementEntry>('StatementEntry').implement({
  description: 'One movement of balanceCents (REST: an entry of `GET /api/v1/statements`).',
  fields: (t) => ({
    entryId: t.exposeString('entryId', { description: 'The journal leg this entry stands for: stable.' }),
    postedAt: t.expose('postedAt', { type: 'DateTime', description: 'When it was posted.' }),
    type: t.expose('type', { type: StatementEntryTypeEnum, description: 'What moved the balance.' }),
    reference: t.expose('reference', { type: 'UUID', nullable: true, description: 'The payment, payout or refund id; null for a credit.' }),
    amountCents: t.expose('amountCents', { type: 'Money', description: 'Signed: credits positive, debits negative.' }),
    balanceAfterCents: t.expose('balanceAfterCents', { type: 'Money', description: 'The balance (balanceCents) after this entry.' }),
    description: t.exposeString('description', { description: 'In words.' }),
  }),
});

const StatementRef = builder.objectRef<Statement>('Statement').implement({
  description:
    'The movements of a merchant\'s balance over whole days in Africa/Johannesburg, oldest first: openingBalanceCents + the sum of amountCents = closingBalanceCents (CONTRACT §10).',
  fields: (t) => ({
    from: t.exposeString('from', { description: 'The first day (YYYY-MM-DD, SAST), included.' }),
    to: t.exposeString('to', { description: 'The last day (YYYY-MM-DD, SAST), included.' }),
    merchantId: t.expose('merchantId', { type: 'UUID', description: 'Whose statement.' }),
    openingBalanceCents: t.expose('openingBalanceCents', { type: 'Money', description: 'The balance (balanceCents) at the start of `from`.' }),
    closingBalanceCents: t.expose('closingBalanceCents', { type: 'Money', description: 'The balance (balanceCents) at the end of `to`.' }),
    total: t.exposeInt('total', { description: 'How many entries.' }),
    entries: t.expose('entries', { type: [StatementEntryRef], description: 'Oldest first. For a long, busy range prefer REST, which streams (JSON or CSV).' }),
  }),
});

builder.queryFields((t) => ({
  statement: t.field({
    type: StatementRef,
    description:
      'A statement (REST `GET /api/v1/statements`): the caller\'s own, or the named merchant\'s for the operator. Rate limit: balance check. Errors: VALIDATION_FAILED for bad dates, `from` after `to` or more than 366 days; FORBIDDEN for another merchant\'s id; NOT_FOUND for an unknown merchant.',
    authScopes: { merchant: true, operator: true },
    args: {
      from: t.arg.string({ required: true, description: 'The first day, YYYY-MM-DD in Africa/Johannesburg.' }),
      to: t.arg.string({ required: true, description: 'The last day, YYYY-MM-DD in Africa/Johannesburg; at most 366 days, both counted.' }),
      merchantId: t.arg({ type: 'UUID', description: 'The operator names the merchant; a merchant may only name itself.' }),
    },
    validate: validated(statementArgs),
    resolve: (_r, args, ctx) => {
      const { from, to, merchantId } = validatedInput(statementArgs, args);
      return ctx.services.statements.get(actorOf(ctx), { from, to }, merchantId);
    },
  }),
}));
