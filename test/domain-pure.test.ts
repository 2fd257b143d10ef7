import { createHmac, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type ApiKeyRecord, apiKeyJson, apiKeyRecordJson, checksum, displayMask, generateKey, hashSecret, issuerOf, newKid, parseKey, secretMatches, toBase62 } from '../src/domain/api-key.ts';
import { captureLegs, creditLegs, type Leg, payoutReturnLegs, type Posting, projectionDelta, refundReserveLegs, refundSettleLegs, releaseLegs, settleLegs } from '../src/domain/ledger.ts';
import { formatRand, parseRand, paymentFee } from '../src/domain/money.ts';
import { EXPIRED, isTerminal, LINK_PAID_ALREADY, netAmountIn, PAYMENT_STATUSES, paymentNotFound } from '../src/domain/payment.ts';
import { CANCELLED_REASON, PAYOUT_EVENT_FOR, PAYOUT_MOVES, payoutNotFound, planPayoutMove, UNREADABLE_BANK_ACCOUNT } from '../src/domain/payout.ts';
import { redirectAllowed } from '../src/domain/redirect.ts';
import { createRefundInput, listMerchantRefundsQuery, listRefundsQuery, refundJson, refundJsonSchema, type Refund, refundNotFound } from '../src/domain/refund.ts';
import { deriveKey, formMessage, hmacHex, hmacMatches, qrMessage } from '../src/domain/signing.ts';
import { generateWebhookSecret, newWebhookKid, signatureHeader, signWebhook, WEBHOOK_SECRET_PREFIX, webhookSecretKey } from '../src/domain/webhook-signature.ts';
import { isInternalAddress, webhookUrlProblem } from '../src/domain/webhook-url.ts';
import { cutoffMinutes, easterSunday, executionDate, isBusinessDay, nextBusinessDay, publicHolidays } from '../src/domain/za-business-days.ts';

/**
 * The pure rules that money, keys, signatures and bank dates rest on, called directly: each
 * expectation pins one behaviour exactly (boundaries on both sides, every branch), so that
 * mutation testing (`npm run mutate`, docs/testing.md) finds a change to any of them.
 */

