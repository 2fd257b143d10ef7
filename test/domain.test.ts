import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseWire, restField } from '../rest/wire.ts';
import { OPERATOR, scope, oneMerchant, paymentScope, requireMerchant, requireOperator, type Actor } from '../src/domain/actor.ts';
import { captureLegs, creditLegs, projectionDelta, releaseLegs, settleLegs } from '../src/domain/ledger.ts';
import { formatRand, paymentFee } from '../src/domain/money.ts';
import { initiatePaymentInput } from '../src/domain/payment-input.ts';
import { PAYOUT_MOVES, PAYOUT_STATUSES, type PayoutAction, planPayoutMove } from '../src/domain/payout.ts';
import { createPayoutInput } from '../src/domain/payout-input.ts';
import { redirectAllowed } from '../src/domain/redirect.ts';
import { parseInput } from '../src/domain/validation.ts';

/** The pure rules of the domain, without a database or a server. */

const merchant = (id: string): Actor => ({
  kind: 'merchant',
  merchant: { id, name: 'Shop', webhookUrl: null, paymentFeeBps: 0, paymentFeeFixedCents: 0, payoutFeeCents: 0, autoTopup: false, redirectDomains: [], supportContact: null, supportEmail: null, supportPhone: null, paymentMethods: null, paymentLimits: { minCents: 5500, maxCents: 300000 }, createdAt: new Date(), updatedAt: new Date() },
  key: { id: 'k', merchantId: id, kid: 'kid', env: 'tst', type: 'secret', status: 'active', createdAt: new Date(), expiresAt: null, revokedAt: null, displayMask: 'm', issuedBy: 'merchant', issuedByPersonId: null, role: 'owner' },
});
const A = '3f1c9a52-8a43-4c1e-9a57-5d2f0e2b7c11';
const B = '0b6f3c4e-1d2a-4b5c-8d9e-0f1a2b3c4d5e';

describe('scope: the tenant rule', () => {
  it('gives a merchant itself, whether it names itself or nobody', () => {
    expect(scope(merchant(A))).toEqual({ merchantId: A });
    expect(scope(merchant(A), A.toUpperCase())).toEqual({ merchantId: A });
  });

  it('refuses a merchant naming another merchant with FORBIDDEN', () => {
    expect(() => scope(merchant(A), B)).toThrowError(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(() => oneMerchant(merchant(A), B)).toThrowError(expect.objectContaining({ code: 'FORBIDDEN' }));
  });

  it('gives the operator the merchant it names, or every merchant explicitly', () => {
    expect(scope(OPERATOR, B)).toEqual({ merchantId: B });
    expect(scope(OPERATOR)).toEqual({ all: true });
    expect(scope({ kind: 'system', task: 'test' })).toEqual({ all: true });
    expect(() => oneMerchant(OPERATOR)).toThrowError(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
  });

  it('reads by merchant for nobody else', () => {
    for (const actor of [{ kind: 'customer', paymentId: A }, { kind: 'provider', provider: 'yoco' }] as Actor[]) {
      expect(() => scope(actor)).toThrowError(expect.objectContaining({ code: 'FORBIDDEN' }));
    }
  });

  it('gives a customer its one payment, a provider its own attempts\' payments, anyone else its merchant scope', () => {
    expect(paymentScope({ kind: 'customer', paymentId: A.toUpperCase() })).toEqual({ paymentId: A });
    expect(() => paymentScope({ kind: 'customer', paymentId: 'not-a-payment' })).toThrowError(expect.objectContaining({ code: 'PAYMENT_NOT_FOUND' }));
    expect(paymentScope({ kind: 'provider', provider: 'yoco', notification: null })).toEqual({ provider: 'yoco' });
    expect(paymentScope(merchant(A))).toEqual({ merchantId: A });
    expect(paymentScope(OPERATOR)).toEqual({ all: true });
    expect(paymentScope({ kind: 'system', task: 'test' })).toEqual({ all: true });
  });

  it('keeps merchant-only and operator-only use cases apart', () => {
    expect(() => requireMerchant(OPERATOR)).toThrowError(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(() => requireOperator(merchant(A))).toThrowError(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(requireMerchant(merchant(A)).merchant.id).toBe(A);
  });
});

describe('planPayoutMove: the payout state machine', () => {
  const allowed: Record<PayoutAction, string[]> = {
    approve: ['pending'],
    reject: ['pending', 'approved'],
    start_transfer: ['approved'],
    complete: ['processing'],
    fail: ['processing'],
  };

  it.each(Object.keys(PAYOUT_MOVES) as PayoutAction[])('%s is allowed from exactly the specification\'s states', (action) => {
    for (const from of PAYOUT_STATUSES) {
      if (allowed[action].includes(from)) expect(planPayoutMove(from, action).to).toBe(PAYOUT_MOVES[action].to);
      else expect(() => planPayoutMove(from, action)).toThrowError(expect.objectContaining({ code: 'INVALID_STATUS_TRANSITION' }));
    }
  });

  it('never moves a terminal payout', () => {
    for (const from of ['completed', 'failed', 'rejected'] as const) {
      for (const action of Object.keys(PAYOUT_MOVES) as PayoutAction[]) expect(() => planPayoutMove(from, action)).toThrow();
    }
  });

  it('cancelling is a rejection from pending only', () => {
    expect(planPayoutMove('pending', 'reject', ['pending']).to).toBe('rejected');
    expect(() => planPayoutMove('approved', 'reject', ['pending'])).toThrowError(expect.objectContaining({ code: 'INVALID_STATUS_TRANSITION' }));
  });
});

describe('paymentFee (CONTRACT §4)', () => {
  it('rounds half up and adds the fixed fee', () => {
    expect(paymentFee(12_345, 250, 0)).toBe(309); // 308.625 → 309
    expect(paymentFee(10_000, 150, 9)).toBe(159);
    expect(paymentFee(5_500, 0, 0)).toBe(0);
    expect(paymentFee(200, 25, 0)).toBe(1); // 0.5 → 1
    expect(paymentFee(199, 25, 0)).toBe(0); // 0.4975 → 0
  });

  it('is exact for every amount and rate the service accepts (no float drift)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 5500, max: 300000 }), fc.integer({ min: 0, max: 10000 }), fc.integer({ min: 0, max: 1_000_000 }), (amount, bps, fixed) => {
        const fee = paymentFee(amount, bps, fixed);
        const exact = (BigInt(amount) * BigInt(bps) * 2n + 10000n) / 20000n + BigInt(fixed);
        return Number.isSafeInteger(fee) && BigInt(fee) === exact;
      }),
    );
  });

  it('formats rand for the hosted page', () => {
    expect(formatRand(12_345)).toBe('R 123.45');
    expect(formatRand(5)).toBe('R 0.05');
  });
});

