import { API_KEY_STATUSES, KEY_ISSUERS } from '../../domain/api-key.ts';
import { INTENT_TYPES, PAYMENT_STATUSES, TERMINAL_PAYMENT_STATUSES } from '../../domain/payment.ts';
import { PAYOUT_STATUSES } from '../../domain/payout.ts';
import { builder } from '../builder.ts';

/** GraphQL enums are the REST values in upper case (CONTRACT §8: `PENDING` is REST's `pending`). */
function upper<T extends string>(values: readonly T[], descriptions: Record<T, string>) {
  return Object.fromEntries(values.map((v) => [v.toUpperCase(), { value: v, description: descriptions[v] }])) as Record<
    Uppercase<T>,
    { value: T; description: string }
  >;
}

export const PayoutStatusEnum = builder.enumType('PayoutStatus', {
  description: 'Where a payout is in its life (spec "Payout states"). REST writes these in lower case.',
  values: upper(PAYOUT_STATUSES, {
    pending: 'Awaiting the operator\'s approval; the gross amount is reserved.',
    approved: 'Approved, ready for transfer; still reserved.',
    processing: 'The bank transfer has started; still reserved.',
    completed: 'The transfer succeeded; the amount and fee are deducted. Terminal.',
    failed: 'The transfer failed; the reservation is released. Terminal.',
    rejected: 'Rejected (or cancelled) by the operator; the reservation is released. Terminal.',
  }),
});

export const PayoutMethodEnum = builder.enumType('PayoutMethod', {
  description: 'How a payout is paid: only EFT (electronic funds transfer) to a South African bank account.',
  values: upper(['eft'] as const, { eft: 'Electronic funds transfer to the account in paymentDetails.' }),
});

export const PersonRoleEnum = builder.enumType('PersonRole', {
  description: 'What a person may do in the dashboard and through GraphQL with their session, and the most a key they issue may do (docs/access.md).',
  values: {
    DEVELOPER: { value: 'developer', description: 'API keys and webhooks, and reading everything.' },
    OWNER: { value: 'owner', description: 'Everything: people (from a session only), payments, payouts, refunds, keys, webhooks, settings.' },
    VIEWER: { value: 'viewer', description: 'Reading only.' },
  },
});

export const ApiKeyIssuerEnum = builder.enumType('ApiKeyIssuer', {
  description: 'Who issued a secret key.',
  values: upper(KEY_ISSUERS, {
    merchant: 'The merchant\'s first credentials, made with the merchant (and keys from before issuers were recorded).',
    operator: 'The operator (account manager), with `zarpay key issue`.',
    person: 'One of the merchant\'s people (issuedByPerson); removing them revokes it.',
  }),
});

export const ApiKeyStatusEnum = builder.enumType('ApiKeyStatus', {
  description: 'Whether a secret key still authenticates.',
  values: upper(API_KEY_STATUSES, {
    active: 'Authenticates requests.',
    revoked: 'Refused with FORBIDDEN (replaced by regenerate, or revoked by the operator).',
    expired: 'Refused with FORBIDDEN since its expiry.',
  }),
});

export const PaymentStatusEnum = builder.enumType('PaymentStatus', {
  description: 'Where a payment is in its life (spec "Payment states"). REST writes these in lower case.',
  values: upper(PAYMENT_STATUSES, {
    created: 'Initiated by the merchant; the customer has not started paying.',
    initiated: 'The customer started checkout with the provider.',
    awaiting_webhook: 'The provider is processing; its confirmation is awaited.',
    captured: 'Paid. With auto top-up the net amount was credited to the balance. Terminal.',
    failed: 'The payment failed; the customer was not charged. Terminal.',
    cancelled: 'The customer cancelled before paying. Terminal.',
  }),
});

export const IntentTypeEnum = builder.enumType('PaymentIntentType', {
  description: 'What happens after payment (spec "Intent types").',
  values: upper(INTENT_TYPES, {
    purchase: 'A voucher is issued and its code shown to the customer to keep.',
    purchase_and_redeem: 'A voucher is issued and redeemed at once; the customer is redirected to successUrl.',
  }),
});

export const PaymentOutcomeEnum = builder.enumType('PaymentOutcome', {
  description: 'The terminal states a payment can be settled into.',
  values: upper(TERMINAL_PAYMENT_STATUSES, {
    captured: 'As if the provider confirmed the payment.',
    failed: 'As if the provider declined it.',
    cancelled: 'As if the customer cancelled.',
  }),
});

export const WebhookSecretStatusEnum = builder.enumType('WebhookSecretStatus', {
  description: 'Whether a webhook secret signs deliveries (spec "Webhook secret states").',
  values: upper(['active', 'rotating', 'disabled'] as const, {
    active: 'Signs every delivery.',
    rotating: 'Rotated out; still signs (second signature) until rotatingUntil.',
    disabled: 'Signs nothing any more.',
  }),
});

export const WebhookDeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', {
  description: 'Where a webhook delivery is.',
  values: upper(['pending', 'succeeded', 'failed'] as const, {
    pending: 'To be attempted, or retried at nextAttemptAt.',
    succeeded: 'The receiver answered 2xx.',
    failed: 'Every attempt failed; the operator can redeliver the event.',
  }),
});
