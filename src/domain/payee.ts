import { z } from 'zod';
import { AppError } from './errors.ts';
import { eftDetailsInput } from './payout-input.ts';
import { nonBlank, withCode } from './validation.ts';

/**
 * Saved payees (issue 33): a bank account an owner added once, re-entering their password, and
 * the merchant pays by its id from then on (`payee_id` on a payout instead of `payment_details`).
 * The account details are sealed at rest like a payout's; what anyone reads back is the account
 * number masked.
 */

/** At most this many payees per merchant at a time (removed ones do not count). */
export const MAX_PAYEES = 200;

/** A payee as services return it: the account number masked, never in full. */
export interface Payee {
  id: string;
  merchantId: string;
  /** The merchant's own name for it ("Kettle Parts, supplier"). */
  name: string;
  accountHolder: string;
  bankName: string;
  branchCode: string;
  accountNumberMasked: string;
  /** The bank the branch code belongs to (domain/za-banks.ts), by its name. */
  bank: string;
  /** The sealed details would not open under any data key of this service: the fields above read `unreadable`. */
  unreadable: boolean;
  createdAt: Date;
}

export const payeeNotFound = () => new AppError('NOT_FOUND', 'payee not found');

/** What proves, once more, that the person at the keyboard is the one signed in (services/step-up.ts). */
export const stepUpInput = z.strictObject({
  password: z.string().min(1, 'is required: enter your password again').max(1024, 'must be at most 1024 characters'),
  /** The person's second factor, when they have one: the authenticator app's code or a recovery code. */
  code: z.string().max(64, 'must be at most 64 characters').optional(),
});
export type StepUpInput = z.output<typeof stepUpInput>;

/** A new payee (GraphQL `createPayee`): a name, the bank account, and the person's password again. */
export const createPayeeInput = z
  .strictObject({
    name: nonBlank(100).meta({ description: 'The merchant\'s own name for the payee', example: 'Kettle Parts (supplier)' }),
    paymentDetails: withCode(eftDetailsInput, 'INVALID_PAYMENT_DETAILS', 'inside'),
    password: stepUpInput.shape.password,
    code: stepUpInput.shape.code,
  })
  .meta({ id: 'CreatePayeeRequest' });
export type CreatePayeeInput = z.output<typeof createPayeeInput>;

/** The public JSON shape of a payee (REST `GET /api/v1/payees`). */
export const payeeJsonSchema = z
  .object({
    payee_id: z.uuid().meta({ example: '5d0c3c8e-2a4f-4b8e-9d61-0f6a1b2c3d4e' }),
    merchant_id: z.uuid().meta({ example: '3f1c9a52-8a43-4c1e-9a57-5d2f0e2b7c11' }),
    name: z.string().max(100).meta({ example: 'Kettle Parts (supplier)' }),
    account_holder: z.string().max(200).meta({ example: 'Kettle Parts (Pty) Ltd' }),
    bank_name: z.string().max(100).meta({ example: 'First National Bank' }),
    branch_code: z.string().max(11).meta({ example: '250655' }),
    account_number_masked: z.string().max(11).meta({ description: '`****` and the last four digits', example: '****5678' }),
    bank: z.string().max(100).meta({ description: 'The bank the branch code belongs to: where the money goes', example: 'First National Bank' }),
    unreadable: z.boolean().meta({ description: 'The sealed details will not open under this service\'s data keys (the fields above then read `unreadable`): add the payee again' }),
    created_at: z.iso.datetime().meta({ example: '2026-11-28T10:15:30.000Z' }),
  })
  .strict()
  .meta({ id: 'Payee' });

export function payeeJson(p: Payee): z.input<typeof payeeJsonSchema> {
  return {
    payee_id: p.id,
    merchant_id: p.merchantId,
    name: p.name,
    account_holder: p.accountHolder,
    bank_name: p.bankName,
    branch_code: p.branchCode,
    account_number_masked: p.accountNumberMasked,
    bank: p.bank,
    unreadable: p.unreadable,
    created_at: p.createdAt.toISOString(),
  };
}
