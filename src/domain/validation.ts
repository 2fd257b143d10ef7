import { z } from 'zod';
import { AppError, type ErrorCode } from './errors.ts';
import { PAYOUT_STATUSES } from './payout-state.ts';

/**
 * The input schemas shared by REST and GraphQL, so that both refuse the same inputs with the
 * same code. Field names are the REST (snake_case) ones; GraphQL maps its camelCase input onto them.
 */

/** Which error code a failed field gets, when it is not plain VALIDATION_FAILED (CONTRACT §2). */
export type CodeRule = (path: readonly PropertyKey[], issue: z.core.$ZodIssue) => ErrorCode | undefined;

const isTypeOrMissing = (issue: z.core.$ZodIssue) => issue.code === 'invalid_type';

const payoutCodes: CodeRule = (path, issue) => {
  const [field] = path;
  if (field === 'currency' && !isTypeOrMissing(issue)) return 'INVALID_CURRENCY';
  if (field === 'payout_method' && !isTypeOrMissing(issue)) return 'INVALID_PAYOUT_METHOD';
  if (field === 'payment_details' && path.length > 1) return 'INVALID_PAYMENT_DETAILS';
  return undefined;
};

const MAX_DEPTH = 32;
// A NUL or an unpaired surrogate cannot be stored in PostgreSQL text or jsonb (the insert fails).
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The first place in `value` (keys included) that the database could not store, if any. */
function unstorable(value: unknown, path: PropertyKey[] = []): { path: PropertyKey[]; why: string } | undefined {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? { path, why: 'must not contain NUL characters or unpaired surrogates' } : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (path.length >= MAX_DEPTH) return { path, why: `nested more than ${MAX_DEPTH} levels deep` };
  for (const [k, v] of Object.entries(value)) {
    const at = [...path, Array.isArray(value) ? Number(k) : k];
    if (UNSTORABLE.test(k)) return { path: at, why: 'keys must not contain NUL characters or unpaired surrogates' };
    const found = unstorable(v, at);
    if (found) return found;
  }
  return undefined;
}

export function parseInput<S extends z.ZodType>(schema: S, input: unknown, codes?: CodeRule): z.output<S> {
  const bad = unstorable(input);
  if (bad) throw new AppError('VALIDATION_FAILED', `${bad.path.length > 0 ? bad.path.join('.') : 'body'}: ${bad.why}`);
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const code = codes?.(issue.path, issue) ?? 'VALIDATION_FAILED';
  const where = issue.path.length > 0 ? issue.path.join('.') : 'body';
  throw new AppError(code, `${where}: ${issue.message}`);
}

const nonBlank = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

export const paymentDetailsSchema = z
  .strictObject({
    account_number: z.string().regex(/^\d{5,20}$/, 'account_number must be 5 to 20 digits').meta({ example: '62012345678' }),
    branch_code: z.string().regex(/^\d{6}$/, 'branch_code must be exactly 6 digits').meta({ example: '250655' }),
    account_holder: nonBlank(200).meta({ description: 'Full name of the account holder', example: 'Thandi Nkosi' }),
    bank_name: nonBlank(100).meta({ example: 'First National Bank' }),
  })
  .meta({ id: 'EftPaymentDetails', description: 'Bank account for an EFT payout' });

export const createPayoutSchema = z
  .strictObject({
    amount_cents: z
      .number()
      .int('must be a whole number of cents')
      .positive('amount_cents must be greater than 0')
      .max(Number.MAX_SAFE_INTEGER)
      .meta({ description: 'What the recipient receives, in cents', example: 25000 }),
    currency: z
      .string()
      .length(3, 'must be 3 letters')
      .refine((c) => c === 'ZAR', 'only ZAR is supported')
      .meta({ description: 'Must be `ZAR`', example: 'ZAR' }),
    payout_method: z
      .string()
      .refine((m) => m === 'eft', 'only eft is supported')
      .meta({ description: 'Must be `eft`', example: 'eft' }),
    payment_details: z.record(z.string(), z.unknown()).pipe(paymentDetailsSchema),
    merchant_reference: z
      .string()
      .min(1, 'must not be empty')
      .max(100, 'must be at most 100 characters')
      .optional()
      .meta({ description: 'Unique per merchant: a replay with identical parameters returns the payout', example: 'INV-1001' }),
    description: z.string().max(500, 'must be at most 500 characters').optional().meta({ example: 'Supplier invoice 1001' }),
    metadata: z.record(z.string(), z.unknown()).optional().meta({ description: 'Free-form data, returned as given' }),
  })
  .meta({ id: 'CreatePayoutRequest' });
export type CreatePayoutInput = z.output<typeof createPayoutSchema>;

export const parseCreatePayout = (input: unknown) => parseInput(createPayoutSchema, input, payoutCodes);

const intString = z.union([z.number(), z.string().regex(/^-?\d+$/, 'must be a whole number').transform(Number)]);

export const listPayoutsSchema = z.strictObject({
  limit: intString.pipe(z.number().int().min(1, 'limit must be 1 to 100').max(100, 'limit must be 1 to 100')).default(50),
  offset: intString.pipe(z.number().int().min(0, 'offset must not be negative').max(1e9)).default(0),
  status: z.enum(PAYOUT_STATUSES, { error: `status must be one of ${PAYOUT_STATUSES.join(', ')}` }).optional(),
});
export type ListPayoutsInput = z.output<typeof listPayoutsSchema>;

const pageSize = (name: string) =>
  z.number().int().min(0, `${name} must be 0 to 100`).max(100, `${name} must be 0 to 100`).nullish();

/**
 * The page arguments of a GraphQL connection: GraphQL's twin of `limit`, with the same bound of
 * 100 rows. Other arguments of the field (filters) pass through untouched.
 */
export const connectionArgsSchema = z.looseObject({
  first: pageSize('first'),
  last: pageSize('last'),
  after: z.string().max(200, 'must be at most 200 characters').nullish(),
  before: z.string().max(200, 'must be at most 200 characters').nullish(),
});

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048);
const domain = z
  .string()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$|^localhost$/, 'must be a domain name');

export const merchantFieldsSchema = z.strictObject({
  name: nonBlank(200),
  webhook_url: httpUrl.nullable().optional(),
  payment_fee_bps: z.number().int().min(0).max(10000).optional(),
  payment_fee_fixed_cents: z.number().int().min(0).max(1_000_000).optional(),
  payout_fee_cents: z.number().int().min(0).max(1_000_000).optional(),
  auto_topup: z.boolean().optional(),
  redirect_domains: z.array(domain).max(50).optional(),
});
export const createMerchantSchema = merchantFieldsSchema;
export const updateMerchantSchema = merchantFieldsSchema.partial().extend({
  /** Added to the allow-list (`zarpay merchant update --allow-redirect-domain D`), after any replacement. */
  add_redirect_domains: z.array(domain).max(50).optional(),
});
export type CreateMerchantInput = z.output<typeof createMerchantSchema>;
export type UpdateMerchantInput = z.output<typeof updateMerchantSchema>;

export const creditSchema = z.strictObject({
  amount_cents: z.number().int().positive('amount_cents must be greater than 0').max(1e13),
  memo: z.string().max(500).optional(),
});

export const reasonSchema = nonBlank(500);
