import { type Command, InvalidArgumentError } from 'commander';
import { graphql, resolveTarget, restShape } from './client.ts';

/** The payment status object of REST (`GET /api/v1/payments/{id}`) plus merchant_order_id. */
export const PAYMENT = `paymentId status amount currency feeCents netAmountCents
  latestAttempt { status provider providerRef createdAt } merchantOrderId`;

const OUTCOMES = ['captured', 'failed', 'cancelled'];

/** `zarpay payment …` (CONTRACT §7). */
export function paymentCommands(program: Command) {
  const payment = program.command('payment').description('payments');
  payment
    .command('settle')
    .description('end an open payment as the provider (or customer) would; tst/dev only')
    .argument('<id>', 'payment id')
    .requiredOption('--outcome <outcome>', 'captured, failed or cancelled', (raw: string) => {
      if (!OUTCOMES.includes(raw)) throw new InvalidArgumentError('expected captured, failed or cancelled');
      return raw;
    })
    .action(async (id: string, opts: { outcome: string }) => {
      const data = await graphql(
        resolveTarget(),
        `mutation($id: UUID!, $o: PaymentOutcome!) { settlePayment(id: $id, outcome: $o) { payment { ${PAYMENT} } } }`,
        { id, o: opts.outcome.toUpperCase() },
      );
      process.stdout.write(JSON.stringify(restShape(data.settlePayment.payment), null, 2) + '\n');
    });
  payment
    .command('show')
    .description('one payment, as the merchant would see it')
    .argument('<id>', 'payment id')
    .action(async (id: string) => {
      const data = await graphql(resolveTarget(), `query($id: UUID!) { payment(id: $id) { ${PAYMENT} } }`, { id });
      process.stdout.write(JSON.stringify(restShape(data.payment), null, 2) + '\n');
    });
}
