import { CHANNELS } from '../../domain/customer-messages.ts';
import type { Notified } from '../../services/customer-messages.ts';
import { actorOf, builder } from '../builder.ts';
import { PaymentRef } from './payment.ts';

const CustomerChannelEnum = builder.enumType('CustomerChannel', {
  description: 'How a customer gets a payment\'s confirmation.',
  values: Object.fromEntries(
    CHANNELS.map((c) => [c.toUpperCase(), { value: c, description: c === 'email' ? 'E-mail to customer_info.email (SMTP_URL).' : 'SMS to customer_info.phone (SMS_URL).' }]),
  ) as Record<'EMAIL' | 'SMS', { value: (typeof CHANNELS)[number]; description: string }>,
});

const NotifiedChannelRef = builder.objectRef<Notified['channels'][number]>('NotifiedChannel').implement({
  description: 'One channel of a resent confirmation.',
  fields: (t) => ({
    channel: t.expose('channel', { type: CustomerChannelEnum, description: 'The channel.' }),
    state: t.exposeString('state', { description: '`queued`: due now, its tries counted afresh; `sending`: a runner is sending it at this moment.' }),
  }),
});

const NotifyPaymentPayload = builder.objectRef<Notified>('NotifyPaymentPayload').implement({
  description: 'What was queued to send again.',
  fields: (t) => ({
    payment: t.field({ type: PaymentRef, description: 'The payment.', resolve: (n) => n.paymentId }),
    channels: t.field({ type: [NotifiedChannelRef], description: 'Each channel the confirmation goes out on again.', resolve: (n) => n.channels }),
  }),
});

builder.mutationFields((t) => ({
  notifyPayment: t.field({
    type: NotifyPaymentPayload,
    description:
      'Sends a captured payment\'s confirmation to its customer again, e-mail and/or SMS (operator only; audited; CLI `zarpay payment notify`): queued now with its tries counted afresh, whether it was sent, failed for good or is waiting for a retry. For PURCHASE it carries the voucher code. Errors: PAYMENT_NOT_FOUND, INVALID_STATUS_TRANSITION when the payment is not CAPTURED, VALIDATION_FAILED when a channel is off or the payment has no address for it (or for any channel that is on), FORBIDDEN for a merchant.',
    authScopes: { operator: true },
    args: {
      id: t.arg({ type: 'UUID', required: true, description: 'The payment id.' }),
      channels: t.arg({ type: [CustomerChannelEnum], description: 'Only these channels; default every channel that is on and that the customer gave an address for.' }),
    },
    resolve: (_r, { id, channels }, ctx) => ctx.services.customerMessages.notify(actorOf(ctx), id, channels),
  }),
}));
