import type { Command } from 'commander';
import { oneOf, uuid } from './args.ts';
import { restShape } from './client.ts';
import { op, print } from './output.ts';

/** The refund object of REST (`GET /api/v1/refunds/{id}`). */
export const REFUND = `refundId: id paymentId status amountCents currency reason merchantReference failureReason createdAt completedAt`;

/** restShape leaves nulls out; the refund object keeps `reason` and `merchant_reference` as REST does. */
function refundShape(r: Record<string, unknown>) {
  return { ...(restShape(r) as object), reason: r.reason ?? null, merchant_reference: r.merchantReference ?? null };
}

const OUTCOMES = ['succeeded', 'failed'] as const;
const FLAGS = { id: '<refund-id>', o: '--outcome', note: '--note', merchantId: '--merchant', paymentId: '--payment' };

/** `zarpay refund …` (CONTRACT §10). */
export function refundCommands(program: Command) {
  const refund = program.command('refund').description('look at refunds; resolve overdue ones; settle sandbox refunds');
  refund
    .command('list')
    .description('refunds, newest first')
    .option('--merchant <merchant-id>', 'only this merchant\'s', uuid('--merchant'))
    .option('--payment <payment-id>', 'only this payment\'s', uuid('--payment'))
    .option('--stale', 'only those pending past REFUND_PENDING_ALERT_MS (24 hours): their provider never said how they went')
    .action(async (opts: { merchant?: string; payment?: string; stale?: boolean }) => {
      const data = await op(
        `query($merchantId: UUID, $paymentId: UUID, $stale: Boolean) { refunds(merchantId: $merchantId, paymentId: $paymentId, stale: $stale, limit: 100) { refunds { ${REFUND} } total } }`,
        { merchantId: opts.merchant ?? null, paymentId: opts.payment ?? null, stale: opts.stale ?? null },
        FLAGS,
      );
      print({ refunds: data.refunds.refunds.map(refundShape), total: data.refunds.total });
    });
  refund
    .command('show')
    .description('one refund, as the merchant would see it')
    .argument('<refund-id>', 'the refund', uuid('<refund-id>'))
    .action(async (id: string) => {
      const data = await op(`query($id: UUID!) { refund(id: $id) { ${REFUND} } }`, { id }, FLAGS);
      print(refundShape(data.refund));
    });
  refund
    .command('settle')
    .description('end a pending refund as its provider would; tst/dev only (audited)')
    .argument('<refund-id>', 'the refund', uuid('<refund-id>'))
    .requiredOption('--outcome <outcome>', OUTCOMES.join(', '), oneOf('--outcome', OUTCOMES))
    .action(async (id: string, opts: { outcome: string }) => {
      const data = await op(
        `mutation($id: UUID!, $o: RefundOutcome!) { settleRefund(id: $id, outcome: $o) { refund { ${REFUND} } } }`,
        { id, o: opts.outcome.toUpperCase() },
        FLAGS,
      );
      print(refundShape(data.settleRefund.refund));
    });
  refund
    .command('resolve')
    .description('record how an overdue refund went, after checking with its provider; every environment (audited, with the note)')
    .argument('<refund-id>', 'the refund, pending past REFUND_PENDING_ALERT_MS', uuid('<refund-id>'))
    .requiredOption('--outcome <outcome>', `what the provider says: ${OUTCOMES.join(', ')}`, oneOf('--outcome', OUTCOMES))
    .requiredOption('--note <note>', 'how you know (e.g. the provider\'s reference), for the audit log; the merchant never sees it')
    .action(async (id: string, opts: { outcome: string; note: string }) => {
      const data = await op(
        `mutation($id: UUID!, $o: RefundOutcome!, $note: String!) { resolveRefund(id: $id, outcome: $o, note: $note) { refund { ${REFUND} } } }`,
        { id, o: opts.outcome.toUpperCase(), note: opts.note },
        FLAGS,
      );
      print(refundShape(data.resolveRefund.refund));
    });
}