describe('South African business days', () => {
  it('computes Easter Sunday (Meeus/Jones/Butcher) for years across centuries', () => {
    const known: Record<number, string> = {
      1961: '1961-04-02', 2000: '2000-04-23', 2008: '2008-03-23', 2011: '2011-04-24', 2019: '2019-04-21',
      2024: '2024-03-31', 2025: '2025-04-20', 2026: '2026-04-05', 2027: '2027-03-28', 2038: '2038-04-25', 2100: '2100-03-28',
    };
    for (const [year, day] of Object.entries(known)) expect(easterSunday(Number(year)), year).toBe(day);
  });

  it('lists every public holiday of 2026 and the Monday after the ones on a Sunday', () => {
    expect([...publicHolidays(2026)].sort()).toEqual([
      '2026-01-01', '2026-03-21', '2026-04-03', '2026-04-06', '2026-04-27', '2026-05-01', '2026-06-16',
      '2026-08-09', '2026-08-10', '2026-09-24', '2026-12-16', '2026-12-25', '2026-12-26',
    ]);
    // 2027: Human Rights Day, Workers' Day... 21 March 2027 is a Sunday; 26 December 2027 too.
    const y2027 = publicHolidays(2027);
    expect(y2027.has('2027-03-22')).toBe(true);
    expect(y2027.has('2027-12-27')).toBe(true);
    expect(y2027.has('2027-03-23')).toBe(false);
  });

  it('a business day is a weekday that is no holiday', () => {
    expect(isBusinessDay('2026-11-27')).toBe(true); // Friday
    expect(isBusinessDay('2026-11-28')).toBe(false); // Saturday
    expect(isBusinessDay('2026-11-29')).toBe(false); // Sunday
    expect(isBusinessDay('2026-11-30')).toBe(true); // Monday
    expect(isBusinessDay('2026-04-27')).toBe(false); // Freedom Day, a Monday
    expect(isBusinessDay('2026-08-10')).toBe(false); // the Monday after Women's Day on a Sunday
    expect(isBusinessDay('2026-04-03')).toBe(false); // Good Friday
    expect(isBusinessDay('2026-04-06')).toBe(false); // Family Day
    expect(isBusinessDay('2026-04-07')).toBe(true);
  });

  it('the next business day skips weekends and holidays, never the day itself', () => {
    expect(nextBusinessDay('2026-11-26')).toBe('2026-11-27');
    expect(nextBusinessDay('2026-11-27')).toBe('2026-11-30');
    expect(nextBusinessDay('2026-04-24')).toBe('2026-04-28'); // Friday → past the weekend and Freedom Day
    expect(nextBusinessDay('2026-04-02')).toBe('2026-04-07'); // past Easter
    expect(nextBusinessDay('2026-12-24')).toBe('2026-12-28');
    expect(nextBusinessDay('2026-12-31')).toBe('2027-01-04'); // across the year, past New Year
  });

  it('reads a cut-off as HH:MM, nothing else', () => {
    expect(cutoffMinutes('14:00')).toBe(840);
    expect(cutoffMinutes(' 09:05 ')).toBe(545);
    expect(cutoffMinutes('00:00')).toBe(0);
    expect(cutoffMinutes('23:59')).toBe(1439);
    expect(cutoffMinutes('19:30')).toBe(1170);
    for (const bad of ['24:00', '9:05', '14:60', '14-00', '', '14:00x', 'x14:00', '1400']) expect(cutoffMinutes(bad), bad).toBeNull();
  });

  it('the execution date is today before the cut-off on a business day, else the next business day (SAST)', () => {
    const cut = 14 * 60;
    // 13:59 SAST = 11:59 UTC on a Friday: today.
    expect(executionDate(new Date('2026-11-27T11:59:00Z'), cut)).toBe('2026-11-27');
    // 14:00 SAST exactly: the cut-off has passed.
    expect(executionDate(new Date('2026-11-27T12:00:00Z'), cut)).toBe('2026-11-30');
    // 23:30 UTC on Thursday is 01:30 SAST on Friday: Friday's date.
    expect(executionDate(new Date('2026-11-26T23:30:00Z'), cut)).toBe('2026-11-27');
    // 21:59 UTC on Thursday is 23:59 SAST Thursday, after the cut-off: Friday.
    expect(executionDate(new Date('2026-11-26T21:59:00Z'), cut)).toBe('2026-11-27');
    // A Saturday morning: Monday.
    expect(executionDate(new Date('2026-11-28T06:00:00Z'), cut)).toBe('2026-11-30');
    // The day before Freedom Day, after the cut-off: past the holiday.
    expect(executionDate(new Date('2026-04-24T13:00:00Z'), cut)).toBe('2026-04-28');
    // Minutes count too: 13:30 SAST against a 13:31 cut-off is today, against 13:30 it is not.
    expect(executionDate(new Date('2026-11-27T11:30:00Z'), 13 * 60 + 31)).toBe('2026-11-27');
    expect(executionDate(new Date('2026-11-27T11:30:00Z'), 13 * 60 + 30)).toBe('2026-11-30');
  });
});

describe('money', () => {
  it('formats cents as rand, negatives and small amounts included', () => {
    expect(formatRand(12_345)).toBe('R 123.45');
    expect(formatRand(5)).toBe('R 0.05');
    expect(formatRand(100)).toBe('R 1.00');
    expect(formatRand(0)).toBe('R 0.00');
    expect(formatRand(-250)).toBe('-R 2.50');
    expect(formatRand(-99)).toBe('-R 0.99');
  });

  it('rounds the proportional fee half up in integers, then adds the fixed part', () => {
    expect(paymentFee(12_345, 250, 0)).toBe(309); // 308.625
    expect(paymentFee(10_000, 250, 0)).toBe(250);
    expect(paymentFee(20, 250, 0)).toBe(1); // 0.5 rounds up
    expect(paymentFee(19, 250, 0)).toBe(0); // 0.475 rounds down
    expect(paymentFee(10_000, 0, 150)).toBe(150);
    expect(paymentFee(10_000, 250, 150)).toBe(400);
  });

  it('reads rand as people type it, and nothing that is not', () => {
    const cases: [string, number][] = [
      ['100,50', 10_050], ['100.50', 10_050], ['R 100,50', 10_050], ['r100.5', 10_050], ['R1 180,16', 118_016], ['1 180.16', 118_016],
      ['1\u00a0180,16', 118_016], ['1\u202f000', 100_000], ['0,01', 1], ['55', 5_500], ['  7 ', 700], ['1 000 000', 100_000_000],
      ['1  000', 100_000], ['12 345,50', 1_234_550], ['123 456', 12_345_600], ['5,5', 550],
    ];
    for (const [text, cents] of cases) expect(parseRand(text), text).toBe(cents);
    for (const bad of ['', 'R', '-5', '1,234', '10.', '.5', '1 00', '12 3456', 'abc', '1e3', 'R -1', '1.2.3', '100 R', '99999999999999999']) {
      expect(parseRand(bad), bad).toBeNull();
    }
  });
});

