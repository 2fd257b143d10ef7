import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseWire } from '../rest/wire.ts';
import { AppError, ERROR_STATUS, fieldError, isAppError, isErrorCode } from '../src/domain/errors.ts';
import { isUuid, UUID_PATTERN } from '../src/domain/ids.ts';
import { createPayeeInput, MAX_PAYEES, type Payee, payeeJson, payeeJsonSchema, payeeNotFound, stepUpInput } from '../src/domain/payee.ts';
import { customerInfoInput, idempotencyKeyInput, initiatePaymentInput, listPaymentsQuery, PAYMENT_URL_FIELDS, withDefaults } from '../src/domain/payment-input.ts';
import { createPayoutInput, eftDetailsInput, listPayoutsQuery } from '../src/domain/payout-input.ts';
import { E164_EXAMPLE, toE164 } from '../src/domain/phone.ts';
import {
  connectionArgs,
  contractCode,
  documentedAs,
  fieldInWords,
  fieldName,
  nonBlank,
  offsetPage,
  optional,
  PAGE_DEFAULT,
  PAGE_MAX,
  parseInput,
  plainMessage,
  reasonSchema,
  refusal,
  unstorable,
  wholeNumber,
  withCode,
} from '../src/domain/validation.ts';
import { bankById, bankForBranchCode, bankNameMismatch, banksNamedIn, UNKNOWN_BRANCH_CODE, ZA_BANKS } from '../src/domain/za-banks.ts';
import { type Refusal, refusalOf } from './support/refusal.ts';

/**
 * The refusals of bad input, called directly: what a merchant's program, a form or the operator
 * sees when an input is refused (the contract's code, the field as the caller named it, the
 * problem in plain words, every problem in `details`), and what an accepted input becomes
 * (trimmed, defaulted, a phone number in E.164, a day as its SAST instant). Lengths, amounts,
 * bank branch codes, account numbers and phone numbers are pinned on both sides of each bound,
 * so that mutation testing (`npm run mutate`, docs/testing.md) finds a change to any rule.
 */

/** The refusal the domain (and GraphQL) gives for `input`. */
const refused = (schema: z.ZodType, input: unknown, whole?: string) => refusalOf(() => parseInput(schema, input, whole));
/** The refusal REST gives for `input`, its fields in snake_case. */
const refusedRest = (schema: z.ZodType, input: unknown, whole?: string) => refusalOf(() => parseWire(schema, input, whole));
/** One problem of one field, as the whole refusal reads. */
const one = (code: string, field: string, problem: string, inWords = field): Refusal => ({
  code,
  httpStatus: 400,
  message: `${inWords}: ${problem}`,
  details: [{ field, message: problem }],
});

describe('errors.ts: the contract\'s codes and the error every refusal is', () => {
  it('maps each code of the contract to its HTTP status', () => {
    expect(ERROR_STATUS).toEqual({
      INVALID_INPUT: 400,
      VALIDATION_FAILED: 400,
      INVALID_AMOUNT: 400,
      INVALID_CURRENCY: 400,
      INVALID_PAYOUT_METHOD: 400,
      INVALID_PAYMENT_DETAILS: 400,
      INVALID_STATUS_TRANSITION: 400,
      INSUFFICIENT_BALANCE: 400,
      UNAUTHORIZED: 401,
      FORBIDDEN: 403,
      NOT_FOUND: 404,
      PAYMENT_NOT_FOUND: 404,
      PAYOUT_NOT_FOUND: 404,
      REFUND_NOT_FOUND: 404,
      DUPLICATE_ORDER_ID: 409,
      CONFLICT: 409,
      RATE_LIMIT_EXCEEDED: 429,
      INTERNAL_ERROR: 500,
      SERVICE_UNAVAILABLE: 503,
    });
  });

  it('knows its codes and nothing else', () => {
    expect(isErrorCode('NOT_FOUND')).toBe(true);
    expect(isErrorCode('SERVICE_UNAVAILABLE')).toBe(true);
    expect(isErrorCode('not_found')).toBe(false);
    expect(isErrorCode('toString')).toBe(false); // what every object has is no error code
    expect(isErrorCode('constructor')).toBe(false);
    expect(isErrorCode('TEAPOT')).toBe(false);
    expect(isErrorCode(404)).toBe(false);
    expect(isErrorCode(undefined)).toBe(false);
  });

  it('an AppError carries its code, message and the code\'s status, unless told another', () => {
    const e = new AppError('PAYOUT_NOT_FOUND', 'payout not found');
    expect(e).toBeInstanceOf(Error);
    expect([e.name, e.code, e.message, e.httpStatus, e.details, e.fields]).toEqual(['AppError', 'PAYOUT_NOT_FOUND', 'payout not found', 404, undefined, undefined]);
    const big = new AppError('VALIDATION_FAILED', 'body: is too large', { httpStatus: 413, details: [{ field: 'body', message: 'is too large' }] });
    expect([big.httpStatus, big.details]).toEqual([413, [{ field: 'body', message: 'is too large' }]]);
    expect(isAppError(e)).toBe(true);
    expect(isAppError(new Error('payout not found'))).toBe(false);
    expect(isAppError({ code: 'NOT_FOUND', message: 'x' })).toBe(false);
  });

  it('a refusal of one field of a typed input names it by its domain path, for each adapter to rename', () => {
    const e = fieldError('FORBIDDEN', ['stepUp', 'password'], 'is required');
    expect([e.code, e.httpStatus, e.message, e.details, e.fields]).toEqual(['FORBIDDEN', 403, 'stepUp.password: is required', undefined, [{ path: ['stepUp', 'password'], message: 'is required' }]]);
    expect(fieldError('VALIDATION_FAILED', ['lines', 2], 'is too large').message).toBe('lines.2: is too large');
  });
});

describe('ids.ts: ids are UUIDs, in any case', () => {
  it('accepts the 8-4-4-4-12 hexadecimal form, upper or lower case', () => {
    expect(isUuid('5d0c3c8e-2a4f-4b8e-9d61-0f6a1b2c3d4e')).toBe(true);
    expect(isUuid('5D0C3C8E-2A4F-4B8E-9D61-0F6A1B2C3D4E')).toBe(true);
    expect(isUuid('00000000-0000-0000-0000-000000000000')).toBe(true);
    expect(UUID_PATTERN.test('abcdef01-2345-6789-abcd-ef0123456789')).toBe(true);
  });

  it('refuses anything around it, a missing or extra digit in any group, and non-hex letters', () => {
    for (const bad of [
      '',
      ' 5d0c3c8e-2a4f-4b8e-9d61-0f6a1b2c3d4e',
      '5d0c3c8e-2a4f-4b8e-9d61-0f6a1b2c3d4e ',
      'x5d0c3c8e-2a4f-4b8e-9d61-0f6a1b2c3d4e',
      '5d0c3c8e-2a4f-4b8e-9d61-0f6a1b2c3d4ex',
      '5d0c3c8-2a4f-4b8e-9d61-0f6a1b2c3d4e',
      '5d0c3c8e0-2a4f-4b8e-9d61-0f6a1b2c3d4e',
      '5d0c3c8e-2a4-4b8e-9d61-0f6a1b2c3d4e',
      '5d0c3c8e-2a4f0-4b8e-9d61-0f6a1b2c3d4e',
      '5d0c3c8e-2a4f-4b8-9d61-0f6a1b2c3d4e',
      '5d0c3c8e-2a4f-4b8e0-9d61-0f6a1b2c3d4e',
      '5d0c3c8e-2a4f-4b8e-9d6-0f6a1b2c3d4e',
      '5d0c3c8e-2a4f-4b8e-9d610-0f6a1b2c3d4e',
      '5d0c3c8e-2a4f-4b8e-9d61-0f6a1b2c3d4',
      '5d0c3c8e-2a4f-4b8e-9d61-0f6a1b2c3d4e0',
      '5d0c3c8g-2a4f-4b8e-9d61-0f6a1b2c3d4e',
      '5d0c3c8e2a4f4b8e9d610f6a1b2c3d4e',
      '5d0c3c8e_2a4f_4b8e_9d61_0f6a1b2c3d4e',
    ]) {
      expect(isUuid(bad), bad).toBe(false);
    }
  });
});