describe('redirectAllowed (CONTRACT §4)', () => {
  it('follows only allow-listed hosts, exactly, case-insensitively', () => {
    expect(redirectAllowed('https://shop.example/ok', ['shop.example'], true)).toBe(true);
    expect(redirectAllowed('https://SHOP.example/ok', ['shop.EXAMPLE'], true)).toBe(true);
    expect(redirectAllowed('https://evil.shop.example/ok', ['shop.example'], true)).toBe(false);
    expect(redirectAllowed('https://shop.example.evil/ok', ['shop.example'], true)).toBe(false);
    expect(redirectAllowed(null, ['shop.example'], true)).toBe(false);
  });

  it('in prd only https on port 443; outside prd http too', () => {
    expect(redirectAllowed('https://shop.example:443/ok', ['shop.example'], true)).toBe(true);
    expect(redirectAllowed('https://shop.example:8443/ok', ['shop.example'], true)).toBe(false);
    expect(redirectAllowed('http://shop.example/ok', ['shop.example'], true)).toBe(false);
    expect(redirectAllowed('http://shop.example/ok', ['shop.example'], false)).toBe(true);
  });

  it('never follows credentials, other schemes or nonsense', () => {
    for (const url of ['https://user:pw@shop.example/', 'javascript:alert(1)', 'ftp://shop.example/', 'not a url', '//shop.example/']) {
      expect(redirectAllowed(url, ['shop.example'], false), url).toBe(false);
    }
  });
});

describe('the ledger\'s postings', () => {
  it('every kind of posting balances and moves the projection as CONTRACT §5 says', () => {
    const post = (legs: ReturnType<typeof creditLegs>) => projectionDelta({ merchantId: A, kind: 'credit', legs });
    expect(post(creditLegs(1000))).toMatchObject({ balance: 1000, reserved: 0, gross: 1000, fees: 0, withdrawals: 0, requiredAvailable: 0 });
    expect(post(releaseLegs(500))).toMatchObject({ balance: 0, reserved: -500, requiredAvailable: 0 });
    expect(post(settleLegs(400, 100))).toMatchObject({ balance: -500, reserved: -500, fees: 100, withdrawals: 400, requiredAvailable: 0 });
    expect(post(captureLegs(10_000, 250))).toMatchObject({ balance: 9750, gross: 10_000, fees: 250 });
    // A capture whose fee is the whole amount credits nothing but the fee.
    expect(captureLegs(5500, 5500)).toEqual([{ account: 'funding', amountCents: -5500 }, { account: 'fees', amountCents: 5500 }]);
  });

  it('refuses a posting whose legs do not sum to zero, or carry an empty or fractional leg', () => {
    const bad = [
      [{ account: 'funding', amountCents: -10 }, { account: 'merchant_available', amountCents: 9 }],
      [{ account: 'funding', amountCents: 0 }],
      [{ account: 'funding', amountCents: -0.5 }, { account: 'merchant_available', amountCents: 0.5 }],
    ] as const;
    for (const legs of bad) expect(() => projectionDelta({ merchantId: A, kind: 'credit', legs: [...legs] })).toThrow(/unbalanced/);
  });

  it('a posting that takes from the available amount says how much it needs', () => {
    const reserve = [
      { account: 'merchant_available' as const, amountCents: -700 },
      { account: 'merchant_reserved' as const, amountCents: 700 },
    ];
    expect(projectionDelta({ merchantId: A, kind: 'payout_reserve', legs: reserve }).requiredAvailable).toBe(700);
  });
});