describe('API keys', () => {
  it('writes numbers in base62, padded to the width', () => {
    expect(toBase62(new Uint8Array([]), 3)).toBe('000');
    expect(toBase62(new Uint8Array([61]), 1)).toBe('z');
    expect(toBase62(new Uint8Array([62]), 1)).toBe('10');
    expect(toBase62(new Uint8Array([1, 0]), 4)).toBe('0048'); // 256 = 4×62 + 8
  });

  it('its checksum is CRC32 in six base62 characters', () => {
    const prefix = 'sec1-tst-abcdefghijkl-';
    const crc = crc32(prefix) >>> 0;
    let n = crc;
    let expected = '';
    while (n > 0) {
      expected = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'[n % 62] + expected;
      n = Math.floor(n / 62);
    }
    expect(checksum(prefix)).toBe(expected.padStart(6, '0'));
    expect(checksum(prefix)).toHaveLength(6);
    // CRC-32's standard check value: "123456789" is 0xCBF43926 = 3421780262 = 3·62⁵ + 45·62⁴ + 35·62³ + 27·62² + 22·62 + 14.
    expect(checksum('123456789')).toBe('3jZRME');
    expect(checksum('')).toBe('000000');
  });

  it('generates keys that parse back, and refuses any changed character', () => {
    const k = generateKey('tst');
    expect(k.fullKey).toMatch(/^sec1-tst-[a-z2-7]{12}-[0-9A-Za-z]{43}-[0-9A-Za-z]{6}$/);
    expect(parseKey(k.fullKey)).toEqual({ env: 'tst', kid: k.kid, secret: k.secret, checksum: k.checksum });
    const flipped = k.fullKey.slice(0, 30) + (k.fullKey[30] === 'a' ? 'b' : 'a') + k.fullKey.slice(31);
    expect(parseKey(flipped)).toBeNull();
    expect(parseKey(k.fullKey.replace('sec1-tst', 'sec1-stg'))).toBeNull();
    expect(parseKey(`${k.fullKey}x`)).toBeNull();
    expect(parseKey(`x${k.fullKey}`)).toBeNull();
    expect(newKid()).toMatch(/^[a-z2-7]{12}$/);
    expect(displayMask('tst', k.kid, k.checksum)).toBe(`sec1-tst-${k.kid}…${k.checksum}`);
  });

  it('reads keys of each environment, and refuses any part of the wrong shape even under a right checksum', () => {
    const key = (env: string, kid: string, secret: string) => {
      const prefix = `sec1-${env}-${kid}-${secret}-`;
      return prefix + checksum(prefix);
    };
    const kid = 'abcdefghij27';
    const secret = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefg';
    for (const env of ['prd', 'tst', 'dev']) expect(parseKey(key(env, kid, secret)), env).toEqual({ env, kid, secret, checksum: checksum(`sec1-${env}-${kid}-${secret}-`) });
    const wrong: [string, string, string][] = [
      ['stg', kid, secret], ['PRD', kid, secret],
      ['tst', 'ABCDEFGHIJ27', secret], ['tst', 'abcdefghij18', secret], ['tst', 'abcdefghij2', secret], ['tst', 'abcdefghij272', secret],
      ['tst', kid, secret.slice(1)], ['tst', kid, `${secret}h`], ['tst', kid, `${secret.slice(1)}_`], ['tst', kid, `${secret.slice(1)}-`],
    ];
    for (const [env, k, s] of wrong) expect(parseKey(key(env, k, s)), `${env} ${k} ${s}`).toBeNull();
    const good = key('tst', kid, secret);
    expect(parseKey(good.slice(0, -1))).toBeNull();
    expect(parseKey(`${good.slice(0, -1)}-`)).toBeNull();
  });

  it('stores a keyed hash and compares in constant time', () => {
    const pepper = randomBytes(32);
    const stored = hashSecret(pepper, 'secret');
    expect(stored).toEqual(createHmac('sha256', pepper).update('secret').digest());
    expect(secretMatches(pepper, 'secret', stored)).toBe(true);
    expect(secretMatches(pepper, 'secreT', stored)).toBe(false);
    expect(secretMatches(randomBytes(32), 'secret', stored)).toBe(false);
    expect(secretMatches(pepper, 'secret', stored.subarray(0, 31))).toBe(false);
  });
});