describe('phone.ts: a customer\'s phone number in E.164', () => {
  it('keeps an international number as E.164, dropping spaces, dashes, dots, brackets and the white space around it', () => {
    expect(toE164('+27825550123')).toBe('+27825550123');
    expect(toE164('+27 82 555 0123')).toBe('+27825550123');
    expect(toE164('+27 (82) 555-0199')).toBe('+27825550199');
    expect(toE164('+27.82.555.0123')).toBe('+27825550123');
    expect(toE164('  +27 82 555 0123\t')).toBe('+27825550123');
    expect(toE164('+27 21 555 0123')).toBe('+27215550123');
    expect(toE164('+44 7400 123456')).toBe('+447400123456');
    expect(toE164('+1 201-555-0123')).toBe('+12015550123');
    expect(toE164(E164_EXAMPLE)).toBe('+27825550123');
  });

  it('refuses a local number, one without its +, text before the +, an extension, and what no numbering plan holds', () => {
    for (const bad of [
      '0825550123',
      '27825550123',
      '0027825550123',
      'tel: +27825550123',
      '(+27) 82 555 0123',
      '+27825550123 ext. 12',
      '+27825550123 x12',
      '+27 21 555',
      '+27 82 555 0123 9',
      '+999 123 4567',
      '+',
      '+ ',
      '',
      'call me',
    ]) {
      expect(toE164(bad), bad).toBeNull();
    }
  });
});

