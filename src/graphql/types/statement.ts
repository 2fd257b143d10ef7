import { type AccountingRow, accountingRows } from '../../domain/accounting-statement.ts';
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
    PAYOUT_RETURN: { value: 'payout_return', description: 'A completed payout\'s amount the bank gave back (its fee stays).' },
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
    grossCents: t.expose('grossCents', { type: 'Money', description: 'For the books: a payment\'s amount; on every other entry amountCents.' }),
    feeCents: t.expose('feeCents', { type: 'Money', description: 'For the books: a payment\'s fee (negative); 0 on every other entry. grossCents + feeCents = amountCents.' }),
    orderReference: t.exposeString('orderReference', { nullable: true, description: 'The payment\'s merchantOrderId or the payout\'s merchantReference.' }),
    bankReference: t.exposeString('bankReference', { nullable: true, description: 'A payout\'s externalTransferId: the bank\'s reference.' }),
  }),
});

const AccountingRowRef = builder.objectRef<AccountingRow>('AccountingStatementRow').implement({
  description:
    'One row of the statement for bookkeepers (REST `GET /api/v1/statements?format=accounting`, CONTRACT §11), each cell as the CSV has it (before quoting): dates in Africa/Johannesburg, amounts in rand with a dot.',
  fields: (t) => ({
    date: t.exposeString('date', { description: '`YYYY-MM-DD HH:MM` in Africa/Johannesburg.' }),
    type: t.exposeString('type', { description: '`opening`, `closing`, or an entry\'s type in lower case (`payment`, `payout`, `payout_fee`, `payout_return`, `refund`, `credit`).' }),
    description: t.exposeString('description', { description: 'In words.' }),
    reference: t.exposeString('reference', { nullable: true, description: 'The payment, payout or refund id.' }),
    orderReference: t.exposeString('orderReference', { nullable: true, description: 'The payment\'s merchant_order_id or the payout\'s merchant_reference.' }),
    bankReference: t.exposeString('bankReference', { nullable: true, description: 'A payout\'s external_transfer_id.' }),
    gross: t.exposeString('gross', { nullable: true, description: 'Rand (`1234.56`); null on the opening and closing rows.' }),
    fee: t.exposeString('fee', { nullable: true, description: 'Rand, zero or negative; null on the opening and closing rows. gross + fee = net.' }),
    net: t.exposeString('net', { nullable: true, description: 'Rand: the entry\'s amount; null on the opening and closing rows.' }),
    balance: t.exposeString('balance', { description: 'Rand: the balance after this row (the opening or closing balance on those rows).' }),
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
    accountingRows: t.field({
      type: [AccountingRowRef],
      description: 'The statement for bookkeepers, row by row as REST `format=accounting` writes them: the opening row, one row per entry, the closing row.',
      resolve: (s) => accountingRows(s),
    }),
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