describe('signatures', () => {
  it('derives one key per purpose', () => {
    const a = deriveKey('s', 'qr');
    expect(a).toEqual(createHmac('sha256', 's').update('zarpay qr v1').digest());
    expect(deriveKey('s', 'form')).not.toEqual(a);
    expect(deriveKey('t', 'qr')).not.toEqual(a);
  });

  it('checks a hex HMAC in any case; anything malformed is no', () => {
    const key = deriveKey('s', 'x');
    const mac = hmacHex(key, 'm');
    expect(mac).toBe(createHmac('sha256', key).update('m').digest('hex'));
    expect(hmacMatches(key, 'm', mac)).toBe(true);
    expect(hmacMatches(key, 'm', mac.toUpperCase())).toBe(true);
    expect(hmacMatches(key, 'n', mac)).toBe(false);
    for (const bad of [undefined, 123, '', mac.slice(1), `${mac}0`, `${mac.slice(1)}g`, { toString: () => mac }]) expect(hmacMatches(key, 'm', bad), String(bad)).toBe(false);
    expect(qrMessage('p', 12)).toBe('qr:p:12');
    expect(formMessage('p')).toBe('pay-form:p');
  });

  it('webhook secrets are whsec_ and 43 letters or digits, and sign as Standard Webhooks does', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9]{43}$/);
    const key = webhookSecretKey(secret);
    expect(key).toHaveLength(32);
    expect(key).toEqual(Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64'));
    for (const bad of ['whsec_', `whsk_${secret.slice(6)}`, secret.slice(0, -1), `${secret}A`, `whsec_${'-'.repeat(43)}`]) expect(() => webhookSecretKey(bad), bad).toThrow('not a whsec_ secret');
    const sig = signWebhook(key, 'msg_1', 1_700_000_000, '{"a":1}');
    expect(sig).toBe(`v1,${createHmac('sha256', key).update('msg_1.1700000000.{"a":1}').digest('base64')}`);
    const other = randomBytes(32);
    expect(signatureHeader([key, other], 'msg_1', 1_700_000_000, '{"a":1}')).toBe(`${sig} ${signWebhook(other, 'msg_1', 1_700_000_000, '{"a":1}')}`);
    expect(signatureHeader([], 'msg_1', 1, '')).toBeUndefined();
    expect(newWebhookKid()).toMatch(/^whk_[a-z2-7]{12}$/);
  });
});

describe('webhook addresses', () => {
  it('judges addresses: internal ones, mapped and 6to4 ones as their IPv4, unreadable ones internal', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '198.18.0.1', '::1', '::', 'fe80::1', 'fc00::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '2002:7f00:1::', '64:ff9b::1', 'nonsense']) {
      expect(isInternalAddress(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '2a00:1450:4001::1', '::ffff:8.8.8.8', '2002:0808:0808::']) expect(isInternalAddress(a), a).toBe(false);
  });

  it('states what is wrong with a target, by the rules of the environment', () => {
    expect(webhookUrlProblem('not a url', true)).toBe('not a valid URL');
    expect(webhookUrlProblem('http://hooks.example.com/x', true)).toBe('must use https');
    expect(webhookUrlProblem('http://hooks.example.com/x', false)).toBeNull();
    expect(webhookUrlProblem('ftp://hooks.example.com/x', false)).toBe('must use http or https');
    expect(webhookUrlProblem('https://u:p@hooks.example.com/', false)).toBe('must not carry credentials');
    expect(webhookUrlProblem('https://user@hooks.example.com/', true)).toBe('must not carry credentials');
    expect(webhookUrlProblem('https://127.0.0.1/x', false)).toBeNull();
    expect(webhookUrlProblem('https://127.0.0.1/x', true)).toMatch(/loopback/);
    expect(webhookUrlProblem('https://[::1]/x', true)).toMatch(/loopback/);
    expect(webhookUrlProblem('https://8.8.8.8/x', true)).toBeNull();
    expect(webhookUrlProblem('https://hooks.example.com./x', true)).toMatch(/dot/);
    expect(webhookUrlProblem('https://localhost/x', true)).toMatch(/loopback/);
    expect(webhookUrlProblem('https://printer.local/x', true)).toMatch(/loopback/);
    expect(webhookUrlProblem('https://nas.home.arpa/x', true)).toMatch(/loopback/);
    expect(webhookUrlProblem('https://10.0.0.1.nip.io/x', true)).toBe('must not use nip.io, a wildcard DNS service whose names point at any address, private ones included');
    expect(webhookUrlProblem('https://nip.io/x', true)).toMatch(/nip\.io/);
    expect(webhookUrlProblem('https://notnip.io/x', true)).toBeNull();
    expect(webhookUrlProblem('https://mylocalhost.com/x', true)).toBeNull();
    expect(webhookUrlProblem('https://hooks.example.com/x', true)).toBeNull();
  });
});