describe('validation.ts: how every refusal reads', () => {
  describe('plainMessage: a problem in words, without zod\'s vocabulary', () => {
    const first = (schema: z.ZodType, input: unknown) => {
      const result = schema.safeParse(input, { reportInput: true });
      if (result.success) throw new Error('accepted');
      return plainMessage(result.error.issues[0]!);
    };

    it('a missing value is required; a value of the wrong JSON type names the type wanted', () => {
      expect(first(z.object({ a: z.string() }), {})).toBe('is required');
      expect(first(z.string(), 1)).toBe('must be a string');
      expect(first(z.string(), null)).toBe('must be a string');
      expect(first(z.number(), 'x')).toBe('must be a number');
      expect(first(z.boolean(), 'yes')).toBe('must be true or false');
      expect(first(z.object({}), [])).toBe('must be an object');
      expect(first(z.array(z.string()), {})).toBe('must be a list');
      expect(first(z.record(z.string(), z.string()), 'x')).toBe('must be an object');
      expect(first(z.date(), 'x')).toBe('must be date');
      expect(first(z.bigint(), 1)).toBe('must be bigint');
    });

    it('a null a field explains is refused in the field\'s own words; a fraction where cents are whole is not a whole number', () => {
      const noNull = z.string({ error: 'must be left out rather than null' });
      expect(first(noNull, null)).toBe('must be left out rather than null');
      expect(first(noNull, 5)).toBe('must be a string');
      expect(first(noNull, undefined)).toBe('is required');
      expect(first(z.number().int('must be a whole number of cents'), 12.5)).toBe('must be a whole number');
      expect(first(z.number().int(), 12.5)).toBe('must be a whole number');
    });

    it('names unknown fields, one or several', () => {
      expect(first(z.strictObject({}), { foo: 1 })).toBe('is not a known field: foo');
      expect(first(z.strictObject({}), { foo: 1, bar: 2 })).toBe('are not known fields: foo, bar');
    });

    it('lists the values an enumeration takes, unless the field says it its own way', () => {
      expect(first(z.enum(['eft', 'card']), 'swift')).toBe('must be one of eft, card');
      expect(first(z.literal(3), 4)).toBe('must be one of 3');
      expect(first(z.enum(['eft'], { error: 'only eft is supported' }), 'swift')).toBe('only eft is supported');
    });

    it('states a bound, in characters for text, unless the field says it its own way', () => {
      expect(first(z.string().max(3), 'abcd')).toBe('must be at most 3 characters');
      expect(first(z.string().min(2), 'a')).toBe('must be at least 2 characters');
      expect(first(z.number().max(10), 11)).toBe('must be at most 10');
      expect(first(z.number().min(10), 9)).toBe('must be at least 10');
      expect(first(z.array(z.number()).max(2), [1, 2, 3])).toBe('must be at most 2');
      expect(first(z.array(z.number()).min(1), [])).toBe('must be at least 1');
      expect(first(z.string().max(3, 'is too long for a reference'), 'abcd')).toBe('is too long for a reference');
      expect(first(z.string().min(2, 'is too short for a reference'), 'a')).toBe('is too short for a reference');
    });

    it('a whole number past what cents can be exact in is too large, or too small', () => {
      expect(first(z.number().int(), 2 ** 53)).toBe('is too large');
      expect(first(z.number().int(), -(2 ** 53))).toBe('is too small');
      expect(z.number().int().safeParse(2 ** 53 - 1).success).toBe(true);
    });

    it('any other refusal is "not valid", unless the check says why', () => {
      expect(first(z.string().regex(/^\d+$/), 'x')).toBe('is not valid');
      expect(first(z.email(), 'x')).toBe('is not valid');
      expect(first(z.string().refine(() => false), 'x')).toBe('is not valid');
      expect(first(z.string().regex(/^\d+$/, 'must be digits'), 'x')).toBe('must be digits');
      expect(first(z.string().refine(() => false, 'is taken'), 'x')).toBe('is taken');
    });
  });

  describe('fieldName and fieldInWords: where a problem is', () => {
    it('names a field by its path, the whole input by what it is, and a query parameter as one', () => {
      expect(fieldName([])).toBe('body');
      expect(fieldName([], 'query')).toBe('query');
      expect(fieldName([], 'input')).toBe('input');
      expect(fieldName(['amount_cents'])).toBe('amount_cents');
      expect(fieldName(['payment_details', 'branch_code'], 'body')).toBe('payment_details.branch_code');
      expect(fieldName(['lines', 0, 'amount'], 'input')).toBe('lines.0.amount');
      expect(fieldName(['limit'], 'query')).toBe('query.limit');
    });

    it('writes a nested field in words, without GraphQL\'s argument; a top-level field and a query parameter as they are', () => {
      expect(fieldInWords('amount_cents')).toBe('amount_cents');
      expect(fieldInWords('amountCents')).toBe('amountCents');
      expect(fieldInWords('input.amountCents')).toBe('input.amountCents');
      expect(fieldInWords('payment_details.branch_code')).toBe('payment details, branch code');
      expect(fieldInWords('input.paymentDetails.branchCode')).toBe('payment details, branch code');
      expect(fieldInWords('arguments.paymentDetails.branchCode')).toBe('payment details, branch code');
      expect(fieldInWords('paymentDetails.branchCode')).toBe('payment details, branch code');
      expect(fieldInWords('query.created_from')).toBe('query.created_from');
      expect(fieldInWords('query.a.b_c')).toBe('query.a.b_c');
      expect(fieldInWords('body')).toBe('body');
    });

    it('counts list items from one, and splits words only between letters and digits', () => {
      expect(fieldInWords('lines.0.unit_price')).toBe('lines, item 1, unit price');
      expect(fieldInWords('lines.10.unitPrice')).toBe('lines, item 11, unit price');
      expect(fieldInWords('address.line2.postCode')).toBe('address, line2, post code');
      expect(fieldInWords('address.2nd_line')).toBe('address, 2nd line');
      expect(fieldInWords('address.line2Code')).toBe('address, line2 code');
      expect(fieldInWords('meta._private.trailing_')).toBe('meta, _private, trailing_');
      expect(fieldInWords('meta.a__b.ACode')).toBe('meta, a__b, acode');
    });
  });

  describe('contractCode: a field\'s own code, else VALIDATION_FAILED', () => {
    const code = (schema: z.ZodType, input: unknown) => {
      const result = schema.safeParse(input, { reportInput: true });
      if (result.success) throw new Error('accepted');
      return contractCode(schema, result.error.issues[0]!);
    };
    const amount = () => withCode(z.number().max(10, 'is over the limit'), 'INVALID_AMOUNT');

    it('a coded field refuses its value with its code, but its absence or wrong type with VALIDATION_FAILED', () => {
      const schema = z.object({ amount: amount() });
      expect(code(schema, { amount: 11 })).toBe('INVALID_AMOUNT');
      expect(code(schema, { amount: 'x' })).toBe('VALIDATION_FAILED');
      expect(code(schema, {})).toBe('VALIDATION_FAILED');
      expect(code(schema, 'x')).toBe('VALIDATION_FAILED');
    });

    it('a fraction is a refused value (INVALID_AMOUNT), not a wrong type', () => {
      expect(code(z.object({ amount: withCode(z.number().int(), 'INVALID_AMOUNT') }), { amount: 1.5 })).toBe('INVALID_AMOUNT');
    });

    it('a value code is the field\'s alone: a problem further in is VALIDATION_FAILED', () => {
      const schema = z.object({ card: withCode(z.object({ cvv: z.string().length(3) }), 'INVALID_PAYMENT_DETAILS') });
      expect(code(schema, { card: { cvv: '1' } })).toBe('VALIDATION_FAILED');
    });

    it('an inside code covers every problem within the object, but not the object\'s own problems', () => {
      const details = z.object({ branch: z.string().length(6) }).refine((d) => d.branch !== '000000', 'is closed');
      const schema = z.object({ details: withCode(details, 'INVALID_PAYMENT_DETAILS', 'inside') });
      expect(code(schema, { details: { branch: '1' } })).toBe('INVALID_PAYMENT_DETAILS');
      expect(code(schema, { details: {} })).toBe('INVALID_PAYMENT_DETAILS');
      expect(code(schema, { details: { branch: '000000' } })).toBe('VALIDATION_FAILED');
      expect(code(schema, { details: 'x' })).toBe('VALIDATION_FAILED');
    });

    it('finds a code through optional, nullable and default wrappers, on the field or on its parent', () => {
      expect(code(z.object({ amount: optional(amount()) }), { amount: 11 })).toBe('INVALID_AMOUNT');
      expect(code(z.object({ amount: amount().nullable() }), { amount: 11 })).toBe('INVALID_AMOUNT');
      expect(code(z.object({ amount: amount().default(1) }), { amount: 11 })).toBe('INVALID_AMOUNT');
      expect(code(z.object({ order: z.object({ amount: amount() }).default({ amount: 1 }) }), { order: { amount: 11 } })).toBe('INVALID_AMOUNT');
      expect(code(z.object({ order: z.object({ amount: amount() }).nullable() }), { order: { amount: 11 } })).toBe('INVALID_AMOUNT');
      expect(code(z.object({ order: optional(z.object({ amount: amount() })) }), { order: { amount: 11 } })).toBe('INVALID_AMOUNT');
    });

    it('finds a code in every item of a list and every value of a record', () => {
      expect(code(z.object({ lines: z.array(z.object({ amount: amount() })) }), { lines: [{ amount: 1 }, { amount: 11 }] })).toBe('INVALID_AMOUNT');
      expect(code(z.object({ prices: z.record(z.string(), amount()) }), { prices: { a: 1, b: 11 } })).toBe('INVALID_AMOUNT');
      expect(code(z.object({ n: withCode(z.string().max(3), 'INVALID_AMOUNT').transform((s) => s.length) }), { n: 'abcd' })).toBe('INVALID_AMOUNT');
    });

    it('reads a field given as text and then checked as an object by the object\'s fields', () => {
      const schema = z.string().transform((s) => JSON.parse(s) as unknown).pipe(z.object({ amount: amount() }));
      expect(code(schema, '{"amount":11}')).toBe('INVALID_AMOUNT');
      expect(code(z.object({ order: schema }), { order: '{"amount":11}' })).toBe('INVALID_AMOUNT');
    });
  });

  describe('refusal and parseInput: the whole answer', () => {
    it('gives the first problem\'s code and words as the message, and every problem once in details', () => {
      const schema = z.strictObject({
        amount: withCode(z.number().int().max(2 ** 60, 'is past any limit'), 'INVALID_AMOUNT'),
        name: z.string(),
        lines: z.array(z.object({ unitPrice: z.number() })),
      });
      expect(refused(schema, { amount: 2 ** 54, lines: [{ unitPrice: 'x' }], foo: 1, bar: 2 }, 'input')).toEqual({
        code: 'INVALID_AMOUNT',
        httpStatus: 400,
        message: 'amount: is too large',
        details: [
          { field: 'amount', message: 'is too large' },
          { field: 'name', message: 'is required' },
          { field: 'lines.0.unitPrice', message: 'must be a number' },
          { field: 'foo', message: 'is not a known field' },
          { field: 'bar', message: 'is not a known field' },
        ],
      });
      expect(refused(schema, { amount: 1, name: 'n', lines: [{ unitPrice: 'x' }] })).toEqual(one('VALIDATION_FAILED', 'lines.0.unitPrice', 'must be a number', 'lines, item 1, unit price'));
    });

    it('says a problem once when two checks refuse a value for one reason, but keeps the same words for two fields', () => {
      const schema = z.object({ a: z.number().int().max(Number.MAX_SAFE_INTEGER, 'is too large'), b: z.number().int() });
      expect(refused(schema, { a: 2 ** 53, b: 2 ** 53 }).details).toEqual([
        { field: 'a', message: 'is too large' },
        { field: 'b', message: 'is too large' },
      ]);
    });

    it('names an unknown field where it is, a query parameter as one, and the whole input by what it is', () => {
      const schema = z.strictObject({ inner: z.strictObject({ a: z.number() }) });
      expect(refused(schema, { inner: { a: 1, zz: 1 } })).toEqual(one('VALIDATION_FAILED', 'inner.zz', 'is not a known field', 'inner, zz'));
      expect(refused(z.strictObject({ limit: z.number() }), { limit: 1, foo: '1' }, 'query')).toEqual(one('VALIDATION_FAILED', 'query.foo', 'is not a known field'));
      expect(refused(z.object({}), 'x')).toEqual(one('VALIDATION_FAILED', 'body', 'must be an object'));
      expect(refused(z.object({}), 'x', 'input')).toEqual(one('VALIDATION_FAILED', 'input', 'must be an object'));
    });

    it('returns what the schema makes of an accepted input', () => {
      expect(parseInput(z.object({ name: nonBlank(10) }), { name: '  Thandi  ' })).toEqual({ name: 'Thandi' });
    });

    it('refusal() itself: the code of the first issue, every issue\'s field', () => {
      const schema = z.object({ currency: withCode(z.string().refine((c) => c === 'ZAR', 'only ZAR is supported'), 'INVALID_CURRENCY') });
      const result = schema.safeParse({ currency: 'USD' }, { reportInput: true });
      const e = refusal(schema, result.error!.issues, 'input');
      expect([e.code, e.message, e.details]).toEqual(['INVALID_CURRENCY', 'currency: only ZAR is supported', [{ field: 'currency', message: 'only ZAR is supported' }]]);
      const whole = z.string().safeParse(1, { reportInput: true });
      expect(refusal(z.string(), whole.error!.issues).message).toBe('body: must be a string');
    });
  });

  describe('unstorable: what the database could not keep as given', () => {
    const NUL = 'must not contain NUL characters or unpaired surrogates';

    it('finds a NUL or an unpaired surrogate in any string, keys included, and names its place', () => {
      expect(unstorable('a\u0000b')).toEqual({ path: [], why: NUL });
      expect(unstorable('a\ud800b')).toEqual({ path: [], why: NUL });
      expect(unstorable('a\ud800')).toEqual({ path: [], why: NUL });
      expect(unstorable('a\udc00b')).toEqual({ path: [], why: NUL });
      expect(unstorable('\udc00')).toEqual({ path: [], why: NUL });
      expect(unstorable({ items: ['ok', { note: 'x\u0000' }] })).toEqual({ path: ['items', 1, 'note'], why: NUL });
      expect(unstorable({ meta: { 'k\u0000': 1 } })).toEqual({ path: ['meta', 'k\u0000'], why: 'has a key with NUL characters or unpaired surrogates' });
      expect(unstorable({ meta: { '\udc00': 'x\u0000' } })).toEqual({ path: ['meta', '\udc00'], why: 'has a key with NUL characters or unpaired surrogates' });
    });

    it('keeps a paired surrogate (an emoji), other control characters, numbers, booleans and null', () => {
      expect(unstorable('Kettle 😀 parts\u0001\n')).toBeUndefined();
      expect(unstorable({ a: '😀', b: 1, c: true, d: null, e: [1, '\ud83d\ude00'] })).toBeUndefined();
      expect(unstorable(null)).toBeUndefined();
      expect(unstorable(12)).toBeUndefined();
    });

    it('refuses a __proto__ key, keeps constructor and prototype', () => {
      expect(unstorable(JSON.parse('{"metadata":{"__proto__":{"x":1}}}'))).toEqual({ path: ['metadata', '__proto__'], why: 'is not allowed as a key' });
      expect(unstorable(JSON.parse('{"metadata":{"constructor":1,"prototype":{"a":"b"}}}'))).toBeUndefined();
    });

    it('refuses an object nested 32 levels deep, and keeps one 31 levels deep', () => {
      const nest = (depth: number): unknown => (depth === 0 ? {} : { a: nest(depth - 1) });
      expect(unstorable(nest(31))).toBeUndefined();
      expect(unstorable(nest(32))).toEqual({ path: Array(32).fill('a'), why: 'is nested more than 32 levels deep' });
      const list = (depth: number): unknown => (depth === 0 ? 'deep' : [list(depth - 1)]);
      expect(unstorable(list(32))).toBeUndefined();
      expect(unstorable(list(33))).toEqual({ path: Array(32).fill(0), why: 'is nested more than 32 levels deep' });
    });

    it('parseInput refuses it before any other check, naming the field the caller\'s way', () => {
      const schema = z.strictObject({ name: z.string().max(3) });
      expect(refused(schema, { name: 'toolong\u0000', foo: 1 })).toEqual({ code: 'VALIDATION_FAILED', httpStatus: 400, message: `name: ${NUL}`, details: undefined });
      expect(refused(schema, 'x\u0000')).toMatchObject({ message: `body: ${NUL}` });
      expect(refused(schema, { name: 'x\u0000' }, 'query')).toMatchObject({ message: `query.name: ${NUL}` });
    });
  });

  describe('the shared field rules', () => {
    it('nonBlank: trimmed, something besides white space, at most its length after trimming', () => {
      const name = z.object({ name: nonBlank(5) });
      expect(parseInput(name, { name: ' abcde ' })).toEqual({ name: 'abcde' });
      expect(parseInput(name, { name: 'a' })).toEqual({ name: 'a' });
      expect(refused(name, { name: '   ' })).toEqual(one('VALIDATION_FAILED', 'name', 'must not be empty'));
      expect(refused(name, { name: 'abcdef' })).toEqual(one('VALIDATION_FAILED', 'name', 'must be at most 5 characters'));
      expect(refused(z.object({ note: reasonSchema }), { note: 'x'.repeat(501) })).toEqual(one('VALIDATION_FAILED', 'note', 'must be at most 500 characters'));
      expect(parseInput(reasonSchema, ` ${'x'.repeat(500)} `)).toBe('x'.repeat(500));
      expect(refused(reasonSchema, '')).toEqual(one('VALIDATION_FAILED', 'body', 'must not be empty'));
    });

    it('optional: absent and null both mean absent; a value is checked as usual', () => {
      const schema = z.object({ note: optional(z.string().max(3)) });
      expect(parseInput(schema, {})).toEqual({});
      expect(parseInput(schema, { note: null }).note).toBeUndefined();
      expect(parseInput(schema, { note: 'abc' })).toEqual({ note: 'abc' });
      expect(refused(schema, { note: 'abcd' })).toEqual(one('VALIDATION_FAILED', 'note', 'must be at most 3 characters'));
    });

    // Text that is not a whole number fails both readings, so it is "not valid" (zod reports the
    // union, not the regex's own words).
    it('wholeNumber: a JSON number, or a query string\'s digits with an optional minus', () => {
      expect(wholeNumber.parse(7)).toBe(7);
      expect(wholeNumber.parse('42')).toBe(42);
      expect(wholeNumber.parse('-3')).toBe(-3);
      expect(wholeNumber.parse('007')).toBe(7);
      for (const bad of ['1.5', '+3', '3-', '1e3', ' 3', '3 ', '', '-', 'x3', '3x']) {
        expect(refused(wholeNumber, bad), bad).toEqual(one('VALIDATION_FAILED', 'body', 'is not valid'));
      }
      expect(refused(wholeNumber, true)).toEqual(one('VALIDATION_FAILED', 'body', 'is not valid'));
    });

    it('offset paging: limit 1 to 100 (default 50), offset 0 to 1000000000 (default 0), from a query string too', () => {
      const page = z.strictObject(offsetPage);
      expect(parseInput(page, {}, 'query')).toEqual({ limit: 50, offset: 0 });
      expect(parseInput(page, { limit: '1', offset: '0' }, 'query')).toEqual({ limit: 1, offset: 0 });
      expect(parseInput(page, { limit: 100, offset: 1e9 }, 'query')).toEqual({ limit: 100, offset: 1e9 });
      expect(refused(page, { limit: '0' }, 'query')).toEqual(one('VALIDATION_FAILED', 'query.limit', 'must be 1 to 100'));
      expect(refused(page, { limit: 101 }, 'query')).toEqual(one('VALIDATION_FAILED', 'query.limit', 'must be 1 to 100'));
      expect(refused(page, { limit: '2.5' }, 'query')).toEqual(one('VALIDATION_FAILED', 'query.limit', 'is not valid'));
      expect(refused(page, { limit: 2.5 }, 'query')).toEqual(one('VALIDATION_FAILED', 'query.limit', 'must be a whole number'));
      expect(refused(page, { offset: '-1' }, 'query')).toEqual(one('VALIDATION_FAILED', 'query.offset', 'must not be negative'));
      expect(refused(page, { offset: 1e9 + 1 }, 'query')).toEqual(one('VALIDATION_FAILED', 'query.offset', 'must be at most 1000000000'));
    });

    it('connection arguments: first and last 0 to 100 (50 when left out), cursors at most 200 characters', () => {
      expect([PAGE_DEFAULT, PAGE_MAX]).toEqual([50, 100]);
      const args = z.object(connectionArgs);
      expect(parseInput(args, { first: 0, last: 100, after: 'c'.repeat(200), before: null }, 'arguments')).toEqual({ first: 0, last: 100, after: 'c'.repeat(200), before: null });
      expect(parseInput(args, {}, 'arguments')).toEqual({});
      expect(refused(args, { first: -1 }, 'arguments')).toEqual(one('VALIDATION_FAILED', 'first', 'must be 0 to 100'));
      expect(refused(args, { last: 101 }, 'arguments')).toEqual(one('VALIDATION_FAILED', 'last', 'must be 0 to 100'));
      expect(refused(args, { first: 1.5 }, 'arguments')).toEqual(one('VALIDATION_FAILED', 'first', 'must be a whole number'));
      expect(refused(args, { after: 'c'.repeat(201) }, 'arguments')).toEqual(one('VALIDATION_FAILED', 'after', 'must be at most 200 characters'));
      expect(refused(args, { before: 'c'.repeat(201) }, 'arguments')).toEqual(one('VALIDATION_FAILED', 'before', 'must be at most 200 characters'));
    });

    it('documentedAs: the API document shows the stated schema, keeping the description and example', () => {
      const rendered: Record<string, unknown> = { anyOf: [{ type: 'number' }, { type: 'string' }], default: 50, description: 'Page size', example: 20 };
      documentedAs({ type: 'integer', minimum: 1 }).override({ jsonSchema: rendered });
      expect(rendered).toEqual({ type: 'integer', minimum: 1, description: 'Page size', example: 20 });
    });
  });
});

