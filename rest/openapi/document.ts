import { z } from 'zod';
import type { ServiceEnv } from '../../src/config.ts';
import { createDocument } from 'zod-openapi';
import { apiKeyRecordJson } from '../../src/domain/api-key.ts';
import { balanceJsonSchema, balanceQuery } from '../../src/domain/balance.ts';
import { BANK_REPORT_BODY_LIMIT, bankReportJsonSchema } from '../../src/domain/bank-report-json.ts';
import { merchantSettingsInput, merchantSettingsJsonSchema } from '../../src/domain/merchant.ts';
import type { ErrorCode } from '../../src/domain/errors.ts';
import { idempotencyKeyInput, initiatePaymentInput, listPaymentsQuery } from '../../src/domain/payment-input.ts';
import { paymentInitiationJsonSchema, paymentJsonSchema } from '../../src/domain/payment-json.ts';
import { createPaymentLinkInput, listPaymentLinksQuery, paymentLinkJsonSchema, updatePaymentLinkInput } from '../../src/domain/payment-link.ts';
import { paymentRequestJsonSchema, requestPaymentInput } from '../../src/domain/payment-request.ts';
import { createPayoutInput, listPayoutsQuery } from '../../src/domain/payout-input.ts';
import { payoutJsonSchema } from '../../src/domain/payout-json.ts';
import { MAX_PAYEES, payeeJsonSchema } from '../../src/domain/payee.ts';
import { createRefundInput, listMerchantRefundsQuery, listRefundsQuery, refundJsonSchema } from '../../src/domain/refund.ts';
import { statementJsonSchema, statementQuery } from '../../src/domain/statement.ts';
import { snakeCase, wire } from '../wire.ts';
import { errorSchema, initiationMetadataSchema, rotatedWebhookSecretSchema, successOf, webhookSecretSchema } from './schemas.ts';

/** One documented operation: its responses by status, with the error codes each can carry. */
interface ResponseDoc {
  description: string;
  schema: z.ZodType;
  codes?: ErrorCode[];
  /** Other media types the answer may take (content negotiation), each with its schema and an example. */
  alternatives?: Record<string, { schema: z.ZodType; example: string }>;
}

/**
 * A request a client can send as it stands (test/openapi-examples.test.ts sends each one, on a
 * merchant with a balance, and expects `status`).
 */
interface ExampleDoc {
  summary: string;
  value: unknown;
  status: number;
}

const error = (description: string, codes: ErrorCode[]): ResponseDoc => ({ description, schema: errorSchema, codes });

/** Every route refuses query parameters it does not take (a typo never passes silently). */
const badQuery = error('A query parameter this operation does not take', ['VALIDATION_FAILED']);

/** Errors every authenticated endpoint can give. */
const common: Record<string, ResponseDoc> = {
  '401': error('Missing, malformed, unknown or wrong-environment API key (the X-API-Key header), or an API key sent as Authorization: Bearer', ['UNAUTHORIZED']),
  '403': error('API key revoked or expired', ['FORBIDDEN']),
  '429': error(
    "Over the per-minute rate limit for this operation, or, without a valid key, over this client address's budget (RATE_LIMITS anonymous); retry after Retry-After seconds",
    ['RATE_LIMIT_EXCEEDED'],
  ),
  '500': error('Unexpected failure; nothing internal is disclosed', ['INTERNAL_ERROR']),
  '503': error('Temporary outage (database unreachable); retry with backoff', ['SERVICE_UNAVAILABLE']),
};

const payoutId = z.object({ payout_id: z.uuid().meta({ description: 'The payout id', example: '3f1c9a52-8a43-4c1e-9a57-5d2f0e2b7c11' }) });
const paymentId = z.object({ payment_id: z.uuid().meta({ description: 'The payment id', example: '9b2e4c1a-6d0f-4e3b-8a71-2c5d9f04e6b8' }) });

const linkId = z.object({ link_id: z.uuid().meta({ description: 'The payment link id', example: '5d2f0e2b-8a43-4c1e-9a57-3f1c9a527c11' }) });

const refundId = z.object({ refund_id: z.uuid().meta({ description: 'The refund id', example: '7b0e4c1a-2f7d-4d8e-9a57-5d2f0e2b7c11' }) });

const eft = { account_number: '62012345678', branch_code: '250655', account_holder: 'Thandi Nkosi', bank_name: 'FNB' };

/** A query's schema under the names REST callers send (`merchant_order_id`), for the document. */
function wireQuery(schema: z.ZodObject, overrides: Record<string, z.ZodType> = {}): z.ZodObject {
  return z.strictObject(Object.fromEntries(Object.entries(schema.shape).map(([k, v]) => [snakeCase(k), overrides[snakeCase(k)] ?? (v as z.ZodType)])));
}

