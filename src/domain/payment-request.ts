import { z } from 'zod';
import { PLATFORM_MAX_CENTS } from './merchant.ts';
import { nonBlank, optional, withCode } from './validation.ts';

/**
 * A one-off payment request (CONTRACT §11, docs/links.md): the owner names the amount, what it is
 * for and the customer's e-mail; zarpay makes the payment and e-mails the customer its page. By
 * e-mail only: an SMS from zarpay never carries a link.
 */
export const requestPaymentInput = z
  .strictObject({
    amountCents: withCode(
      z
        .number()
        .int('must be a whole number of cents')
        .min(1, "must be within this merchant's payment limits")
        .max(PLATFORM_MAX_CENTS, "must be within this merchant's payment limits")
        .meta({ description: "Cents, within the merchant's payment limits", example: 45000 }),
      'INVALID_AMOUNT',
    ),
    description: nonBlank(200).meta({ description: 'What the customer pays for, in the e-mail and on the payment page (1 to 200 characters)', example: 'Invoice 1042: plumbing' }),
    customerEmail: z.email('must be an e-mail address').max(254, 'must be at most 254 characters').meta({ description: 'Where the request goes', example: 'thandi@example.co.za' }),
    merchantOrderId: optional(
      z.string().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters').meta({
        description: "The merchant's order id (unique per merchant: the same request again replays it and sends nothing more); absent: zarpay makes one, `request-{uuid}`",
        example: 'INV-1042',
      }),
    ),
  })
  .meta({ id: 'PaymentRequestRequest' });
export type RequestPaymentInput = z.output<typeof requestPaymentInput>;