describe('payment-input.ts: initiating and listing payments', () => {
  const body = { amount: 12_345, currency: 'ZAR', merchantOrderId: 'ORD-1001' };
  const init = (extra: Record<string, unknown>) => parseInput(initiatePaymentInput, { ...body, ...extra });
  const initRefused = (extra: Record<string, unknown>) => refused(initiatePaymentInput, { ...body, ...extra });
  const LIMITS = "must be within this merchant's payment limits (at most 10000000 cents for any merchant)";
  const PHONE = 'must be a phone number in international (E.164) form, such as +27825550123';

  it('keeps what the caller gave, and nothing it did not', () => {
    expect(init({})).toEqual({ amount: 12_345, currency: 'ZAR', merchantOrderId: 'ORD-1001' });
    expect(
      init({
        intentType: 'purchase',
        includeQr: true,
        successUrl: 'https://shop.example/ok',
        cancelUrl: 'http://shop.example/cancel',
        failureUrl: null,
        description: 'Two tickets',
        customerInfo: { email: 'thandi@example.co.za', phone: '+27 82 555 0123' },
      }),
    ).toEqual({
      amount: 12_345,
      currency: 'ZAR',
      merchantOrderId: 'ORD-1001',
      intentType: 'purchase',
      includeQr: true,
      successUrl: 'https://shop.example/ok',
      cancelUrl: 'http://shop.example/cancel',
      description: 'Two tickets',
      customerInfo: { email: 'thandi@example.co.za', phone: '+27825550123' },
    });
  });

  it('fills the defaults the service applies: purchase_and_redeem, no QR code; a given value stays', () => {
    expect(withDefaults(init({}))).toEqual({ ...body, intentType: 'purchase_and_redeem', includeQr: false });
    expect(withDefaults(init({ intentType: 'purchase', includeQr: true }))).toEqual({ ...body, intentType: 'purchase', includeQr: true });
    expect(withDefaults(init({ intentType: 'purchase_and_redeem', includeQr: false }))).toEqual({ ...body, intentType: 'purchase_and_redeem', includeQr: false });
    expect(PAYMENT_URL_FIELDS).toEqual(['successUrl', 'cancelUrl', 'failureUrl', 'webhookUrl']);
  });

  it('an amount is whole cents, within what any merchant\'s limits can hold, on both sides (INVALID_AMOUNT)', () => {
    expect(init({ amount: 10_000_000 }).amount).toBe(10_000_000);
    expect(init({ amount: -10_000_000 }).amount).toBe(-10_000_000);
    expect(init({ amount: 0 }).amount).toBe(0);
    expect(initRefused({ amount: 10_000_001 })).toEqual(one('INVALID_AMOUNT', 'amount', LIMITS));
    expect(initRefused({ amount: -10_000_001 })).toEqual(one('INVALID_AMOUNT', 'amount', LIMITS));
    expect(initRefused({ amount: 123.5 })).toEqual(one('INVALID_AMOUNT', 'amount', 'must be a whole number'));
    expect(initRefused({ amount: 2 ** 53 })).toEqual({
      code: 'INVALID_AMOUNT',
      httpStatus: 400,
      message: 'amount: is too large',
      details: [
        { field: 'amount', message: 'is too large' },
        { field: 'amount', message: LIMITS },
      ],
    });
    expect(initRefused({ amount: -(2 ** 53) }).details).toEqual([
      { field: 'amount', message: 'is too small' },
      { field: 'amount', message: LIMITS },
    ]);
    expect(initRefused({ amount: '12345' })).toEqual(one('VALIDATION_FAILED', 'amount', 'must be a number'));
    expect(initRefused({ amount: null })).toEqual(one('VALIDATION_FAILED', 'amount', 'must be a number'));
    expect(initRefused({ amount: undefined })).toEqual(one('VALIDATION_FAILED', 'amount', 'is required'));
  });

  it('the currency is ZAR and only ZAR (INVALID_CURRENCY), the intent one of two', () => {
    expect(initRefused({ currency: 'zar' })).toEqual(one('INVALID_CURRENCY', 'currency', 'only ZAR is supported'));
    expect(initRefused({ currency: 'USD' })).toEqual(one('INVALID_CURRENCY', 'currency', 'only ZAR is supported'));
    expect(initRefused({ currency: 710 })).toEqual(one('VALIDATION_FAILED', 'currency', 'must be a string'));
    expect(initRefused({ intentType: 'refund' })).toEqual(one('VALIDATION_FAILED', 'intentType', 'must be purchase or purchase_and_redeem'));
    expect(initRefused({ includeQr: 'yes' })).toEqual(one('VALIDATION_FAILED', 'includeQr', 'must be true or false'));
  });

  it('the order id is 1 to 255 characters; the description at most 200', () => {
    expect(init({ merchantOrderId: 'x' }).merchantOrderId).toBe('x');
    expect(init({ merchantOrderId: 'x'.repeat(255) }).merchantOrderId).toBe('x'.repeat(255));
    expect(initRefused({ merchantOrderId: '' })).toEqual(one('VALIDATION_FAILED', 'merchantOrderId', 'must not be empty'));
    expect(initRefused({ merchantOrderId: 'x'.repeat(256) })).toEqual(one('VALIDATION_FAILED', 'merchantOrderId', 'must be at most 255 characters'));
    expect(init({ description: 'd'.repeat(200) }).description).toBe('d'.repeat(200));
    expect(initRefused({ description: 'd'.repeat(201) })).toEqual(one('VALIDATION_FAILED', 'description', 'must be at most 200 characters'));
  });

  it('an address is an http(s) URL of at most 2048 characters, in each of the four fields', () => {
    const long = `https://shop.example/${'p'.repeat(2048 - 21)}`;
    expect(long).toHaveLength(2048);
    for (const field of PAYMENT_URL_FIELDS) {
      expect(init({ [field]: 'https://shop.example/a' })[field], field).toBe('https://shop.example/a');
      expect(init({ [field]: 'http://localhost:8080/a' })[field], field).toBe('http://localhost:8080/a');
      expect(init({ [field]: long })[field], field).toBe(long);
      expect(initRefused({ [field]: `${long}p` }), field).toEqual(one('VALIDATION_FAILED', field, 'must be at most 2048 characters'));
      for (const bad of ['ftp://shop.example/a', 'httpx://shop.example/a', 'git+https://shop.example/a', 'shop.example/a', 'javascript:alert(1)']) {
        expect(initRefused({ [field]: bad }), `${field} ${bad}`).toEqual(one('VALIDATION_FAILED', field, 'must be an http(s) URL'));
      }
    }
  });

  it('a customer is reached by e-mail and/or an E.164 phone number', () => {
    expect(parseInput(customerInfoInput, { email: 'a@b.co' })).toEqual({ email: 'a@b.co' });
    expect(parseInput(customerInfoInput, { phone: '+27 82 555 0123', email: null })).toEqual({ phone: '+27825550123' });
    expect(refused(customerInfoInput, {})).toEqual(one('VALIDATION_FAILED', 'body', 'needs email and/or phone'));
    expect(refused(customerInfoInput, { email: null, phone: null })).toEqual(one('VALIDATION_FAILED', 'body', 'needs email and/or phone'));
    expect(initRefused({ customerInfo: {} })).toEqual(one('VALIDATION_FAILED', 'customerInfo', 'needs email and/or phone'));
    expect(refused(customerInfoInput, { email: 'thandi' })).toEqual(one('VALIDATION_FAILED', 'email', 'must be an e-mail address'));
    expect(refused(customerInfoInput, { phone: '082 555 0123' })).toEqual(one('VALIDATION_FAILED', 'phone', PHONE));
    expect(initRefused({ customerInfo: { phone: '0825550123' } })).toEqual(one('VALIDATION_FAILED', 'customerInfo.phone', PHONE, 'customer info, phone'));
    expect(refused(customerInfoInput, { fax: '+27215550123' })).toMatchObject({ details: expect.arrayContaining([{ field: 'fax', message: 'is not a known field' }]) });
  });

  it('an e-mail address is at most 254 characters, a phone number as written at most 32', () => {
    const email = `${'a'.repeat(242)}@example.com`;
    expect(email).toHaveLength(254);
    expect(parseInput(customerInfoInput, { email })).toEqual({ email });
    expect(refused(customerInfoInput, { email: `a${email}` })).toEqual(one('VALIDATION_FAILED', 'email', 'must be at most 254 characters'));
    const phone = `+27${' '.repeat(20)}825550123`;
    expect(phone).toHaveLength(32);
    expect(parseInput(customerInfoInput, { phone })).toEqual({ phone: '+27825550123' });
    expect(refused(customerInfoInput, { phone: `+27${' '.repeat(21)}825550123` })).toEqual(one('VALIDATION_FAILED', 'phone', 'must be at most 32 characters'));
  });

  it('REST names the same refusals in snake_case', () => {
    const rest = { amount: 12_345, currency: 'ZAR', merchant_order_id: 'ORD-1001' };
    expect(parseWire(initiatePaymentInput, { ...rest, customer_info: { phone: '+27 82 555 0123' } })).toEqual({ ...body, customerInfo: { phone: '+27825550123' } });
    expect(refusedRest(initiatePaymentInput, { ...rest, customer_info: {} })).toEqual(one('VALIDATION_FAILED', 'customer_info', 'needs email and/or phone'));
    expect(refusedRest(initiatePaymentInput, { ...rest, customer_info: { phone: 'x' } })).toEqual(one('VALIDATION_FAILED', 'customer_info.phone', PHONE, 'customer info, phone'));
    expect(refusedRest(initiatePaymentInput, { ...rest, merchant_order_id: '' })).toEqual(one('VALIDATION_FAILED', 'merchant_order_id', 'must not be empty'));
  });

  it('an Idempotency-Key is 1 to 255 printable ASCII characters without spaces', () => {
    const KEY = 'must be 1 to 255 printable characters without spaces';
    for (const good of ['!', '~', 'ORD-1001-20261129T101500-a1b2', 'k'.repeat(255)]) expect(parseInput(idempotencyKeyInput, good), good).toBe(good);
    for (const bad of ['', ' ', 'a b', 'k'.repeat(256), 'key\u007f', 'clé', 'key\t']) {
      expect(refused(idempotencyKeyInput, bad, 'Idempotency-Key'), bad).toEqual(one('VALIDATION_FAILED', 'Idempotency-Key', KEY));
    }
  });

  describe('listing payments', () => {
    const list = (query: Record<string, unknown>) => parseInput(listPaymentsQuery, query, 'query');
    const listRefused = (query: Record<string, unknown>) => refused(listPaymentsQuery, query, 'query');
    const WINDOW = 'must be a date (YYYY-MM-DD) or an ISO 8601 timestamp with its offset';

    it('pages by default, filters by status, order id and search text (trimmed)', () => {
      expect(list({})).toEqual({ limit: 50, offset: 0 });
      expect(list({ limit: '10', offset: '20', status: 'captured', merchantOrderId: 'ORD-1', q: '  100,50 ' })).toEqual({ limit: 10, offset: 20, status: 'captured', merchantOrderId: 'ORD-1', q: '100,50' });
      expect(list({ q: 'q'.repeat(255), merchantOrderId: 'o'.repeat(255) })).toMatchObject({ q: 'q'.repeat(255), merchantOrderId: 'o'.repeat(255) });
    });

    it('refuses an unknown status, an empty or overlong order id or search, and unknown parameters', () => {
      expect(listRefused({ status: 'paid' })).toEqual(one('VALIDATION_FAILED', 'query.status', 'must be one of created, initiated, awaiting_webhook, captured, failed, cancelled'));
      expect(listRefused({ merchantOrderId: '' })).toEqual(one('VALIDATION_FAILED', 'query.merchantOrderId', 'must not be empty'));
      expect(listRefused({ merchantOrderId: 'o'.repeat(256) })).toEqual(one('VALIDATION_FAILED', 'query.merchantOrderId', 'must be at most 255 characters'));
      expect(listRefused({ q: '   ' })).toEqual(one('VALIDATION_FAILED', 'query.q', 'must not be empty'));
      expect(listRefused({ q: 'q'.repeat(256) })).toEqual(one('VALIDATION_FAILED', 'query.q', 'must be at most 255 characters'));
      expect(listRefused({ sort: 'amount' })).toEqual(one('VALIDATION_FAILED', 'query.sort', 'is not a known field'));
    });

    it('reads a day as the whole SAST day, both ends included', () => {
      expect(list({ createdFrom: '2026-11-24', createdTo: '2026-11-24' })).toMatchObject({
        createdFrom: new Date('2026-11-23T22:00:00.000Z'),
        createdTo: new Date('2026-11-24T22:00:00.000Z'),
      });
      expect(list({ createdFrom: '2024-02-29', createdTo: '2026-12-31' })).toMatchObject({
        createdFrom: new Date('2024-02-28T22:00:00.000Z'),
        createdTo: new Date('2026-12-31T22:00:00.000Z'),
      });
    });

    it('reads an instant with its offset, the end one millisecond on so that it is included', () => {
      expect(list({ createdFrom: '2026-11-24T00:00:00+02:00', createdTo: '2026-11-24T10:15:30.250Z' })).toMatchObject({
        createdFrom: new Date('2026-11-23T22:00:00.000Z'),
        createdTo: new Date('2026-11-24T10:15:30.251Z'),
      });
    });

    it('refuses a day that is not on the calendar, an instant without its offset, and anything else', () => {
      for (const bad of ['2026-02-29', '2026-02-30', '2026-13-01', '2026-00-10', '2026-11-24x', 'x2026-11-24', '2026-11-24T10:15:30', '2026-11-24 10:15:30+02:00', '26-11-24', '+012026-11-24', 'yesterday', '']) {
        expect(listRefused({ createdFrom: bad }), bad).toEqual(one('VALIDATION_FAILED', 'query.createdFrom', WINDOW));
        expect(listRefused({ createdTo: bad }), bad).toEqual(one('VALIDATION_FAILED', 'query.createdTo', WINDOW));
      }
    });
  });
});