describe('refunds', () => {
  it('takes an amount of whole cents, or none; never null, zero or a fraction', () => {
    expect(createRefundInput.parse({})).toEqual({});
    expect(createRefundInput.parse({ amountCents: 1, reason: 'r', merchantReference: 'm' })).toEqual({ amountCents: 1, reason: 'r', merchantReference: 'm' });
    const problem = (input: unknown) => createRefundInput.safeParse(input).error?.issues[0]?.message;
    expect(problem({ amountCents: null })).toBe('must not be null: leave it out to refund all that is still refundable');
    expect(problem({ amountCents: '100' })).not.toMatch(/null/);
    expect(problem({ amountCents: 0 })).toBe('must be at least 1');
    expect(problem({ amountCents: 1.5 })).toBe('must be a whole number of cents');
    expect(problem({ reason: 'x'.repeat(201) })).toBe('must be at most 200 characters');
    expect(problem({ merchantReference: '' })).toBe('must not be empty');
    expect(problem({ merchantReference: 'x'.repeat(65) })).toBe('must be at most 64 characters');
    expect(createRefundInput.safeParse({ reason: 'x'.repeat(200), merchantReference: 'x'.repeat(64) }).success).toBe(true);
    expect(createRefundInput.safeParse({ other: 1 }).success).toBe(false);
  });

  it('shows failure_reason only when failed, and completed_at only once ended', () => {
    const base: Refund = {
      id: 'r', merchantId: 'm', paymentId: 'p', status: 'pending', amountCents: 2500, currency: 'ZAR', reason: null, merchantReference: null,
      failureReason: null, createdAt: new Date('2026-11-25T10:00:00Z'), completedAt: null,
    };
    expect(refundJson(base)).toEqual({ refund_id: 'r', payment_id: 'p', status: 'pending', amount_cents: 2500, currency: 'ZAR', reason: null, merchant_reference: null, created_at: '2026-11-25T10:00:00.000Z' });
    const done = new Date('2026-11-25T11:00:00Z');
    expect(refundJson({ ...base, status: 'failed', completedAt: done })).toMatchObject({ failure_reason: 'failed', completed_at: '2026-11-25T11:00:00.000Z' });
    expect(refundJson({ ...base, status: 'failed', failureReason: 'refused', completedAt: done }).failure_reason).toBe('refused');
    const ok = refundJson({ ...base, status: 'succeeded', failureReason: 'ignored', completedAt: done });
    expect(ok).not.toHaveProperty('failure_reason');
    expect(ok.completed_at).toBe('2026-11-25T11:00:00.000Z');
    expect(refundJson({ ...base, completedAt: done })).not.toHaveProperty('completed_at');
  });
});

describe('payouts', () => {
  it('moves exactly as the specification says, with these balance effects', () => {
    expect(PAYOUT_MOVES).toEqual({
      approve: { from: ['pending'], to: 'approved', effect: 'none' },
      reject: { from: ['pending', 'approved'], to: 'rejected', effect: 'release' },
      start_transfer: { from: ['approved'], to: 'processing', effect: 'none' },
      complete: { from: ['processing'], to: 'completed', effect: 'deduct' },
      fail: { from: ['processing'], to: 'failed', effect: 'release' },
    });
    expect(PAYOUT_EVENT_FOR).toEqual({
      pending: 'payout.created', approved: 'payout.approved', processing: 'payout.processing', completed: 'payout.completed', failed: 'payout.failed', rejected: 'payout.rejected',
    });
    expect(CANCELLED_REASON).toBe('cancelled by account manager');
  });

  it('says which move was refused, from what, and where it is allowed from', () => {
    expect(() => planPayoutMove('completed', 'start_transfer')).toThrow('cannot start transfer a payout that is completed (allowed from: approved)');
    expect(() => planPayoutMove('processing', 'reject')).toThrow('cannot reject a payout that is processing (allowed from: pending, approved)');
    expect(() => planPayoutMove('approved', 'reject', ['pending'])).toThrow('(allowed from: pending)');
    expect(planPayoutMove('pending', 'reject', ['pending'])).toBe(PAYOUT_MOVES.reject);
    expect(payoutNotFound()).toMatchObject({ code: 'PAYOUT_NOT_FOUND', message: 'payout not found' });
    expect(UNREADABLE_BANK_ACCOUNT).toEqual({ bankName: 'unreadable', branchCode: 'unreadable', accountHolder: 'unreadable', accountNumberMasked: 'unreadable', bank: null, bankNameMismatch: false, unreadable: true });
  });
});