describe('inputs: one schema, each adapter\'s names, the contract\'s codes', () => {
  const payout = { amount_cents: 100, currency: 'ZAR', payout_method: 'eft', payment_details: { account_number: '62012345678', branch_code: '250655', account_holder: 'T N', bank_name: 'FNB' } };
  const refusal = (body: unknown) => {
    try {
      parseWire(createPayoutInput, body);
    } catch (e) {
      return e as { code: string; message: string; details: { field: string; message: string }[] };
    }
    throw new Error('accepted');
  };

  it('REST parses snake_case into the domain\'s camelCase input', () => {
    expect(parseWire(createPayoutInput, payout)).toEqual({
      amountCents: 100,
      currency: 'ZAR',
      payoutMethod: 'eft',
      paymentDetails: { accountNumber: '62012345678', branchCode: '250655', accountHolder: 'T N', bankName: 'FNB' },
    });
  });

  it('gives each field its contract code and names it as REST does', () => {
    expect(refusal({ ...payout, currency: 'USD' })).toMatchObject({ code: 'INVALID_CURRENCY', message: 'currency: only ZAR is supported' });
    expect(refusal({ ...payout, currency: 710 })).toMatchObject({ code: 'VALIDATION_FAILED', message: 'currency: must be a string' });
    expect(refusal({ ...payout, payout_method: 'swift' }).code).toBe('INVALID_PAYOUT_METHOD');
    expect(refusal({ ...payout, payment_details: { ...payout.payment_details, branch_code: '123' } })).toMatchObject({
      code: 'INVALID_PAYMENT_DETAILS',
      message: 'payment details, branch code: must be exactly 6 digits',
    });
    expect(refusal({ ...payout, payment_details: 'x' }).code).toBe('VALIDATION_FAILED');
    expect(refusal({ ...payout, amount_cents: 0 })).toMatchObject({ code: 'VALIDATION_FAILED', message: 'amount_cents: must be greater than 0' });
    expect(refusal({ ...payout, amount_cents: 99999999999999999999 }).message).toBe('amount_cents: is too large');
  });

  it('lists every problem, in plain words, refusing camelCase names and unknown fields', () => {
    const r = refusal({ amountCents: 100, currency: 'ZAR', foo: 1 });
    expect(r.code).toBe('VALIDATION_FAILED');
    expect(r.details).toEqual(
      expect.arrayContaining([
        { field: 'amount_cents', message: 'is required' },
        { field: 'payout_method', message: 'is required' },
        { field: 'amountCents', message: 'is not a known field' },
        { field: 'foo', message: 'is not a known field' },
      ]),
    );
    expect(r.message).toBe(`${r.details[0]!.field}: ${r.details[0]!.message}`);
  });

  it('leaves free-form metadata as given, its keys too', () => {
    expect(parseWire(createPayoutInput, { ...payout, metadata: { orderRef: 'A-1', nested_key: { x: 1 } } }).metadata).toEqual({ orderRef: 'A-1', nested_key: { x: 1 } });
  });

  it('a payment amount of the wrong type is VALIDATION_FAILED; fractional or beyond any merchant\'s limits INVALID_AMOUNT (the merchant\'s own range is checked where the payment is written)', () => {
    const body = { amount: 12_345, currency: 'ZAR', merchant_order_id: 'o-1' };
    const code = (amount: unknown) => {
      try {
        parseWire(initiatePaymentInput, { ...body, amount });
        return 'ok';
      } catch (e) {
        return (e as { code: string }).code;
      }
    };
    expect([code('12345'), code(undefined), code(null)]).toEqual(['VALIDATION_FAILED', 'VALIDATION_FAILED', 'VALIDATION_FAILED']);
    expect([code(10_000_001), code(-10_000_001), code(123.5)]).toEqual(['INVALID_AMOUNT', 'INVALID_AMOUNT', 'INVALID_AMOUNT']);
    expect([code(5500), code(100), code(10_000_000)]).toEqual(['ok', 'ok', 'ok']);
  });

  it('GraphQL and the domain name fields in camelCase; REST in snake_case', () => {
    expect(restField(['paymentDetails', 'branchCode'])).toBe('payment_details.branch_code');
    expect(() => parseInput(createPayoutInput, { amountCents: 'x' }, 'input')).toThrowError(expect.objectContaining({ message: 'amountCents: must be a number' }));
  });

  it('refuses what the database could not store', () => {
    expect(refusal({ ...payout, description: 'a\u0000b' })).toMatchObject({ code: 'VALIDATION_FAILED', message: 'description: must not contain NUL characters or unpaired surrogates' });
  });
});