describe('payout-input.ts: paying out by EFT', () => {
  const account = { accountNumber: '62012345678', branchCode: '250655', accountHolder: 'Thandi Nkosi', bankName: 'First National Bank' };
  const body = { amountCents: 25_000, currency: 'ZAR', payoutMethod: 'eft', paymentDetails: account };
  const pay = (extra: Record<string, unknown>) => parseInput(createPayoutInput, { ...body, ...extra }, 'input');
  const payRefused = (extra: Record<string, unknown>) => refused(createPayoutInput, { ...body, ...extra }, 'input');
  const detailsRefused = (extra: Record<string, unknown>) => payRefused({ paymentDetails: { ...account, ...extra } });
  const WORDS: Record<string, string> = { accountNumber: 'account number', branchCode: 'branch code', accountHolder: 'account holder', bankName: 'bank name' };
  const inDetails = (field: string, problem: string) => one('INVALID_PAYMENT_DETAILS', `paymentDetails.${field}`, problem, `payment details, ${WORDS[field]}`);

  it('takes a bank account, trimming the names', () => {
    expect(pay({ paymentDetails: { ...account, accountHolder: '  Thandi Nkosi ', bankName: ' FNB ' } })).toEqual({
      amountCents: 25_000,
      currency: 'ZAR',
      payoutMethod: 'eft',
      paymentDetails: { accountNumber: '62012345678', branchCode: '250655', accountHolder: 'Thandi Nkosi', bankName: 'FNB' },
    });
  });

  it('or a saved payee, with a reference, a description and metadata kept as given', () => {
    const given = {
      amountCents: 1,
      currency: 'ZAR',
      payoutMethod: 'eft',
      payeeId: '5d0c3c8e-2a4f-4b8e-9d61-0f6a1b2c3d4e',
      merchantReference: 'INV-1001',
      description: 'Supplier invoice 1001',
      metadata: { orderRef: 'A-1', nested: { x: 1 } },
    };
    expect(parseInput(createPayoutInput, given)).toEqual(given);
    expect(parseInput(createPayoutInput, { ...given, paymentDetails: null, description: null })).toEqual({ ...given, description: undefined });
  });

  it('an account number is 5 to 20 digits', () => {
    for (const good of ['12345', '0'.repeat(20), '62012345678']) expect(pay({ paymentDetails: { ...account, accountNumber: good } }).paymentDetails!.accountNumber).toBe(good);
    for (const bad of ['1234', '1'.repeat(21), '62012 45678', ' 62012345678', '62012345678 ', '6201234567x', 'x6201234567', '620-123-4567', '']) {
      expect(detailsRefused({ accountNumber: bad }), bad).toEqual(inDetails('accountNumber', 'must be 5 to 20 digits'));
    }
  });

  it('a branch code is 6 digits and a bank\'s universal code; a malformed one gets one message', () => {
    for (const [code] of UNIVERSAL_CODES) expect(pay({ paymentDetails: { ...account, branchCode: code } }).paymentDetails!.branchCode).toBe(code);
    for (const bad of ['12345', '1234567', '25065', '2506550', ' 250655', '250655 ', '25o655', '']) {
      expect(detailsRefused({ branchCode: bad }), bad).toEqual(inDetails('branchCode', 'must be exactly 6 digits'));
    }
    for (const unknown of ['123456', '000000', '250656', '632006']) expect(detailsRefused({ branchCode: unknown }), unknown).toEqual(inDetails('branchCode', UNKNOWN_BRANCH_CODE));
    expect(UNKNOWN_BRANCH_CODE).toBe('is not a known South African universal branch code (e.g. 632005 Absa, 470010 Capitec, 250655 FNB, 198765 Nedbank, 051001 Standard Bank)');
  });

  it('an account holder of 1 to 200 characters and a bank name of 1 to 100, after trimming', () => {
    expect(pay({ paymentDetails: { ...account, accountHolder: 'h'.repeat(200), bankName: 'b'.repeat(100) } }).paymentDetails).toMatchObject({ accountHolder: 'h'.repeat(200), bankName: 'b'.repeat(100) });
    expect(detailsRefused({ accountHolder: 'h'.repeat(201) })).toEqual(inDetails('accountHolder', 'must be at most 200 characters'));
    expect(detailsRefused({ accountHolder: ' ' })).toEqual(inDetails('accountHolder', 'must not be empty'));
    expect(detailsRefused({ bankName: 'b'.repeat(101) })).toEqual(inDetails('bankName', 'must be at most 100 characters'));
    expect(detailsRefused({ bankName: '' })).toEqual(inDetails('bankName', 'must not be empty'));
  });

  it('a problem inside the account is INVALID_PAYMENT_DETAILS, a missing field too; the account\'s own type or keys are not', () => {
    expect(detailsRefused({ accountNumber: undefined })).toEqual(inDetails('accountNumber', 'is required'));
    expect(detailsRefused({ iban: 'ZA00' })).toEqual(one('VALIDATION_FAILED', 'paymentDetails.iban', 'is not a known field', 'payment details, iban'));
    expect(payRefused({ paymentDetails: 'x' })).toEqual(one('VALIDATION_FAILED', 'paymentDetails', 'must be an object'));
    expect(parseInput(eftDetailsInput, account)).toEqual(account);
    expect(refused(eftDetailsInput, { ...account, branchCode: '1' })).toEqual(one('VALIDATION_FAILED', 'branchCode', 'must be exactly 6 digits'));
  });

  it('an amount is whole cents, more than 0, exact as a number', () => {
    expect(pay({ amountCents: 1 }).amountCents).toBe(1);
    expect(pay({ amountCents: Number.MAX_SAFE_INTEGER }).amountCents).toBe(Number.MAX_SAFE_INTEGER);
    expect(payRefused({ amountCents: 0 })).toEqual(one('VALIDATION_FAILED', 'amountCents', 'must be greater than 0'));
    expect(payRefused({ amountCents: -1 })).toEqual(one('VALIDATION_FAILED', 'amountCents', 'must be greater than 0'));
    expect(payRefused({ amountCents: 0.5 })).toEqual(one('VALIDATION_FAILED', 'amountCents', 'must be a whole number'));
    expect(payRefused({ amountCents: 2 ** 53 })).toEqual(one('VALIDATION_FAILED', 'amountCents', 'is too large'));
    expect(payRefused({ amountCents: '25000' })).toEqual(one('VALIDATION_FAILED', 'amountCents', 'must be a number'));
  });

  it('the currency is ZAR (INVALID_CURRENCY), three letters; the method eft (INVALID_PAYOUT_METHOD)', () => {
    expect(payRefused({ currency: 'USD' })).toEqual(one('INVALID_CURRENCY', 'currency', 'only ZAR is supported'));
    expect(payRefused({ currency: 'zar' })).toEqual(one('INVALID_CURRENCY', 'currency', 'only ZAR is supported'));
    expect(payRefused({ currency: 'ZA' })).toEqual({
      code: 'INVALID_CURRENCY',
      httpStatus: 400,
      message: 'currency: must be 3 letters',
      details: [
        { field: 'currency', message: 'must be 3 letters' },
        { field: 'currency', message: 'only ZAR is supported' },
      ],
    });
    expect(payRefused({ currency: 'ZARR' }).details).toEqual([
      { field: 'currency', message: 'must be 3 letters' },
      { field: 'currency', message: 'only ZAR is supported' },
    ]);
    expect(payRefused({ currency: null })).toEqual(one('VALIDATION_FAILED', 'currency', 'must be a string'));
    expect(payRefused({ payoutMethod: 'EFT' })).toEqual(one('INVALID_PAYOUT_METHOD', 'payoutMethod', 'only eft is supported'));
    expect(payRefused({ payoutMethod: 'swift' })).toEqual(one('INVALID_PAYOUT_METHOD', 'payoutMethod', 'only eft is supported'));
    expect(payRefused({ payoutMethod: undefined })).toEqual(one('VALIDATION_FAILED', 'payoutMethod', 'is required'));
  });

  it('a payee id is a UUID; a reference 1 to 100 characters; a description at most 500; metadata an object', () => {
    expect(payRefused({ payeeId: 'payee-1' })).toEqual(one('VALIDATION_FAILED', 'payeeId', 'must be a payee id (a UUID)'));
    expect(pay({ merchantReference: 'r'.repeat(100) }).merchantReference).toBe('r'.repeat(100));
    expect(payRefused({ merchantReference: '' })).toEqual(one('VALIDATION_FAILED', 'merchantReference', 'must not be empty'));
    expect(payRefused({ merchantReference: 'r'.repeat(101) })).toEqual(one('VALIDATION_FAILED', 'merchantReference', 'must be at most 100 characters'));
    expect(pay({ description: 'd'.repeat(500) }).description).toBe('d'.repeat(500));
    expect(payRefused({ description: 'd'.repeat(501) })).toEqual(one('VALIDATION_FAILED', 'description', 'must be at most 500 characters'));
    expect(payRefused({ metadata: ['a'] })).toEqual(one('VALIDATION_FAILED', 'metadata', 'must be an object'));
  });

  it('REST names the account\'s fields in snake_case, with the same codes', () => {
    const rest = { amount_cents: 25_000, currency: 'ZAR', payout_method: 'eft', payment_details: { account_number: '62012345678', branch_code: '250655', account_holder: 'T N', bank_name: 'FNB' } };
    expect(refusedRest(createPayoutInput, { ...rest, payment_details: { ...rest.payment_details, branch_code: '123456' } })).toEqual(
      one('INVALID_PAYMENT_DETAILS', 'payment_details.branch_code', UNKNOWN_BRANCH_CODE, 'payment details, branch code'),
    );
    expect(refusedRest(createPayoutInput, { ...rest, payment_details: { ...rest.payment_details, account_number: '1234' } })).toEqual(
      one('INVALID_PAYMENT_DETAILS', 'payment_details.account_number', 'must be 5 to 20 digits', 'payment details, account number'),
    );
  });

  it('lists payouts by page and by status', () => {
    expect(parseInput(listPayoutsQuery, { status: 'approved', limit: '5' }, 'query')).toEqual({ limit: 5, offset: 0, status: 'approved' });
    expect(parseInput(listPayoutsQuery, { status: null }, 'query')).toEqual({ limit: 50, offset: 0 });
    expect(refused(listPayoutsQuery, { status: 'paid' }, 'query')).toEqual(one('VALIDATION_FAILED', 'query.status', 'must be one of pending, approved, processing, completed, failed, rejected'));
  });
});