export const OPERATIONS = {
  '/api/v1/payments/init': {
    post: {
      operationId: 'initiatePayment',
      summary: 'Initiate a payment and get its hosted payment page (and QR code)',
      description:
        'Creates a payment within the merchant\'s payment limits (`GET /api/v1/merchant` `payment_limits`; 5500 to 300000 cents unless set otherwise) and returns the hosted page (`payment_url`) to send the customer to, or a signed QR code. ' +
        'A repeat with the same `Idempotency-Key` and an equal body returns the first answer; the same `merchant_order_id` with the same parameters returns the same payment.',
      tags: ['Payments'],
      examples: {
        minimal: { summary: 'The required fields only', status: 200, value: { amount: 12345, currency: 'ZAR', merchant_order_id: 'ORD-1001' } },
        voucher: {
          summary: 'A voucher bought on the hosted page, with a QR code and a description',
          status: 200,
          value: {
            amount: 25000,
            currency: 'ZAR',
            merchant_order_id: 'ORD-1002',
            intent_type: 'purchase',
            include_qr: true,
            description: 'Two tickets, Saturday 20:00',
            customer_info: { email: 'thandi@example.co.za' },
          },
        },
      },
      // In prd every URL must be https; the sandbox also accepts http.
      body: wire(initiatePaymentInput),
      headers: z.object({
        'Idempotency-Key': idempotencyKeyInput
          .optional()
          .meta({ description: 'Recommended: {merchant_order_id}-{timestamp}-{random}; kept 24 hours', example: 'ORD-1001-1795316000-x7' }),
      }),
      responses: {
        '200': { description: 'Created (or replayed by Idempotency-Key or merchant_order_id)', schema: successOf(paymentInitiationJsonSchema, initiationMetadataSchema) },
        '400': error('Invalid request', ['INVALID_INPUT', 'VALIDATION_FAILED', 'INVALID_AMOUNT', 'INVALID_CURRENCY']),
        '409': error('Idempotency-Key reused with another payload (CONFLICT), or merchant_order_id with other parameters (DUPLICATE_ORDER_ID)', [
          'CONFLICT',
          'DUPLICATE_ORDER_ID',
        ]),
        '413': error('Body larger than 64 KiB', ['INVALID_INPUT']),
        ...common,
      },
    },
  },
  '/api/v1/payments': {
    get: {
      operationId: 'listPayments',
      summary: 'List payments, newest first',
      description:
        'A page of the merchant\'s payments (newest first, `limit` 1 to 100, default 50), each as GET /api/v1/payments/{payment_id} answers it, and how many match the filter. ' +
        'Filters, all optional and combined: one `status`; `merchant_order_id` (the payment of that order); `created_from` and `created_to`, both included, each a day (YYYY-MM-DD in Africa/Johannesburg: from its start, to its end) or an ISO 8601 timestamp with its offset; ' +
        '`q`, a search that finds a sale as an owner remembers it: the order id (exactly, or the payments whose order id starts with it), the amount in rand (`100,50`, `100.50`, `R 100,50`: with a comma or a dot), or the customer\'s e-mail address (the whole address, any case); a payment matching any of these readings is found (GraphQL `payments(search:)`). Rate limit: payment status.',
      tags: ['Payments'],
      query: wireQuery(listPaymentsQuery, {
        merchant_order_id: z.string().min(1).max(255).optional().meta({ description: 'Only the payment of this order id (the merchant\'s own, not a zarpay id)', example: 'ORD-1001' }),
      }),
      responses: {
        '200': {
          description: 'A page of payments and the number matching the filter',
          schema: successOf(
            z
              .object({
                payments: z.array(paymentJsonSchema).max(100),
                total: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).meta({ format: 'int64', description: 'Payments matching the filter' }),
              })
              .strict(),
          ),
        },
        '400': error('A query parameter out of range or not taken here', ['VALIDATION_FAILED']),
        ...common,
      },
    },
  },
  '/api/v1/payments/{payment_id}': {
    get: {
      operationId: 'getPayment',
      summary: 'Read a payment\'s status, fee, latest attempt and voucher',
      description:
        'The payment as it is now: its status, the fee fixed at initiation, the net amount (null once failed or cancelled), the latest attempt with its provider, and the voucher once captured.',
      tags: ['Payments'],
      path: paymentId,
      responses: {
        '200': { description: 'The payment', schema: successOf(paymentJsonSchema) },
        '400': badQuery,
        '404': error('Unknown, malformed or another merchant\'s id', ['PAYMENT_NOT_FOUND']),
        ...common,
      },
    },
  },
  '/api/v1/payments/{payment_id}/refunds': {
    post: {
      operationId: 'createRefund',
      summary: 'Refund a captured payment, in full or in part',
      description:
        'Gives back `amount_cents` of a captured payment (default: all that is still refundable, the amount less its pending and succeeded refunds) through the provider that took it. ' +
        'The amount is reserved on the balance at once (like a payout: INSUFFICIENT_BALANCE when it is not available) and leaves it when the provider confirms the refund (`refund.succeeded`); ' +
        'if the provider fails or refuses it the refund is `failed` with a `failure_reason`, the reservation is released and `refund.failed` is sent. The payment fee is not returned, and the payment stays `captured` ' +
        '(its `refunded_cents` grows). A repeat with the same `Idempotency-Key` and an equal body returns the first refund (200). The body may be left out: a full refund. Rate limit: refund.',
      tags: ['Refunds'],
      body: wire(createRefundInput),
      bodyOptional: true,
      headers: z.object({
        'Idempotency-Key': idempotencyKeyInput.optional().meta({ description: 'Kept 24 hours, as for payments', example: 'RET-1001-1795316000-a1' }),
      }),
      path: paymentId,
      responses: {
        '201': { description: 'The refund, pending', schema: successOf(refundJsonSchema) },
        '200': { description: 'Replayed by Idempotency-Key: the refund as it is now', schema: successOf(refundJsonSchema) },
        '400': error('Invalid request; an amount below 1 or above what is still refundable; a payment that is not captured; not enough available balance', [
          'INVALID_INPUT',
          'VALIDATION_FAILED',
          'INVALID_STATUS_TRANSITION',
          'INSUFFICIENT_BALANCE',
        ]),
        '404': error('Unknown, malformed or another merchant\'s payment', ['PAYMENT_NOT_FOUND']),
        '409': error('Idempotency-Key reused with another payload', ['CONFLICT']),
        '413': error('Body larger than 64 KiB', ['INVALID_INPUT']),
        ...common,
      },
    },
    get: {
      operationId: 'listRefunds',
      summary: 'List a payment\'s refunds, newest first',
      description: 'A page of the payment\'s refunds (newest first, `limit` 1 to 100, default 50) and how many it has. Rate limit: payment status.',
      tags: ['Refunds'],
      path: paymentId,
      query: listRefundsQuery,
      responses: {
        '200': {
          description: 'A page of refunds and the number the payment has',
          schema: successOf(
            z
              .object({
                refunds: z.array(refundJsonSchema).max(100),
                total: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).meta({ format: 'int64', description: 'Refunds of the payment' }),
              })
              .strict(),
          ),
        },
        '400': error('A query parameter out of range or not taken here', ['VALIDATION_FAILED']),
        '404': error('Unknown, malformed or another merchant\'s payment', ['PAYMENT_NOT_FOUND']),
        ...common,
      },
    },
  },
  '/api/v1/refunds': {
    get: {
      operationId: 'listMerchantRefunds',
      summary: 'List the merchant\'s refunds, newest first',
      description:
        'A page of every refund of the merchant, of all its payments (newest first, `limit` 1 to 100, default 50; `status` keeps one state), each naming its `payment_id`, and how many match. GraphQL: `Merchant.refunds` (a connection, `viewer { refunds }`). Rate limit: payment status.',
      tags: ['Refunds'],
      query: listMerchantRefundsQuery,
      responses: {
        '200': {
          description: 'A page of refunds and the number that match',
          schema: successOf(
            z
              .object({
                refunds: z.array(refundJsonSchema).max(100),
                total: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).meta({ format: 'int64', description: 'Refunds of the merchant that match' }),
              })
              .strict(),
          ),
        },
        '400': error('A query parameter out of range or not taken here', ['VALIDATION_FAILED']),
        ...common,
      },
    },
  },
  '/api/v1/refunds/{refund_id}': {
    get: {
      operationId: 'getRefund',
      summary: 'Read a refund',
      description: 'The refund as it is now: `pending` until the provider says how it went, then `succeeded` or `failed` (with `failure_reason`) and `completed_at`. Rate limit: payment status.',
      tags: ['Refunds'],
      path: refundId,
      responses: {
        '200': { description: 'The refund', schema: successOf(refundJsonSchema) },
        '400': badQuery,
        '404': error('Unknown, malformed or another merchant\'s refund', ['REFUND_NOT_FOUND']),
        ...common,
      },
    },
  },
  '/api/v1/payment-links': {
    post: {
      operationId: 'createPaymentLink',
      summary: 'Create a payment link: a page customers pay through, without code',
      description:
        'A link\'s page (`url`, `{PUBLIC_BASE_URL}/l/{link_id}`, and its QR code) shows the merchant\'s name, the description and the fixed `amount_cents` or, when that is absent or null, a field where the customer types the amount; ' +
        'each press of its pay button makes a payment of the merchant (within its payment limits) carrying `payment_link_id`. A `single_use` link closes once one of its payments is captured. Rate limit: payment init.',
      tags: ['Payment links'],
      examples: {
        fixed: { summary: 'A fixed amount', status: 201, value: { description: 'Guitar lesson, 45 minutes', amount_cents: 25000, merchant_reference: 'LESSONS-NOV' } },
        open: { summary: 'The customer types the amount, once', status: 201, value: { description: 'Donation to the school fund', single_use: true } },
      },
      body: wire(createPaymentLinkInput),
      responses: {
        '201': { description: 'Created, active', schema: successOf(paymentLinkJsonSchema) },
        '400': error('Invalid request, or a fixed amount outside the merchant\'s payment limits', ['INVALID_INPUT', 'VALIDATION_FAILED', 'INVALID_AMOUNT']),
        '413': error('Body larger than 64 KiB', ['INVALID_INPUT']),
        ...common,
      },
    },
    get: {
      operationId: 'listPaymentLinks',
      summary: 'List payment links, newest first',
      description: 'A page of the merchant\'s payment links (newest first, `limit` 1 to 100, default 50), each with its `payments_count` and `captured_cents`, and how many there are. Rate limit: payment init.',
      tags: ['Payment links'],
      query: listPaymentLinksQuery,
      responses: {
        '200': {
          description: 'A page of payment links and the number the merchant has',
          schema: successOf(
            z
              .object({
                payment_links: z.array(paymentLinkJsonSchema).max(100),
                total: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).meta({ format: 'int64', description: 'The merchant\'s payment links' }),
              })
              .strict(),
          ),
        },
        '400': error('A query parameter out of range or not taken here', ['VALIDATION_FAILED']),
        ...common,
      },
    },
  },
  '/api/v1/payment-requests': {
    post: {
      operationId: 'requestPayment',
      summary: 'Ask a customer to pay, by e-mail',
      description:
        'Makes a payment (`purchase_and_redeem`, the description, the customer\'s e-mail as its `customer_info.email`) and e-mails the customer its `payment_url`, as a job retried until the mail server takes it. ' +
        'By e-mail only (an SMS from zarpay never carries a link); where e-mail is off (SMTP_URL unset) it is VALIDATION_FAILED on `customer_email` and nothing is made. ' +
        'The same `merchant_order_id` and input again answer 200 with the same payment and send nothing more. An owner\'s (payments.request). Rate limit: payment init.',
      tags: ['Payment links'],
      examples: {
        catering: {
          summary: 'Catering, paid ahead by e-mail',
          status: 201,
          value: { amount_cents: 45000, description: 'Catering, 12 December', customer_email: 'naledi@example.co.za', merchant_order_id: 'REQ-1001' },
        },
      },
      body: wire(requestPaymentInput),
      responses: {
        '201': { description: 'Made; the e-mail is on its way', schema: successOf(paymentRequestJsonSchema) },
        '200': { description: 'A replay of an earlier request: nothing sent again', schema: successOf(paymentRequestJsonSchema) },
        '400': error('Invalid request, e-mail off on this service, or an amount outside the merchant\'s payment limits', ['INVALID_INPUT', 'VALIDATION_FAILED', 'INVALID_AMOUNT']),
        '409': error('The merchant_order_id was used with other values', ['DUPLICATE_ORDER_ID']),
        '413': error('Body larger than 64 KiB', ['INVALID_INPUT']),
        ...common,
      },
    },
  },
  '/api/v1/payment-links/{link_id}': {
    get: {
      operationId: 'getPaymentLink',
      summary: 'Read a payment link',
      description: 'The link with its counts: `payments_count` (payments made through it) and `captured_cents` (the sum of the captured ones). Rate limit: payment init.',
      tags: ['Payment links'],
      path: linkId,
      responses: {
        '200': { description: 'The payment link', schema: successOf(paymentLinkJsonSchema) },
        '400': badQuery,
        '404': error('Unknown, malformed or another merchant\'s id', ['NOT_FOUND']),
        ...common,
      },
    },
    patch: {
      operationId: 'updatePaymentLink',
      summary: 'Switch a payment link off (or on again)',
      description: 'With `{"active": false}` the link\'s page says it is closed (410) and makes no payment; `true` opens it again. Payments already made are untouched. Rate limit: payment init.',
      tags: ['Payment links'],
      path: linkId,
      examples: { close: { summary: 'Close the link', status: 200, value: { active: false } } },
      body: wire(updatePaymentLinkInput),
      responses: {
        '200': { description: 'The payment link as changed', schema: successOf(paymentLinkJsonSchema) },
        '400': error('Invalid request', ['INVALID_INPUT', 'VALIDATION_FAILED']),
        '404': error('Unknown, malformed or another merchant\'s id', ['NOT_FOUND']),
        '413': error('Body larger than 64 KiB', ['INVALID_INPUT']),
        ...common,
      },
    },
  },
  '/api/v1/payouts/balance': {
    get: {
      operationId: 'getBalance',
      summary: 'Read the payout balance',
      description:
        'The balance, what pending payouts reserve of it, what is available for new payouts, and the totals since the first credit. ' +
        'With `include=breakdown`, also `breakdown`: what made the balance, apart (payments in, their fees, operator credits, payouts, payout fees, refunds, returns), read in the same snapshot so that it adds up to `balance_cents` (GraphQL `Balance.breakdown`).',
      tags: ['Payouts'],
      query: wireQuery(balanceQuery),
      responses: { '200': { description: 'The balance', schema: successOf(balanceJsonSchema) }, '400': badQuery, ...common },
    },
  },
  '/api/v1/statements': {
    get: {
      operationId: 'getStatement',
      summary: 'Read a statement: the balance\'s movements over days, as JSON or CSV',
      description:
        'The movements of `balance_cents` from the start of `from` to the end of `to`, days in Africa/Johannesburg (UTC+2), both included, at most 366 days; oldest first. ' +
        'Each entry is a captured payment credited by auto top-up (its amount less its fee), an operator credit, a completed payout and its fee (two entries), or a refund; ' +
        'reservations move no balance and are not listed. `opening_balance_cents` + the sum of `amount_cents` = `closing_balance_cents`, as the ledger has them. ' +
        'The answer is streamed: `closing_balance_cents` and `total` follow the entries. With `Accept: text/csv` or `format=csv`, the entries as CSV (RFC 4180) under the header row ' +
        '`posted_at,type,reference,amount_cents,balance_after_cents,description`; the opening balance is in the `X-Opening-Balance-Cents` header. ' +
        'With `format=accounting` or `Accept: text/csv; profile=accounting`, the statement for bookkeepers (docs/statements.md): the header row ' +
        '`date,type,description,reference,order_reference,bank_reference,gross,fee,net,balance`, an `opening` row, one row per entry, a `closing` row; dates `YYYY-MM-DD HH:MM` in Africa/Johannesburg, ' +
        'amounts in rand with a dot (`1234.56`), `gross` + `fee` = `net` on every row and the sum of `net` = closing − opening balance. Rate limit: balance check.',
      tags: ['Statements'],
      query: statementQuery,
      responses: {
        '200': {
          description: 'The statement',
          schema: successOf(statementJsonSchema),
          alternatives: {
            'text/csv': {
              schema: z.string().max(1_000_000_000).meta({ description: 'The entries as CSV, one line each after the header row; or, asked for the accounting profile, the statement for bookkeepers' }),
              example: 'posted_at,type,reference,amount_cents,balance_after_cents,description\r\n2026-11-22T10:15:30.000Z,credit,,100000,100000,operator credit\r\n',
            },
          },
        },
        '400': error('A bad date, `from` after `to`, more than 366 days, or a query parameter not taken here', ['VALIDATION_FAILED']),
        ...common,
      },
    },
  },
  '/api/v1/payouts': {
    post: {
      operationId: 'createPayout',
      summary: 'Create an EFT payout (reserves the gross amount at once)',
      description:
        'Reserves `amount_cents` plus the merchant\'s payout fee from the available balance and queues the payout for an operator\'s approval. ' +
        'The account is `payment_details`, or a saved payee\'s (`payee_id`, from `GET /api/v1/payees`): exactly one of the two. ' +
        'A repeat with the same `merchant_reference` and identical parameters returns the existing payout (200).',
      tags: ['Payouts'],
      examples: {
        minimal: { summary: 'The required fields only', status: 201, value: { amount_cents: 25000, currency: 'ZAR', payout_method: 'eft', payment_details: eft } },
        referenced: {
          summary: 'With a reference (safe to retry), a description and metadata',
          status: 201,
          value: {
            amount_cents: 5000,
            currency: 'ZAR',
            payout_method: 'eft',
            merchant_reference: 'INV-1001',
            description: 'Supplier invoice 1001',
            metadata: { supplier: 'SUP-7' },
            payment_details: eft,
          },
        },
      },
      body: wire(createPayoutInput),
      responses: {
        '200': { description: 'Replay: the existing payout with this merchant_reference and identical parameters', schema: successOf(payoutJsonSchema) },
        '201': { description: 'Created, status pending', schema: successOf(payoutJsonSchema) },
        '400': error('Invalid request or insufficient balance', [
          'INVALID_INPUT',
          'VALIDATION_FAILED',
          'INVALID_CURRENCY',
          'INVALID_PAYOUT_METHOD',
          'INVALID_PAYMENT_DETAILS',
          'INSUFFICIENT_BALANCE',
        ]),
        '404': error('`payee_id` names no payee of this merchant (unknown or removed)', ['NOT_FOUND']),
        '409': error('merchant_reference already used with different parameters', ['CONFLICT']),
        '413': error('Body larger than 64 KiB', ['INVALID_INPUT']),
        ...common,
      },
    },
    get: {
      operationId: 'listPayouts',
      summary: 'List payouts, newest first',
      description: 'A page of the merchant\'s payouts (newest first, `limit` 1 to 100, default 50) and how many match the filter.',
      tags: ['Payouts'],
      query: listPayoutsQuery,
      responses: {
        '200': {
          description: 'A page of payouts and the number matching the filter',
          schema: successOf(
            z
              .object({
                payouts: z.array(payoutJsonSchema).max(100),
                total: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).meta({ format: 'int64', description: 'Payouts matching the filter' }),
              })
              .strict(),
          ),
        },
        '400': error('A query parameter out of range or not taken here', ['VALIDATION_FAILED']),
        ...common,
      },
    },
  },
  '/api/v1/payees': {
    get: {
      operationId: 'listPayees',
      summary: 'List the saved payees, to pay one by its id',
      description:
        'The bank accounts the merchant\'s owner saved in the dashboard (with their password re-entered), oldest first, at most 200, account numbers masked. ' +
        'Pay one with `payee_id` on `POST /api/v1/payouts`. Payees are added and removed in the dashboard only: no API key may. Rate limit: payout status.',
      tags: ['Payouts'],
      responses: {
        '200': {
          description: 'The payees',
          schema: successOf(z.object({ payees: z.array(payeeJsonSchema).max(MAX_PAYEES) }).strict()),
        },
        '400': badQuery,
        ...common,
      },
    },
  },
  '/api/v1/payouts/{payout_id}': {
    get: {
      operationId: 'getPayout',
      summary: 'Read one payout',
      description: 'The payout with the members of its state: `external_transfer_id` and `completed_at` once completed, `failure_reason` or `rejection_reason` when it ended otherwise.',
      tags: ['Payouts'],
      path: payoutId,
      responses: {
        '200': { description: 'The payout; optional members by state', schema: successOf(payoutJsonSchema) },
        '400': badQuery,
        '404': error('Unknown, malformed or another merchant\'s id', ['PAYOUT_NOT_FOUND']),
        ...common,
      },
    },
  },
  '/api/v1/merchant': {
    get: {
      operationId: 'getMerchantSettings',
      summary: 'Read the merchant\'s own settings',
      description: 'The webhook URL, the domains the hosted page may send customers back to, and the support e-mail and phone shown on the page. Rate limit: credentials.',
      tags: ['Merchant'],
      responses: { '200': { description: 'The settings', schema: successOf(merchantSettingsJsonSchema) }, '400': badQuery, ...common },
    },
    patch: {
      operationId: 'updateMerchantSettings',
      summary: 'Change the merchant\'s own settings',
      description:
        'Only the fields given change; null clears `webhook_url`, `support_email` or `support_phone`; `allowed_redirect_domains` replaces the list; `payment_methods` (`card`, `instant_eft`) limits the ways to pay the hosted page offers, null offers every one the service runs. ' +
        'A webhook URL follows the same rule as everywhere: http(s) outside production; in production https, never a loopback, private or link-local address. ' +
        'A payment\'s `success_url`, `cancel_url` and `failure_url` are followed only to hosts on `allowed_redirect_domains` (and in production only https on 443); an initiation names any that will not be followed in `metadata.warnings`. Rate limit: credentials.',
      tags: ['Merchant'],
      examples: {
        redirects: { summary: 'Allow the shop\'s domain for redirects', status: 200, value: { allowed_redirect_domains: ['shop.example.co.za'] } },
        support: { summary: 'Support contact shown on the payment page', status: 200, value: { support_email: 'help@shop.example.co.za', support_phone: '+27 21 555 0100' } },
      },
      body: wire(merchantSettingsInput),
      responses: {
        '200': { description: 'The settings as changed', schema: successOf(merchantSettingsJsonSchema) },
        '400': error('Invalid request', ['INVALID_INPUT', 'VALIDATION_FAILED']),
        '413': error('Body larger than 64 KiB', ['INVALID_INPUT']),
        ...common,
      },
    },
  },
  '/api/v1/merchant/api-keys/secret/regenerate': {
    post: {
      operationId: 'regenerateSecretKey',
      summary: 'Issue a new secret key and revoke the calling one at once',
      description: 'Returns the new key in full, once: store it before the answer is gone. The key that made the call stops working at once.',
      tags: ['Credentials'],
      responses: {
        '201': {
          description: 'The new key record and the full key (shown once)',
          schema: successOf(
            z
              .object({
                api_key: apiKeyRecordJson,
                full_key: z
                  .string()
                  .max(90)
                  .regex(/^sec1-(prd|tst|dev)-[a-z2-7]{12}-[0-9A-Za-z]{43}-[0-9A-Za-z]{6}$/)
                  .meta({ description: 'sec1-{env}-{kid}-{secret}-{checksum}', example: 'sec1-tst-nq6r2bxkbbi3-' + 'A'.repeat(43) + '-3pgar0' }),
              })
              .strict(),
          ),
        },
        '400': badQuery,
        ...common,
      },
    },
  },
  '/api/v1/merchant/webhooks/secret': {
    post: {
      operationId: 'createWebhookSecret',
      summary: 'Create the webhook signing secret (when none is active)',
      description: 'The secret that signs every webhook delivery (Standard Webhooks), shown once. With a secret already active, rotate it instead.',
      tags: ['Credentials'],
      responses: {
        '201': { description: 'The new active secret; the secret is never shown again', schema: successOf(webhookSecretSchema) },
        '400': badQuery,
        '409': error('A secret is already active: rotate it instead', ['CONFLICT']),
        ...common,
      },
    },
  },
  '/api/v1/merchant/webhooks/secret/rotate': {
    post: {
      operationId: 'rotateWebhookSecret',
      summary: 'Rotate the webhook signing secret: both sign for 24 hours',
      description: 'A new secret becomes active and the previous one keeps signing beside it until `rotating_until`, so receivers can switch without missing a delivery.',
      tags: ['Credentials'],
      responses: {
        '201': { description: 'The new active secret, and the previous one\'s kid and end of window', schema: successOf(rotatedWebhookSecretSchema) },
        '400': badQuery,
        ...common,
      },
    },
  },
  '/api/v1/operator/bank-reports': {
    post: {
      operationId: 'importBankReport',
      summary: 'Import the bank\'s camt.054 or camt.053 report (operator only), up to 32 MiB',
      description:
        'The operator\'s twin of GraphQL `importBankReport` and `zarpay payout batch import` for reports of any size a bank sends: the body is the report\'s XML as the bank wrote it (`application/xml` or `text/xml`), gzipped with `Content-Encoding: gzip` or not, ' +
        `at most ${BANK_REPORT_BODY_LIMIT / 1024 / 1024} MiB as sent and once unzipped (this route only; every other route keeps its 64 KiB). ` +
        'It is checked against the published schema of its own message version and stored with a job that applies it (completes the booked payouts, fails or returns the returned ones, reports the rest): the answer comes at once, `202` with `status: "applying"`; ' +
        'ask GraphQL `bankReport(id)` with its `report_id` until it is `applied`. The same file applied before changes nothing (`200`, `already_imported: true`). ' +
        'Authorization: `Bearer <OPERATOR_TOKEN>`; a merchant\'s API key is refused (403), and a request without credentials counts against its address\'s budget like any other.',
      tags: ['Operator'],
      operator: true,
      body: z.string().min(1).max(BANK_REPORT_BODY_LIMIT).meta({ description: 'The report\'s XML (ISO 20022 camt.054.001.02/.04/.08, camt.053.001.02/.03/.04/.08)' }),
      bodyTypes: ['application/xml', 'text/xml'],
      headers: z.object({
        'Content-Encoding': z.enum(['gzip', 'identity']).optional().meta({ description: 'gzip: the body is the report gzipped (XML shrinks about tenfold)', example: 'gzip' }),
      }),
      responses: {
        '202': { description: 'Stored and being applied by its job: ask bankReport(id) until status is applied', schema: successOf(bankReportJsonSchema) },
        '200': { description: 'The same file was applied in full before: nothing changed', schema: successOf(bankReportJsonSchema) },
        '400': error('Not XML sent as application/xml or text/xml, not valid gzip, empty, not a camt.054/053 report, invalid against its version\'s schema (the lines named), or a version whose schema is not shipped; a query parameter', [
          'INVALID_INPUT',
          'VALIDATION_FAILED',
        ]),
        '401': error('No operator token (Authorization: Bearer), or a wrong one', ['UNAUTHORIZED']),
        '403': error('A merchant\'s API key (this is the operator\'s), or a revoked or expired one', ['FORBIDDEN']),
        '413': error(`Body larger than ${BANK_REPORT_BODY_LIMIT / 1024 / 1024} MiB, as sent or once unzipped`, ['INVALID_INPUT']),
        '429': error('Without valid credentials: over this client address\'s budget (RATE_LIMITS anonymous); retry after Retry-After seconds', ['RATE_LIMIT_EXCEEDED']),
        '500': common['500']!,
        '503': common['503']!,
      },
    },
  },
} satisfies Record<string, Record<string, OperationDoc>>;