describe('the ledger', () => {
  it('writes each kind of posting with these legs, which sum to zero', () => {
    const cases: [Leg[], Leg[]][] = [
      [releaseLegs(500), [{ account: 'merchant_reserved', amountCents: -500 }, { account: 'merchant_available', amountCents: 500 }]],
      [settleLegs(1000, 150), [{ account: 'merchant_reserved', amountCents: -1150 }, { account: 'bank_transfers', amountCents: 1000 }, { account: 'fees', amountCents: 150 }]],
      [settleLegs(1000, 0), [{ account: 'merchant_reserved', amountCents: -1000 }, { account: 'bank_transfers', amountCents: 1000 }]],
      [payoutReturnLegs(700), [{ account: 'bank_returns', amountCents: -700 }, { account: 'merchant_available', amountCents: 700 }]],
      [captureLegs(12_345, 309), [{ account: 'funding', amountCents: -12_345 }, { account: 'merchant_available', amountCents: 12_036 }, { account: 'fees', amountCents: 309 }]],
      [captureLegs(100, 0), [{ account: 'funding', amountCents: -100 }, { account: 'merchant_available', amountCents: 100 }]],
      [captureLegs(100, 100), [{ account: 'funding', amountCents: -100 }, { account: 'fees', amountCents: 100 }]],
      [creditLegs(900), [{ account: 'funding', amountCents: -900 }, { account: 'merchant_available', amountCents: 900 }]],
      [refundReserveLegs(250), [{ account: 'merchant_available', amountCents: -250 }, { account: 'merchant_reserved', amountCents: 250 }]],
      [refundSettleLegs(250), [{ account: 'merchant_reserved', amountCents: -250 }, { account: 'refunds', amountCents: 250 }]],
    ];
    for (const [legs, expected] of cases) {
      expect(legs).toEqual(expected);
      expect(legs.reduce((n, l) => n + l.amountCents, 0)).toBe(0);
    }
  });

  it('projects a posting onto the balance columns, and refuses one that does not balance', () => {
    // -0 and 0 add up the same in a balance column: compared as numbers.
    const projected = (p: Posting) => Object.fromEntries(Object.entries(projectionDelta(p)).map(([k, v]) => [k, v + 0]));
    expect(projected({ merchantId: 'm', kind: 'payment_capture', legs: captureLegs(12_345, 309) } as Posting)).toEqual({
      balance: 12_036, reserved: 0, gross: 12_345, fees: 309, withdrawals: 0, refunds: 0, returned: 0, requiredAvailable: 0,
    });
    expect(projected({ merchantId: 'm', kind: 'payout_reserve', legs: [{ account: 'merchant_available', amountCents: -1150 }, { account: 'merchant_reserved', amountCents: 1150 }] } as Posting)).toEqual({
      balance: 0, reserved: 1150, gross: 0, fees: 0, withdrawals: 0, refunds: 0, returned: 0, requiredAvailable: 1150,
    });
    expect(projectionDelta({ merchantId: 'm', kind: 'payout_settle', legs: settleLegs(1000, 150) } as Posting)).toMatchObject({ balance: -1150, reserved: -1150, withdrawals: 1000, fees: 150, requiredAvailable: 0 });
    expect(projectionDelta({ merchantId: 'm', kind: 'refund_settle', legs: refundSettleLegs(250) } as Posting)).toMatchObject({ balance: -250, refunds: 250 });
    expect(projectionDelta({ merchantId: 'm', kind: 'payout_return', legs: payoutReturnLegs(700) } as Posting)).toMatchObject({ balance: 700, returned: 700 });
    const legs = (a: number, b: number): Leg[] => [{ account: 'funding', amountCents: a }, { account: 'merchant_available', amountCents: b }];
    expect(() => projectionDelta({ merchantId: 'm', kind: 'credit', legs: legs(-100, 99) } as Posting)).toThrow('unbalanced ledger posting credit: legs sum to -1');
    expect(() => projectionDelta({ merchantId: 'm', kind: 'credit', legs: [...legs(-100, 100), { account: 'fees', amountCents: 0 }] } as Posting)).toThrow(/unbalanced/);
    expect(() => projectionDelta({ merchantId: 'm', kind: 'credit', legs: legs(-0.5, 0.5) } as Posting)).toThrow(/unbalanced/);
  });
});