/** Each bank on the list, by its universal branch code: its id (recorded on a payout) and the name a bank file carries. */
const UNIVERSAL_CODES: readonly [code: string, id: string, name: string][] = [
  ['632005', 'absa', 'Absa Bank'],
  ['410506', 'access', 'Access Bank South Africa'],
  ['430000', 'african_bank', 'African Bank'],
  ['800000', 'albaraka', 'Albaraka Bank'],
  ['888000', 'bank_zero', 'Bank Zero'],
  ['462005', 'bidvest', 'Bidvest Bank'],
  ['470010', 'capitec', 'Capitec Bank'],
  ['450105', 'capitec_business', 'Capitec Business'],
  ['350005', 'citibank', 'Citibank South Africa'],
  ['679000', 'discovery', 'Discovery Bank'],
  ['589000', 'finbond', 'Finbond Mutual Bank'],
  ['250655', 'fnb', 'First National Bank'],
  ['570100', 'hbz', 'HBZ Bank'],
  ['757026', 'ithala', 'Ithala'],
  ['580105', 'investec', 'Investec Bank'],
  ['198765', 'nedbank', 'Nedbank'],
  ['460005', 'postbank', 'Postbank'],
  ['222026', 'rmb_private', 'RMB Private Bank'],
  ['683000', 'sasfin', 'Sasfin Bank'],
  ['051001', 'standard_bank', 'Standard Bank'],
  ['730020', 'standard_chartered', 'Standard Chartered Bank'],
  ['678910', 'tymebank', 'TymeBank'],
  ['431010', 'ubank', 'Ubank'],
];

