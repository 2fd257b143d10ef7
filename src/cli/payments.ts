import type { Command } from 'commander';
import { oneOf, uuid } from './args.ts';
import { restShape } from './client.ts';
import { op, print } from './output.ts';

/** The payment status object of REST (`GET /api/v1/payments/{id}`) plus merchant_order_id. */
export const PAYMENT = `paymentId status amount currency feeCents netAmountCents
  latestAttempt { status provider providerRef createdAt } voucherCode voucherRedeemed refundedCents merchantOrderId`;

/** restShape leaves nulls out; the payment object keeps `net_amount_cents` and `voucher_code` as REST does. */
function paymentShape(p: Record<string, unknown>) {
  return { ...(restShape(p) as object), net_amount_cents: p.netAmountCents ?? null, voucher_code: p.voucherCode ?? null };
}

const OUTCOMES = ['captured', 'failed', 'cancelled'] as const;
const FLAGS = { id: '<payment-id>', o: '--outcome' };

/** `zarpay payment …` (CONTRACT §7). */
export function paymentCommands(program: Command) {
  const payment = program.command('payment').description('look at payments; settle sandbox payments');
  payment
    .command('settle')
    .description('end an open payment as the provider (or customer) would; tst/dev only')
    .argument('<payment-id>', 'the payment', uuid('<payment-id>'))
    .requiredOption('--outcome <outcome>', OUTCOMES.join(', '), oneOf('--outcome', OUTCOMES))
    .action(async (id: string, opts: { outcome: string }) => {
      const data = await op(
        `mutation($id: UUID!, $o: PaymentOutcome!) { settlePayment(id: $id, outcome: $o) { payment { ${PAYMENT} } } }`,
        { id, o: opts.outcome.toUpperCase() },
        FLAGS,
      );
      print(paymentShape(data.settlePayment.payment));
    });
  payment
    .command('show')
    .description('one payment, as the merchant would see it')
    .argument('<payment-id>', 'the payment', uuid('<payment-id>'))
    .action(async (id: string) => {
      const data = await op(`query($id: UUID!) { payment(id: $id) { ${PAYMENT} } }`, { id }, FLAGS);
      print(paymentShape(data.payment));
    });
  payment
    .command('reconcile')
    .description('ask the payment provider about the payment now and apply its answer (every environment; audited)')
    .argument('<payment-id>', 'the payment', uuid('<payment-id>'))
    .action(async (id: string) => {
      const data = await op(`mutation($id: UUID!) { reconcilePayment(id: $id) { payment { ${PAYMENT} } } }`, { id }, FLAGS);
      print(paymentShape(data.reconcilePayment.payment));
    });
  payment
    .command('notify')
    .description("send a captured payment's confirmation to its customer again (e-mail and/or SMS; audited)")
    .argument('<payment-id>', 'the payment', uuid('<payment-id>'))
    .option('--email', 'by e-mail only (with --sms: both)')
    .option('--sms', 'by SMS only (with --email: both)')
    .addHelpText('after', '\nWithout --email or --sms: every channel that is on (SMTP_URL, SMS_URL) and that the customer gave an address for.')
    .action(async (id: string, opts: { email?: boolean; sms?: boolean }) => {
      const channels = [...(opts.email ? ['EMAIL'] : []), ...(opts.sms ? ['SMS'] : [])];
      const data = await op(
        `mutation($id: UUID!, $channels: [CustomerChannel!]) { notifyPayment(id: $id, channels: $channels) { payment { paymentId } channels { channel state } } }`,
        { id, channels: channels.length > 0 ? channels : null },
        FLAGS,
      );
      const { payment, channels: queued } = data.notifyPayment as { payment: { paymentId: string }; channels: { channel: string; state: string }[] };
      print({ payment_id: payment.paymentId, channels: queued.map((c) => ({ channel: c.channel.toLowerCase(), state: c.state })) });
    });
}
