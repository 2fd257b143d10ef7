import { z } from 'zod';
import { PAYOUT_STATUSES } from './payout.ts';
import { bankForBranchCode, UNKNOWN_BRANCH_CODE } from './za-banks.ts';
import { nonBlank, offsetPage, optional, withCode } from './validation.ts';

/** The inputs of the payout use cases, as both adapters parse them (see validation.ts). */

export const eftDetailsInput = z
  .strictObject({
    // The length each pattern allows, stated for generated clients (the pattern is the check).
    accountNumber: z.string().regex(/^\d{5,20}$/, 'must be 5 to 20 digits').meta({ example: '62012345678', minLength: 5, maxLength: 20 }),
    branchCode: z
      .string()
      .regex(/^\d{6}$/, 'must be exactly 6 digits')
      // Only after the shape holds, so a malformed code gets one message, not two.
      .refine((code) => !/^\d{6}$/.test(code) || bankForBranchCode(code) !== undefined, UNKNOWN_BRANCH_CODE)
      .meta({ example: '250655', minLength: 6, maxLength: 6, description: 'A South African bank\'s universal branch code, e.g. 250655 (FNB), 632005 (Absa), 470010 (Capitec); any other is INVALID_PAYMENT_DETAILS' }),
    accountHolder: nonBlank(200).meta({ description: 'Full name of the account holder', example: 'Thandi Nkosi' }),
    bankName: nonBlank(100).meta({ example: 'First National Bank' }),
  })
  .meta({ id: 'EftPaymentDetails', description: 'The bank account an EFT payout is paid into' });
export type EftDetails = z.output<typeof eftDetailsInput>;

export const createPayoutInput = z
  .strictObject({
    amountCents: z
      .number()
      .int('must be a whole number of cents')
      .positive('must be greater than 0')
      .max(Number.MAX_SAFE_INTEGER, 'is too large')
      .meta({ description: 'What the recipient receives, in cents', example: 25000 }),
    // Documented as the one value accepted (`enum`), so generated clients type it; any other
    // string still reaches the refine and gets the contract's own code.
    currency: withCode(
      z
        .string()
        .length(3, 'must be 3 letters')
        .refine((c) => c === 'ZAR', 'only ZAR is supported')
        .transform(() => 'ZAR' as const)
        .meta({ description: 'Must be `ZAR`', example: 'ZAR', enum: ['ZAR'] }),
      'INVALID_CURRENCY',
    ),
    payoutMethod: withCode(
      z
        .string()
        .refine((m) => m === 'eft', 'only eft is supported')
        .transform(() => 'eft' as const)
        .meta({ description: 'Must be `eft`', example: 'eft', enum: ['eft'] }),
      'INVALID_PAYOUT_METHOD',
    ),
    // One of the two: the bank account as typed, or a saved payee's (the service checks that exactly one is given).
    paymentDetails: optional(withCode(eftDetailsInput, 'INVALID_PAYMENT_DETAILS', 'inside')),
    payeeId: optional(
      z.uuid('must be a payee id (a UUID)').meta({
        description: 'A saved payee to pay (GET /api/v1/payees), instead of `payment_details`: its bank account is used',
        example: '5d0c3c8e-2a4f-4b8e-9d61-0f6a1b2c3d4e',
      }),
    ),
    merchantReference: optional(
      z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters').meta({
        description: 'Unique per merchant: a replay with identical parameters returns the payout',
        example: 'INV-1001',
      }),
    ),
    description: optional(z.string().max(500, 'must be at most 500 characters').meta({ example: 'Supplier invoice 1001' })),
    metadata: optional(z.record(z.string(), z.unknown()).meta({ description: 'Free-form data, returned as given' })),
  })
  .meta({ id: 'CreatePayoutRequest' });
export type CreatePayoutInput = z.output<typeof createPayoutInput>;

/** `GET /api/v1/payouts`, and the operator's `payout list`. */
export const listPayoutsQuery = z.strictObject({
  ...offsetPage,
  status: optional(z.enum(PAYOUT_STATUSES, { error: `must be one of ${PAYOUT_STATUSES.join(', ')}` })),
});
export type ListPayoutsQuery = z.output<typeof listPayoutsQuery>;