describe('za-banks.ts: the banks an EFT payout may name', () => {
  it('knows each bank by its universal branch code and by its id, and no other code', () => {
    for (const [code, id, name] of UNIVERSAL_CODES) {
      expect(bankForBranchCode(code), code).toEqual(expect.objectContaining({ id, name, universalBranchCode: code }));
      expect(bankById(id), id).toBe(bankForBranchCode(code));
    }
    expect(ZA_BANKS).toHaveLength(UNIVERSAL_CODES.length);
    for (const unknown of ['', '51001', '000000', '250656', '632005 ']) expect(bankForBranchCode(unknown), unknown).toBeUndefined();
    for (const unknown of ['', 'FNB', 'first_national', 'standard']) expect(bankById(unknown), unknown).toBeUndefined();
  });

  it('recognises every way a merchant writes each bank\'s name, in any case and punctuation', () => {
    const written: [string, string][] = [
      ['ABSA', 'absa'], ['Amalgamated Banks of South Africa', 'absa'],
      ['Access Bank', 'access'], ['Grobank', 'access'],
      ['African Bank Ltd', 'african_bank'],
      ['Albaraka', 'albaraka'], ['Al Baraka Bank', 'albaraka'],
      ['Bank Zero', 'bank_zero'],
      ['Bidvest Bank', 'bidvest'], ['Old Mutual', 'bidvest'],
      ['Capitec', 'capitec'],
      ['Capitec Business', 'capitec_business'], ['Mercantile Bank', 'capitec_business'],
      ['Citibank N.A.', 'citibank'], ['Citi Bank', 'citibank'],
      ['Discovery Bank', 'discovery'],
      ['Finbond Mutual Bank', 'finbond'],
      ['FNB', 'fnb'], ['First National Bank', 'fnb'], ['FirstRand', 'fnb'], ['First Rand Bank', 'fnb'],
      ['HBZ', 'hbz'], ['Habib Bank AG Zurich', 'hbz'],
      ['Ithala SOC', 'ithala'],
      ['Investec', 'investec'],
      ['Nedbank', 'nedbank'], ['Ned Bank', 'nedbank'], ['NEDCOR', 'nedbank'],
      ['Postbank', 'postbank'], ['Post Bank', 'postbank'], ['SAPO', 'postbank'],
      ['RMB Private Bank', 'rmb_private'], ['Rand Merchant Bank', 'rmb_private'],
      ['Sasfin', 'sasfin'],
      ['Standard Bank', 'standard_bank'], ['Stanbic', 'standard_bank'], ['SBSA', 'standard_bank'],
      ['Standard Chartered Bank', 'standard_chartered'],
      ['Tyme Bank', 'tymebank'],
      ['Ubank', 'ubank'], ['U Bank', 'ubank'], ['TEBA', 'ubank'],
      ['f.n.b / FNB-Business', 'fnb'], ['  first   national\tbank  ', 'fnb'], ['ABSA (cheque)', 'absa'],
    ];
    for (const [text, id] of written) expect(banksNamedIn(text).map((b) => b.id), text).toEqual([id]);
  });

  it('reads a longer name before a shorter one within it, each bank once, longest name first', () => {
    expect(banksNamedIn('Capitec Business and Capitec').map((b) => b.id)).toEqual(['capitec_business', 'capitec']);
    expect(banksNamedIn('FNB (First National Bank)').map((b) => b.id)).toEqual(['fnb']);
    expect(banksNamedIn('Absa or FNB').map((b) => b.id)).toEqual(['absa', 'fnb']);
    expect(banksNamedIn('FNB Absa').map((b) => b.id)).toEqual(['absa', 'fnb']);
    expect(banksNamedIn('Standard Chartered, not Standard Bank').map((b) => b.id)).toEqual(['standard_chartered', 'standard_bank']);
  });

  it('finds no bank in a name that names none, nor in part of a word', () => {
    for (const text of ['Cheque account', '', 'Savings', 'Absalom Holdings', 'Capitecs', 'bank', 'first', 'FNBX']) expect(banksNamedIn(text), text).toEqual([]);
  });

  it('a bank name is a mismatch only when it names banks and not the branch code\'s own', () => {
    expect(bankNameMismatch('Absa', 'fnb')).toBe(true);
    expect(bankNameMismatch('Capitec', 'capitec_business')).toBe(true);
    expect(bankNameMismatch('FNB', 'fnb')).toBe(false);
    expect(bankNameMismatch('FNB or Absa', 'absa')).toBe(false);
    expect(bankNameMismatch('Cheque account', 'fnb')).toBe(false);
    expect(bankNameMismatch('Absa', null)).toBe(false);
  });
});