describe('payments', () => {
  it('knows its ending states, and has a net amount unless it failed or was cancelled', () => {
    expect(PAYMENT_STATUSES.filter(isTerminal)).toEqual(['captured', 'failed', 'cancelled']);
    expect(netAmountIn('captured', 100)).toBe(100);
    expect(netAmountIn('created', 100)).toBe(100);
    expect(netAmountIn('failed', 100)).toBeNull();
    expect(netAmountIn('cancelled', 100)).toBeNull();
    expect(EXPIRED).toBe('expired');
    expect(LINK_PAID_ALREADY).toBe('link_paid_already');
    expect(paymentNotFound()).toMatchObject({ code: 'PAYMENT_NOT_FOUND', message: 'payment not found' });
  });

  it('redirects only to an allow-listed host, without credentials, https on 443 in production', () => {
    const shop = ['Shop.example.com'];
    expect(redirectAllowed(null, shop, false)).toBe(false);
    expect(redirectAllowed('', shop, false)).toBe(false);
    expect(redirectAllowed('not a url', shop, false)).toBe(false);
    expect(redirectAllowed('https://shop.example.com/thanks', shop, true)).toBe(true);
    expect(redirectAllowed('https://SHOP.example.com:443/thanks', shop, true)).toBe(true);
    expect(redirectAllowed('https://shop.example.com:8443/thanks', shop, true)).toBe(false);
    expect(redirectAllowed('http://shop.example.com/thanks', shop, true)).toBe(false);
    expect(redirectAllowed('http://shop.example.com:8080/thanks', shop, false)).toBe(true);
    expect(redirectAllowed('https://shop.example.com:8443/thanks', shop, false)).toBe(true);
    expect(redirectAllowed('https://pay.example.org/', ['shop.example.com', 'pay.example.org'], true)).toBe(true);
    expect(redirectAllowed('ftp://shop.example.com/thanks', shop, false)).toBe(false);
    expect(redirectAllowed('https://user@shop.example.com/', shop, false)).toBe(false);
    expect(redirectAllowed('https://:pw@shop.example.com/', shop, false)).toBe(false);
    expect(redirectAllowed('https://evil.example.com/', shop, false)).toBe(false);
    expect(redirectAllowed('https://shop.example.com.evil.io/', shop, false)).toBe(false);
  });
});

describe('refunds, as listed and as published', () => {
  it('lists a page of at most 100, from an offset, in one status or all', () => {
    expect(listRefundsQuery.parse({})).toEqual({ limit: 50, offset: 0 });
    expect(listMerchantRefundsQuery.parse({ limit: '100', offset: '3', status: 'failed' })).toEqual({ limit: 100, offset: 3, status: 'failed' });
    expect(listMerchantRefundsQuery.parse({ status: null })).toEqual({ limit: 50, offset: 0 });
    const problem = (input: unknown) => listMerchantRefundsQuery.safeParse(input).error?.issues[0]?.message;
    expect(problem({ status: 'refunded' })).toBe('must be one of pending, succeeded, failed');
    expect(problem({ limit: 101 })).toBe('must be 1 to 100');
    expect(listRefundsQuery.safeParse({ status: 'failed' }).success).toBe(false);
    expect(refundNotFound()).toMatchObject({ code: 'REFUND_NOT_FOUND', message: 'refund not found' });
  });

  it('what the API document says a refund is, refundJson sends, and nothing else', () => {
    const base: Refund = {
      id: '7b0e4c1a-2f7d-4d8e-9a57-5d2f0e2b7c11', merchantId: 'm', paymentId: '0b6f3c4e-1d2a-4b5c-8d9e-0f1a2b3c4d5e', status: 'pending', amountCents: 2500, currency: 'ZAR',
      reason: 'r'.repeat(200), merchantReference: 'm'.repeat(64), failureReason: null, createdAt: new Date('2026-11-25T10:00:00Z'), completedAt: null,
    };
    const done = new Date('2026-11-25T11:00:00Z');
    for (const r of [base, { ...base, status: 'succeeded', completedAt: done }, { ...base, status: 'failed', failureReason: 'x'.repeat(500), completedAt: done }] as Refund[]) {
      expect(refundJsonSchema.safeParse(refundJson(r)).success, r.status).toBe(true);
    }
    const sent = refundJson(base);
    for (const wrong of [{ currency: 'USD' }, { status: 'refunded' }, { amount_cents: 0 }, { reason: 'r'.repeat(201) }, { merchant_reference: 'm'.repeat(65) }, { failure_reason: 'x'.repeat(501) }, { created_at: '2026-11-25' }, { other: 1 }]) {
      expect(refundJsonSchema.safeParse({ ...sent, ...wrong }).success, JSON.stringify(wrong)).toBe(false);
    }
  });
});

