import type { AuditEntry } from '../../db/audit.ts';
import { z } from 'zod';
import { actorOf, builder } from '../builder.ts';
import { validated } from '../validation.ts';

const AuditEntryRef = builder.objectRef<AuditEntry & { summary: string }>('AuditEntry').implement({
  description: 'One action on a payment or payout, by an operator or by zarpay itself.',
  fields: (t) => ({
    id: t.string({ description: 'Its position in the log (newest is highest).', resolve: (e) => String(e.id) }),
    at: t.expose('at', { type: 'DateTime', description: 'When.' }),
    actor: t.exposeString('actor', { description: 'Who: `operator`, `operator:<name>` (X-Operator-Name, the CLI sends ZARPAY_OPERATOR or the login name), `merchant:<id>` (an API key), `merchant:<id>/person:<id>` (a person in the dashboard), or `system:<task>`.' }),
    action: t.exposeString('action', { description: 'What: `payment.settle`, `payment.reconcile`, `payout.approve`, `payout.reveal_bank_account`, …' }),
    merchantId: t.expose('merchantId', { type: 'UUID', nullable: true, description: 'Whose.' }),
    paymentId: t.expose('paymentId', { type: 'UUID', nullable: true, description: 'The payment, if any.' }),
    payoutId: t.expose('payoutId', { type: 'UUID', nullable: true, description: 'The payout, if any.' }),
    detail: t.expose('detail', { type: 'JSON', description: 'What was found and done (never an account number or a voucher code).' }),
    amountCents: t.expose('amountCents', { type: 'Money', nullable: true, description: 'The amount of the payout, or else the payment, the entry is about; null without one.' }),
    summary: t.exposeString('summary', { description: 'The entry in words: who did what, to which payout or payment, and its amount ("owner@shop.example created payout 3f2504e0 of R 250.00"), in the reader\'s language: a dashboard person\'s own (setLanguage), English for an API key and the operator.' }),
  }),
});

builder.queryFields((t) => ({
  auditLog: t.field({
    type: [AuditEntryRef],
    description: 'The audit log, newest first: the operator every merchant\'s, a merchant\'s owner its own (FORBIDDEN for other roles).',
    authScopes: { merchant: true, operator: true },
    args: {
      paymentId: t.arg({ type: 'UUID', description: 'Only this payment\'s entries.' }),
      payoutId: t.arg({ type: 'UUID', description: 'Only this payout\'s entries.' }),
      first: t.arg.int({
        description: 'At most this many (1 to 500, default 100).',
        validate: validated(z.number().int().min(1, 'must be 1 to 500').max(500, 'must be 1 to 500')),
      }),
      offset: t.arg.int({
        description: 'Skip this many first (0 to 10000; default 0): the next page starts at offset + first.',
        validate: validated(z.number().int().min(0, 'must be 0 to 10000').max(10_000, 'must be 0 to 10000')),
      }),
    },
    resolve: (_r, args, ctx) => ctx.services.audit.list(actorOf(ctx), { paymentId: args.paymentId, payoutId: args.payoutId, limit: args.first ?? 100, offset: args.offset ?? 0 }),
  }),
}));