describe('payee.ts: saved payees', () => {
  const account = { accountNumber: '1002003004', branchCode: '470010', accountHolder: 'Kettle Parts (Pty) Ltd', bankName: 'Capitec' };
  const input = { name: 'Kettle Parts (supplier)', paymentDetails: account, password: 'correct horse' };

  it('holds at most 200 per merchant; an unknown one is NOT_FOUND', () => {
    expect(MAX_PAYEES).toBe(200);
    const e = payeeNotFound();
    expect([e.code, e.httpStatus, e.message]).toEqual(['NOT_FOUND', 404, 'payee not found']);
  });

  it('takes a name, the bank account and the password again (and the second factor\'s code)', () => {
    expect(parseInput(createPayeeInput, { ...input, name: ' Kettle Parts (supplier) ' }, 'input')).toEqual(input);
    expect(parseInput(createPayeeInput, { ...input, code: '123456' }, 'input')).toEqual({ ...input, code: '123456' });
    expect(parseInput(createPayeeInput, { ...input, name: 'n'.repeat(100) }, 'input').name).toBe('n'.repeat(100));
  });

  it('refuses a blank or overlong name, an account the payout would refuse, and no password', () => {
    expect(refused(createPayeeInput, { ...input, name: ' ' }, 'input')).toEqual(one('VALIDATION_FAILED', 'name', 'must not be empty'));
    expect(refused(createPayeeInput, { ...input, name: 'n'.repeat(101) }, 'input')).toEqual(one('VALIDATION_FAILED', 'name', 'must be at most 100 characters'));
    expect(refused(createPayeeInput, { ...input, paymentDetails: { ...account, branchCode: '12345' } }, 'input')).toEqual(
      one('INVALID_PAYMENT_DETAILS', 'paymentDetails.branchCode', 'must be exactly 6 digits', 'payment details, branch code'),
    );
    expect(refused(createPayeeInput, { ...input, password: '' }, 'input')).toEqual(one('VALIDATION_FAILED', 'password', 'is required: enter your password again'));
    expect(refused(createPayeeInput, { ...input, paymentDetails: undefined }, 'input')).toEqual(one('VALIDATION_FAILED', 'paymentDetails', 'is required'));
  });

  it('a step-up: a password of 1 to 1024 characters, a code of at most 64', () => {
    expect(parseInput(stepUpInput, { password: 'p' })).toEqual({ password: 'p' });
    expect(parseInput(stepUpInput, { password: 'p'.repeat(1024), code: 'c'.repeat(64) })).toEqual({ password: 'p'.repeat(1024), code: 'c'.repeat(64) });
    expect(refused(stepUpInput, { password: 'p'.repeat(1025) })).toEqual(one('VALIDATION_FAILED', 'password', 'must be at most 1024 characters'));
    expect(refused(stepUpInput, { password: 'p', code: 'c'.repeat(65) })).toEqual(one('VALIDATION_FAILED', 'code', 'must be at most 64 characters'));
    expect(refused(stepUpInput, {})).toEqual(one('VALIDATION_FAILED', 'password', 'is required'));
  });

  it('is shown with its account number masked, each field under its published name', () => {
    const payee: Payee = {
      id: '5d0c3c8e-2a4f-4b8e-9d61-0f6a1b2c3d4e',
      merchantId: '3f1c9a52-8a43-4c1e-9a57-5d2f0e2b7c11',
      name: 'Kettle Parts (supplier)',
      accountHolder: 'Kettle Parts (Pty) Ltd',
      bankName: 'Capitec',
      branchCode: '470010',
      accountNumberMasked: '****3004',
      bank: 'Capitec Bank',
      unreadable: false,
      createdAt: new Date('2026-11-28T10:15:30.000Z'),
    };
    const json = payeeJson(payee);
    expect(json).toEqual({
      payee_id: '5d0c3c8e-2a4f-4b8e-9d61-0f6a1b2c3d4e',
      merchant_id: '3f1c9a52-8a43-4c1e-9a57-5d2f0e2b7c11',
      name: 'Kettle Parts (supplier)',
      account_holder: 'Kettle Parts (Pty) Ltd',
      bank_name: 'Capitec',
      branch_code: '470010',
      account_number_masked: '****3004',
      bank: 'Capitec Bank',
      unreadable: false,
      created_at: '2026-11-28T10:15:30.000Z',
    });
    expect(payeeJsonSchema.parse(json)).toEqual(json);
    expect(payeeJson({ ...payee, unreadable: true }).unreadable).toBe(true);
  });

  it('the published shape holds what payeeJson sends and nothing else', () => {
    const json = payeeJson({
      id: '5d0c3c8e-2a4f-4b8e-9d61-0f6a1b2c3d4e', merchantId: '3f1c9a52-8a43-4c1e-9a57-5d2f0e2b7c11', name: 'n'.repeat(100), accountHolder: 'h'.repeat(200),
      bankName: 'b'.repeat(100), branchCode: 'unreadable', accountNumberMasked: 'unreadable', bank: 'B'.repeat(100), unreadable: true, createdAt: new Date(0),
    });
    expect(payeeJsonSchema.safeParse(json).success).toBe(true);
    for (const [key, value] of Object.entries({ payee_id: 'p', merchant_id: 'm', name: 'n'.repeat(101), account_holder: 'h'.repeat(201), bank_name: 'b'.repeat(101), branch_code: 'c'.repeat(12), account_number_masked: '*'.repeat(12), bank: 'B'.repeat(101), unreadable: 'no', created_at: 'yesterday', extra: 1 })) {
      expect(payeeJsonSchema.safeParse({ ...json, [key]: value }).success, key).toBe(false);
    }
  });
});
