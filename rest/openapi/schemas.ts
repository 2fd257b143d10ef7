import { z } from 'zod';
import { ERROR_STATUS } from '../../src/domain/errors.ts';

/**
 * The envelope and the shapes only REST answers with, as zod schemas, for the OpenAPI document
 * and the test that checks real responses against it. The resources' own shapes are the
 * domain's (`payoutJsonSchema`, `paymentJsonSchema`, …).
 */

const uuid = z.uuid().meta({ example: '3f1c9a52-8a43-4c1e-9a57-5d2f0e2b7c11' });
const timestamp = z.iso.datetime().meta({ example: '2026-11-22T10:15:30.000Z' });
const cents = (description: string, example: number) => z.number().int().meta({ description, example });

export const metadataSchema = z
  .object({ timestamp, api_version: z.literal('v1') })
  .meta({ id: 'Metadata', description: 'Present on payment initiation and on every error.' });

export const errorSchema = z
  .object({
    status: z.literal('error'),
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS]),
      message: z.string().meta({ example: 'amount_cents: must be greater than 0' }),
      details: z
        .array(z.object({ field: z.string(), message: z.string() }).strict())
        .optional()
        .meta({ description: 'Every problem of a refused input; message is the first' }),
    }),
    metadata: metadataSchema,
  })
  .meta({ id: 'Error' });

const whsec = z.string().regex(/^whsec_[A-Za-z0-9]{43}$/).meta({ description: 'The signing secret, shown once', example: 'whsec_' + 'Q'.repeat(43) });

export const webhookSecretSchema = z
  .object({ id: uuid, secret: whsec, kid: z.string().meta({ example: 'wk_3f1c9a52' }) })
  .strict()
  .meta({ id: 'WebhookSecret' });

export const rotatedWebhookSecretSchema = z
  .object({
    id: uuid,
    secret: whsec,
    kid: z.string(),
    rotating_kid: z.string().nullable().meta({ description: 'The previous secret, still signing until rotating_until (null if there was none)' }),
    rotating_until: timestamp.nullable(),
  })
  .strict()
  .meta({ id: 'RotatedWebhookSecret' });

/** `{status: "success", data}`, optionally with metadata. */
export function successOf<T extends z.ZodType>(data: T, withMetadata = false) {
  return z
    .object({ status: z.literal('success'), data, ...(withMetadata ? { metadata: metadataSchema } : {}) })
    .strict();
}
