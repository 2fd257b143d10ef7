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
const FLAGS = { id: '<refund-id>', o: '--outcome', merchantId: '--merchant', paymentId: '--payment' };

/** `zarpay refund …` (CONTRACT §10). */
export function refundCommands(program: Command) {
  const refund = program.command('refund').description('look at refunds; settle sandbox refunds');
  refund
    .command('list')
    .description('refunds, newest first')
    .option('--merchant <merchant-id>', 'only this merchant\'s', uuid('--merchant'))
    .option('--payment <payment-id>', 'only this payment\'s', uuid('--payment'))
    .action(async (opts: { merchant?: string; payment?: string }) => {
      const data = await op(
        `query($merchantId: UUID, $paymentId: UUID) { refunds(merchantId: $merchantId, paymentId: $paymentId, limit: 100) { refunds { ${REFUND} } total } }`,
        { merchantId: opts.merchant ?? null, paymentId: opts.payment ?? null },
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
}
