import { z } from 'zod';
import { createDocument } from 'zod-openapi';
import { apiKeyRecordJson } from '../../src/domain/api-key.ts';
import { balanceJsonSchema } from '../../src/domain/balance.ts';
import type { ErrorCode } from '../../src/domain/errors.ts';
import { initiatePaymentInput } from '../../src/domain/payment-input.ts';
import { paymentInitiationJsonSchema, paymentJsonSchema } from '../../src/domain/payment-json.ts';
import { createPayoutInput, listPayoutsQuery } from '../../src/domain/payout-input.ts';
import { payoutJsonSchema } from '../../src/domain/payout-json.ts';
import { wire } from '../wire.ts';
import { errorSchema, rotatedWebhookSecretSchema, successOf, webhookSecretSchema } from './schemas.ts';

/** One documented operation: its responses by status, with the error codes each can carry. */
interface ResponseDoc {
  description: string;
  schema: z.ZodType;
  codes?: ErrorCode[];
}

const error = (description: string, codes: ErrorCode[]): ResponseDoc => ({ description, schema: errorSchema, codes });

/** Errors every authenticated endpoint can give. */
const common: Record<string, ResponseDoc> = {
  '401': error('Missing, malformed, unknown or wrong-environment API key', ['UNAUTHORIZED']),
  '403': error('API key revoked or expired', ['FORBIDDEN']),
  '429': error('Over the per-minute rate limit for this operation; retry after Retry-After seconds', ['RATE_LIMIT_EXCEEDED']),
  '500': error('Unexpected failure; nothing internal is disclosed', ['INTERNAL_ERROR']),
  '503': error('Temporary outage (database unreachable); retry with backoff', ['SERVICE_UNAVAILABLE']),
};

const payoutId = z.object({ payout_id: z.uuid().meta({ description: 'The payout id' }) });
const paymentId = z.object({ payment_id: z.uuid().meta({ description: 'The payment id' }) });

