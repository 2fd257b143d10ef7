import { z } from 'zod';
import { ERROR_STATUS } from '../../src/domain/errors.ts';
import { MAX_DETAILS, MAX_FIELD, MAX_MESSAGE } from '../../src/http/envelope.ts';

/**
 * The envelope and the shapes only REST answers with, as zod schemas, for the OpenAPI document
 * and the test that checks real responses against it. The resources' own shapes are the
 * domain's (`payoutJsonSchema`, `paymentJsonSchema`, …).
 */

const uuid = z.uuid().meta({ example: '3f1c9a52-8a43-4c1e-9a57-5d2f0e2b7c11' });
const timestamp = z.iso.datetime().meta({ example: '2026-11-22T10:15:30.000Z' });

export const metadataSchema = z
  .object({ timestamp, api_version: z.literal('v1') })
  .meta({ id: 'Metadata', description: 'Present on payment initiation and on every error.' });

export const errorSchema = z
  .object({
    status: z.literal('error'),
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS]),
      message: z.string().max(MAX_MESSAGE).meta({ example: 'amount_cents: must be greater than 0' }),
      details: z
        .array(
          z
            .object({
              field: z.string().max(MAX_FIELD).meta({ description: 'The field, in the request\'s names (`payment_details.branch_code`, `query.limit`)', example: 'amount_cents' }),
              message: z.string().max(MAX_MESSAGE).meta({ example: 'must be greater than 0' }),
            })
            .strict(),
        )
        .max(MAX_DETAILS)
        .optional()
        .meta({ description: 'Every problem of a refused input (validation errors only); message is the first' }),
    }),
    metadata: metadataSchema,
  })
  .meta({ id: 'Error' });

/** A webhook secret's key id (`services/webhook-secrets.ts`). */
const kid = z
  .string()
  .length(16)
  .regex(/^whk_[a-z2-7]{12}$/)
  .meta({ description: 'Names the secret: `whk_` and 12 base32 characters', example: 'whk_tl35uv4bjm4z' });

const whsec = z.string().length(49).regex(/^whsec_[A-Za-z0-9]{43}$/).meta({ description: 'The signing secret, shown once', example: 'whsec_' + 'Q'.repeat(43) });

export const webhookSecretSchema = z
  .object({ id: uuid, secret: whsec, kid })
  .strict()
  .meta({ id: 'WebhookSecret' });

export const rotatedWebhookSecretSchema = z
  .object({
    id: uuid,
    secret: whsec,
    kid,
    rotating_kid: kid.nullable().meta({ description: 'The previous secret, still signing until rotating_until (null if there was none)' }),
    rotating_until: timestamp.nullable(),
  })
  .strict()
  .meta({ id: 'RotatedWebhookSecret' });

/** `{status: "success", data}`, optionally with metadata. */
export function successOf<T extends z.ZodType>(data: T, withMetadata: boolean | z.ZodType = false) {
  const metadata = withMetadata === true ? metadataSchema : withMetadata === false ? undefined : withMetadata;
  return z
    .object({ status: z.literal('success'), data, ...(metadata ? { metadata } : {}) })
    .strict();
}

/** An initiation's metadata: with `warnings` when a return address will not be followed (CONTRACT §4). */
export const initiationMetadataSchema = z
  .object({
    timestamp,
    api_version: z.literal('v1'),
    warnings: z
      .array(
        z
          .object({
            field: z.enum(['success_url', 'cancel_url', 'failure_url']),
            message: z.string().max(300).meta({ example: "the customer will not be sent here: shop.example is not in the merchant's allowed_redirect_domains (PATCH /api/v1/merchant); the payment page shows the result instead" }),
          })
          .strict(),
      )
      .max(3)
      .optional()
      .meta({ description: 'Return addresses the hosted page will not send the customer to: the host is not in allowed_redirect_domains, or in prd the URL is not https on port 443. The payment is made; the page shows the result instead.' }),
  })
  .meta({ id: 'InitiationMetadata', description: 'When the answer was made, and any warnings about the request.' });