describe('API key records', () => {
  const record: ApiKeyRecord = {
    id: '7b0e4c1a-2f7d-4d8e-9a57-5d2f0e2b7c11', merchantId: 'm', kid: 'nq6r2bxkbbi3', env: 'tst', type: 'secret', status: 'active', createdAt: new Date('2026-11-25T10:00:00Z'),
    expiresAt: null, revokedAt: null, displayMask: 'sec1-tst-nq6r2bxkbbi3…3pgar0', issuedBy: 'merchant', issuedByPersonId: null, role: 'owner',
  };

  it('shows a key without its secret, with expiry and revocation only when they happened', () => {
    expect(apiKeyJson(record)).toEqual({
      id: record.id, kid: 'nq6r2bxkbbi3', env: 'tst', type: 'secret', status: 'active', created_at: '2026-11-25T10:00:00.000Z',
      display_mask: 'sec1-tst-nq6r2bxkbbi3…3pgar0', issued_by: 'merchant', issued_by_person_id: null, role: 'owner',
    });
    const ended = apiKeyJson({ ...record, status: 'revoked', expiresAt: new Date('2026-12-01T00:00:00Z'), revokedAt: new Date('2026-11-26T09:30:00Z') });
    expect(ended).toMatchObject({ expires_at: '2026-12-01T00:00:00.000Z', revoked_at: '2026-11-26T09:30:00.000Z', status: 'revoked' });
  });

  it('what the API document says a key record is, apiKeyJson sends, and nothing else', () => {
    const person = { ...record, issuedBy: 'person', issuedByPersonId: '0b6f3c4e-1d2a-4b5c-8d9e-0f1a2b3c4d5e', role: 'viewer' } as ApiKeyRecord;
    for (const k of [record, person, { ...record, expiresAt: new Date(), revokedAt: new Date(), status: 'revoked' } as ApiKeyRecord]) {
      expect(apiKeyRecordJson.safeParse(apiKeyJson(k)).success).toBe(true);
    }
    const sent = apiKeyJson(record);
    for (const wrong of [{ kid: 'NQ6R2BXKBBI3' }, { kid: 'nq6r2bxkbbi' }, { kid: 'nq6r2bxkbbi1' }, { env: 'stg' }, { type: 'publishable' }, { status: 'paused' }, { issued_by: 'bank' }, { role: 'admin' }, { display_mask: 'x'.repeat(33) }, { other: 1 }]) {
      expect(apiKeyRecordJson.safeParse({ ...sent, ...wrong }).success, JSON.stringify(wrong)).toBe(false);
    }
  });

  it('a key issued by a key keeps its issuer: the person, or the merchant or operator, with the role', () => {
    expect(issuerOf({ issuedBy: 'person', issuedByPersonId: 'p1', role: 'developer' })).toEqual({ by: 'person', personId: 'p1', role: 'developer' });
    expect(issuerOf({ issuedBy: 'operator', issuedByPersonId: null, role: 'owner' })).toEqual({ by: 'operator', role: 'owner' });
    expect(issuerOf({ issuedBy: 'merchant', issuedByPersonId: null, role: 'viewer' })).toEqual({ by: 'merchant', role: 'viewer' });
  });
});