interface OperationDoc {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  body?: z.ZodType;
  /** The body's media types, when it is not JSON. */
  bodyTypes?: string[];
  /** The operator's (the operator token), not a merchant's. */
  operator?: boolean;
  /** A body the caller may leave out (every field has a default). */
  bodyOptional?: boolean;
  examples?: Record<string, ExampleDoc>;
  query?: z.ZodObject;
  path?: z.ZodObject;
  headers?: z.ZodObject;
  responses: Record<string, ResponseDoc>;
}

/** Every documented operation as `METHOD /path`, path parameters written `{}` (so `:id` and `{payout_id}` compare equal). */
export function documentedOperations(): string[] {
  return Object.entries(OPERATIONS as Record<string, Record<string, OperationDoc>>)
    .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`))
    .sort();
}

/**
 * The routes `/api/v1` serves and the operations the document describes are one table: a route
 * without its document, or a document without its route, is named here. The app refuses to start
 * with either, and test/openapi.test.ts shows the two lists equal.
 */
export function undocumented(routes: readonly string[]): { routes: string[]; operations: string[] } {
  const served = new Set(routes);
  const documented = new Set(documentedOperations());
  return { routes: [...served].filter((r) => !documented.has(r)).sort(), operations: [...documented].filter((o) => !served.has(o)).sort() };
}

/** Every documented request example, for the test that sends them. */
export function documentedExamples() {
  return Object.entries(OPERATIONS as Record<string, Record<string, OperationDoc>>).flatMap(([path, methods]) =>
    Object.entries(methods).flatMap(([method, op]) => Object.entries(op.examples ?? {}).map(([name, example]) => ({ path, method, name, ...example }))),
  );
}

/**
 * Bounds that a string's format implies: a UUID is 36 characters, an ISO timestamp as zarpay
 * writes it 24 (35 with every offset and fraction JSON Schema allows), and URLs are refused past
 * 2048 where they are inputs and made by zarpay (well below it) where they are outputs.
 */
const FORMAT_MAX_LENGTH: Record<string, number> = { uuid: 36, 'date-time': 35, uri: 2048, email: 254 };

/**
 * Rendering rules for every schema in the document, so generated clients get exact types:
 * - strings of a known format carry the length the format implies;
 * - integers are 64-bit with the bounds zod's `int()` enforces (safe integers) unless the schema
 *   narrows them;
 * - object keys need no schema of their own (`propertyNames: {type: string}` says nothing).
 */
function override({ jsonSchema }: { jsonSchema: Record<string, any> }) {
  if (jsonSchema.type === 'string' && jsonSchema.maxLength === undefined && jsonSchema.enum === undefined && jsonSchema.const === undefined) {
    const max = FORMAT_MAX_LENGTH[jsonSchema.format as string];
    if (max !== undefined) jsonSchema.maxLength = max;
  }
  if (jsonSchema.type === 'integer') {
    jsonSchema.format ??= 'int64';
    if (jsonSchema.minimum === undefined && jsonSchema.exclusiveMinimum === undefined) jsonSchema.minimum = Number.MIN_SAFE_INTEGER;
    if (jsonSchema.maximum === undefined && jsonSchema.exclusiveMaximum === undefined) jsonSchema.maximum = Number.MAX_SAFE_INTEGER;
  }
  if (jsonSchema.propertyNames?.type === 'string' && Object.keys(jsonSchema.propertyNames).length === 1) delete jsonSchema.propertyNames;
}

/** What the server list says this deployment is (keys of one environment work only there). */
const ENVIRONMENT: Record<ServiceEnv, string> = {
  prd: 'production (prd keys)',
  tst: 'sandbox (tst keys): no real money moves',
  dev: 'local development (dev keys)',
};

/** The OpenAPI 3.1 document of `/api/v1`, built from the schemas the adapter validates with. */
export function openApiDocument(serverUrl: string, serviceEnv: ServiceEnv = 'prd') {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, methods] of Object.entries(OPERATIONS) as [string, Record<string, OperationDoc>][]) {
    paths[path] = {};
    for (const [method, op] of Object.entries(methods)) {
      paths[path][method] = {
        operationId: op.operationId,
        summary: op.summary,
        description: op.description,
        tags: op.tags,
        security: [op.operator ? { OperatorToken: [] } : { ApiKey: [] }],
        ...((op.query || op.path || op.headers) && {
          requestParams: { ...(op.query && { query: op.query }), ...(op.path && { path: op.path }), ...(op.headers && { header: op.headers }) },
        }),
        ...(op.body && {
          requestBody: {
            required: !op.bodyOptional,
            content: Object.fromEntries(
              (op.bodyTypes ?? ['application/json']).map((type) => [
                type,
                {
                  schema: op.body,
                  ...(op.examples && {
                    examples: Object.fromEntries(Object.entries(op.examples).map(([name, e]) => [name, { summary: e.summary, value: e.value }])),
                  }),
                },
              ]),
            ),
          },
        }),
        responses: Object.fromEntries(
          Object.entries(op.responses).map(([status, r]) => [
            status,
            {
              description: r.codes ? `${r.description}. Codes: ${r.codes.join(', ')}.` : r.description,
              ...(counted(status) && { headers: rateLimitHeaders(status === '429') }),
              content: {
                'application/json': { schema: r.schema },
                ...Object.fromEntries(Object.entries(r.alternatives ?? {}).map(([type, a]) => [type, { schema: a.schema, example: a.example }])),
              },
            },
          ]),
        ),
      };
    }
  }
  return createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'zarpay API',
        version: '1.0.0',
        license: { name: 'Proprietary' },
        contact: { name: 'zarpay operators', url: `${serverUrl}/` },
        description:
          'Merchant payments and EFT payouts in South African rand. Amounts are integers in cents; timestamps are ISO 8601 UTC. Every error is the envelope `{status: "error", error: {code, message, details?}, metadata}`. ' +
          'Every route is rate limited per merchant and operation; the `RateLimit-*` headers say where a merchant stands. ' +
          'Requests without a valid key count against their client address instead (300 a minute by default), and so do the hosted payment page and QR images.',
      },
      servers: [{ url: serverUrl, description: ENVIRONMENT[serviceEnv], 'x-internal': false }],
      security: [{ ApiKey: [] }],
      tags: [
        { name: 'Payments', description: 'Payments through the hosted payment page and QR codes' },
        { name: 'Payment links', description: 'Pages a merchant shares (a QR code, a chat message) that customers pay through, without code' },
        { name: 'Refunds', description: 'Money of captured payments given back to customers, in full or in part' },
        { name: 'Payouts', description: 'EFT payouts reserved against the balance and approved by an operator' },
        { name: 'Statements', description: 'The balance\'s movements by day, for the books (JSON or CSV)' },
        { name: 'Merchant', description: 'The merchant\'s own settings: webhook URL, redirect allow-list, support contact' },
        { name: 'Credentials', description: 'Secret API keys and webhook signing secrets' },
        { name: 'Operator', description: 'The operator\'s routes (the operator token, never a merchant\'s key): what does not fit GraphQL\'s 64 KiB requests' },
      ],
      components: {
        securitySchemes: {
          ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Secret key `sec1-{env}-{kid}-{secret}-{checksum}`' },
          OperatorToken: { type: 'http', scheme: 'bearer', description: 'The operator token (OPERATOR_TOKEN): the operator\'s routes only' },
        },
      },
      paths: paths as never,
    },
    { override },
  );
}

/**
 * Which answers carry the RateLimit headers: everything after the request was counted
 * (rest/index.ts), against the merchant's budget for the operation, or, for 401 and 403,
 * against the client address's. A 5xx may come from anywhere, so it does not promise them.
 */
const counted = (status: string) => /^[24]/.test(status);

function rateLimitHeaders(retryAfter: boolean) {
  const seconds = { type: 'integer', format: 'int32', minimum: 0, maximum: 86400 };
  const header = (description: string, schema: Record<string, unknown>) => ({ description, schema });
  return {
    'RateLimit-Limit': header(
      "Requests allowed per minute for this operation; on 401 and 403, for this client address without a valid key (absent while RATE_LIMITS=off)",
      { type: 'integer', format: 'int32', minimum: 1, maximum: 2147483647 },
    ),
    'RateLimit-Remaining': header('Requests left in the current window', { type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647 }),
    'RateLimit-Reset': header('Seconds until the window resets', seconds),
    ...(retryAfter && { 'Retry-After': header('Seconds to wait before retrying', { ...seconds, minimum: 1 }) }),
  };
}