export const OPERATIONS = {
  '/api/v1/payments/init': {
    post: {
      operationId: 'initiatePayment',
      summary: 'Initiate a payment and get its hosted payment page (and QR code)',
      tags: ['Payments'],
      // In prd every URL must be https; the sandbox also accepts http.
      body: wire(initiatePaymentInput),
      headers: z.object({
        'Idempotency-Key': z
          .string()
          .optional()
          .meta({ description: 'Recommended: {merchant_order_id}-{timestamp}-{random}; kept 24 hours', example: 'ORD-1001-1795316000-x7' }),
      }),
      responses: {
        '200': { description: 'Created (or replayed by Idempotency-Key or merchant_order_id)', schema: successOf(paymentInitiationJsonSchema, true) },
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
  '/api/v1/payments/{payment_id}': {
    get: {
      operationId: 'getPayment',
      summary: 'Read a payment\'s status, fee and latest attempt',
      tags: ['Payments'],
      path: paymentId,
      responses: {
        '200': { description: 'The payment', schema: successOf(paymentJsonSchema) },
        '404': error('Unknown, malformed or another merchant\'s id', ['PAYMENT_NOT_FOUND']),
        ...common,
      },
    },
  },
  '/api/v1/payouts/balance': {
    get: {
      operationId: 'getBalance',
      summary: 'Read the payout balance',
      tags: ['Payouts'],
      responses: { '200': { description: 'The balance', schema: successOf(balanceJsonSchema) }, ...common },
    },
  },
  '/api/v1/payouts': {
    post: {
      operationId: 'createPayout',
      summary: 'Create an EFT payout (reserves the gross amount at once)',
      tags: ['Payouts'],
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
        '409': error('merchant_reference already used with different parameters', ['CONFLICT']),
        '413': error('Body larger than 64 KiB', ['INVALID_INPUT']),
        ...common,
      },
    },
    get: {
      operationId: 'listPayouts',
      summary: 'List payouts, newest first',
      tags: ['Payouts'],
      query: listPayoutsQuery,
      responses: {
        '200': {
          description: 'A page of payouts and the number matching the filter',
          schema: successOf(z.object({ payouts: z.array(payoutJsonSchema), total: z.number().int() }).strict()),
        },
        '400': error('Bad query parameter', ['VALIDATION_FAILED']),
        ...common,
      },
    },
  },
  '/api/v1/payouts/{payout_id}': {
    get: {
      operationId: 'getPayout',
      summary: 'Read one payout',
      tags: ['Payouts'],
      path: payoutId,
      responses: {
        '200': { description: 'The payout; optional members by state', schema: successOf(payoutJsonSchema) },
        '404': error('Unknown, malformed or another merchant\'s id', ['PAYOUT_NOT_FOUND']),
        ...common,
      },
    },
  },
  '/api/v1/merchant/api-keys/secret/regenerate': {
    post: {
      operationId: 'regenerateSecretKey',
      summary: 'Issue a new secret key and revoke the calling one at once',
      tags: ['Credentials'],
      responses: {
        '201': {
          description: 'The new key record and the full key (shown once)',
          schema: successOf(z.object({ api_key: apiKeyRecordJson, full_key: z.string().meta({ example: 'sec1-tst-…' }) }).strict()),
        },
        ...common,
      },
    },
  },
  '/api/v1/merchant/webhooks/secret': {
    post: {
      operationId: 'createWebhookSecret',
      summary: 'Create the webhook signing secret (when none is active)',
      tags: ['Credentials'],
      responses: {
        '201': { description: 'The new active secret; the secret is never shown again', schema: successOf(webhookSecretSchema) },
        '409': error('A secret is already active: rotate it instead', ['CONFLICT']),
        ...common,
      },
    },
  },
  '/api/v1/merchant/webhooks/secret/rotate': {
    post: {
      operationId: 'rotateWebhookSecret',
      summary: 'Rotate the webhook signing secret: both sign for 24 hours',
      tags: ['Credentials'],
      responses: {
        '201': { description: 'The new active secret, and the previous one\'s kid and end of window', schema: successOf(rotatedWebhookSecretSchema) },
        ...common,
      },
    },
  },
} satisfies Record<string, Record<string, OperationDoc>>;

interface OperationDoc {
  operationId: string;
  summary: string;
  tags: string[];
  body?: z.ZodType;
  query?: z.ZodObject;
  path?: z.ZodObject;
  headers?: z.ZodObject;
  responses: Record<string, ResponseDoc>;
}

/** The OpenAPI 3.1 document of `/api/v1`, built from the schemas the adapter validates with. */
export function openApiDocument(serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, methods] of Object.entries(OPERATIONS) as [string, Record<string, OperationDoc>][]) {
    paths[path] = {};
    for (const [method, op] of Object.entries(methods)) {
      paths[path][method] = {
        operationId: op.operationId,
        summary: op.summary,
        tags: op.tags,
        security: [{ ApiKey: [] }],
        ...((op.query || op.path || op.headers) && {
          requestParams: { ...(op.query && { query: op.query }), ...(op.path && { path: op.path }), ...(op.headers && { header: op.headers }) },
        }),
        ...(op.body && { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } }),
        responses: Object.fromEntries(
          Object.entries(op.responses).map(([status, r]) => [
            status,
            {
              description: r.codes ? `${r.description}. Codes: ${r.codes.join(', ')}.` : r.description,
              ...(status === '429' && { headers: rateLimitHeaders(true) }),
              content: { 'application/json': { schema: r.schema } },
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
        description:
          'Merchant payments and EFT payouts in South African rand. Amounts are integers in cents; timestamps are ISO 8601 UTC. Every error is the envelope `{status: "error", error: {code, message}, metadata}`.',
      },
      servers: [{ url: serverUrl }],
      security: [{ ApiKey: [] }],
      tags: [
        { name: 'Payments', description: 'Payments through the hosted payment page and QR codes' },
        { name: 'Payouts', description: 'EFT payouts reserved against the balance and approved by an operator' },
        { name: 'Credentials', description: 'Secret API keys and webhook signing secrets' },
      ],
      components: {
        securitySchemes: {
          ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Secret key `sec1-{env}-{kid}-{secret}-{checksum}`' },
        },
      },
      paths: paths as never,
    },
  );
}

function rateLimitHeaders(retryAfter: boolean) {
  const header = (description: string) => ({ description, schema: { type: 'integer' } });
  return {
    'RateLimit-Limit': header('Requests allowed per minute for this operation'),
    'RateLimit-Remaining': header('Requests left in the current window'),
    'RateLimit-Reset': header('Seconds until the window resets'),
    ...(retryAfter && { 'Retry-After': header('Seconds to wait before retrying') }),
  };
}
