import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../rest/openapi/document.ts';
import { parseWire } from '../rest/wire.ts';
import { type Actor, actorLabel, covers, merchantFilter, oneMerchant, oneMerchantScope, OPERATOR, OPERATOR_NAME, paymentScope, requireMerchant, requireOperator, scope } from '../src/domain/actor.ts';
import {
  createMerchantInput,
  DEFAULT_PAYMENT_LIMITS,
  type Merchant,
  merchantSettingsInput,
  merchantSettingsJson,
  merchantSettingsJsonSchema,
  outsideLimitsMessage,
  paymentLimitsInput,
  PLATFORM_MAX_CENTS,
  PLATFORM_MIN_CENTS,
  supportContactKind,
  updateMerchantInput,
  webhookUrlInput,
} from '../src/domain/merchant.ts';
import {
  createPaymentLinkInput,
  listPaymentLinksQuery,
  type PaymentLink,
  paymentLinkJson,
  paymentLinkJsonSchema,
  parseRand,
  updatePaymentLinkInput,
} from '../src/domain/payment-link.ts';
import { isPaymentMethod, PAYMENT_METHODS } from '../src/domain/payment-method.ts';
import { paymentRequestJson, paymentRequestJsonSchema, requestPaymentInput } from '../src/domain/payment-request.ts';
import {
  CSRF_COOKIE,
  CSRF_HEADER,
  csrfMatches,
  csrfToken,
  emailSchema,
  forgotPasswordInput,
  hashPassword,
  INVITE_TTL_MS,
  inviteInput,
  inviteStateInput,
  newToken,
  PASSWORD_MIN,
  passwordSchema,
  PERSON_LANGUAGES,
  RESET_TTL_MS,
  RESETS_PER_HOUR,
  resetPasswordInput,
  roleSchema,
  ROLES,
  SESSION_COOKIE,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  setPasswordInput,
  SIGN_IN_ACCOUNT_FAILURES,
  SIGN_IN_FAILURES,
  SIGN_IN_WINDOW_MS,
  signInInput,
  tokenDigest,
  verifyPassword,
} from '../src/domain/people.ts';
import { parseInput } from '../src/domain/validation.ts';
import { type Refusal, refusalOf } from './support/refusal.ts';

/**
 * The rules about who a merchant is and who acts for it, called directly: a merchant's settings
 * and limits as the operator and the merchant change them and read them back, the dashboard's
 * people (their inputs, tokens, CSRF check and password hashes), who an actor is and what it
 * sees, payment links (their inputs, the JSON a merchant gets, the amount a customer types) and
 * payment requests. Each expectation is what a caller sees for one exact input: the parsed value
 * or the refusal with its code and message, boundaries on both sides, every branch.
 */

/** What a caller is told when `parse` refuses (it must refuse): the code, message and details. */
function refused(parse: () => unknown): Omit<Refusal, 'httpStatus'> {
  const { httpStatus: _status, ...told } = refusalOf(parse);
  return told;
}
/** The domain's (and GraphQL's) refusal of `input`. */
const refusedInput = (schema: Parameters<typeof parseInput>[0], input: unknown) => refused(() => parseInput(schema, input, 'input'));
/** REST's refusal of a body. */
const refusedBody = (schema: Parameters<typeof parseWire>[0], body: unknown) => refused(() => parseWire(schema, body));

/**
 * A schema of the OpenAPI document served at /openapi.json. The committed client types check most
 * of it, but they leave out what the document says of an optional field's value (its description
 * and example sit inside `anyOf`), which these tests read here.
 */
const documented = (name: string) => (openApiDocument('https://zarpay.example', 'prd') as { components: { schemas: Record<string, { properties: Record<string, unknown> }> } }).components.schemas[name]!.properties;

const MERCHANT_ID = '3f1c9a52-8a43-4c1e-9a57-5d2f0e2b7c11';
const OTHER_ID = '0b6f3c4e-1d2a-4b5c-8d9e-0f1a2b3c4d5e';
const shop: Merchant = {
  id: MERCHANT_ID,
  name: 'Kettle & Co',
  webhookUrl: 'https://shop.example/hooks',
  paymentFeeBps: 290,
  paymentFeeFixedCents: 100,
  payoutFeeCents: 500,
  autoTopup: false,
  redirectDomains: ['shop.example', 'pay.shop.example'],
  supportContact: 'help@shop.example',
  supportEmail: 'help@shop.example',
  supportPhone: '+27 21 555 0100',
  paymentMethods: ['instant_eft'],
  paymentLimits: { minCents: 1000, maxCents: 500_000 },
  createdAt: new Date('2026-11-01T08:00:00.000Z'),
  updatedAt: new Date('2026-11-02T08:00:00.000Z'),
};

describe('merchant.ts: a merchant\'s settings, limits and support contacts', () => {
  it('publishes the platform\'s bounds and the specification\'s default limits', () => {
    expect([PLATFORM_MIN_CENTS, PLATFORM_MAX_CENTS]).toEqual([100, 10_000_000]);
    expect(DEFAULT_PAYMENT_LIMITS).toEqual({ minCents: 5500, maxCents: 300_000 });
  });

  it('takes payment limits within the platform\'s bounds, min up to max, both whole cents', () => {
    expect(parseInput(paymentLimitsInput, { minCents: 1000, maxCents: 500_000 })).toEqual({ minCents: 1000, maxCents: 500_000 });
    expect(parseInput(paymentLimitsInput, { minCents: 100, maxCents: 10_000_000 })).toEqual({ minCents: 100, maxCents: 10_000_000 });
    expect(parseInput(paymentLimitsInput, { minCents: 5000, maxCents: 5000 })).toEqual({ minCents: 5000, maxCents: 5000 });
    expect(refusedInput(paymentLimitsInput, { minCents: 99, maxCents: 5000 })).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'minCents: must be 100 to 10000000 cents',
      details: [{ field: 'minCents', message: 'must be 100 to 10000000 cents' }],
    });
    expect(refusedInput(paymentLimitsInput, { minCents: 1000, maxCents: 10_000_001 }).details).toEqual([{ field: 'maxCents', message: 'must be 100 to 10000000 cents' }]);
    expect(refusedInput(paymentLimitsInput, { minCents: 6000, maxCents: 5000 })).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'minCents: minCents must not be more than maxCents',
      details: [{ field: 'minCents', message: 'minCents must not be more than maxCents' }],
    });
    expect(refusedInput(paymentLimitsInput, { minCents: 1000.5, maxCents: 5000 }).details).toEqual([{ field: 'minCents', message: 'must be a whole number' }]);
    expect(refusedInput(paymentLimitsInput, { minCents: 1000, maxCents: 5000, currency: 'ZAR' }).details).toEqual([{ field: 'currency', message: 'is not a known field' }]);
  });

  it('names a merchant\'s own range in rand and cents when an amount falls outside it', () => {
    expect(outsideLimitsMessage({ minCents: 1000, maxCents: 500_000 })).toBe("must be 1000 to 500000 cents (R10.00 to R5000.00), this merchant's payment limits");
    expect(outsideLimitsMessage({ minCents: 5550, maxCents: 300_001 })).toBe("must be 5550 to 300001 cents (R55.50 to R3000.01), this merchant's payment limits");
  });

  it('takes an http(s) webhook URL of at most 2048 characters', () => {
    for (const url of ['https://shop.example/hooks', 'http://localhost:8080/hooks']) expect(webhookUrlInput.parse(url)).toBe(url);
    const long = `https://shop.example/${'h'.repeat(2048 - 'https://shop.example/'.length)}`;
    expect(webhookUrlInput.parse(long)).toBe(long);
    expect(refusedInput(updateMerchantInput, { webhookUrl: `${long}h` }).details).toEqual([{ field: 'webhookUrl', message: 'must be at most 2048 characters' }]);
    for (const url of ['ftp://shop.example/hooks', 'xhttps://shop.example/hooks', 'httpsx://shop.example/hooks', 'not a url']) {
      expect(refusedInput(updateMerchantInput, { webhookUrl: url }).details, url).toEqual([{ field: 'webhookUrl', message: 'must be an http(s) URL' }]);
    }
  });

  it('tells an e-mail address, a phone number and an http(s) page apart as support contacts', () => {
    const kinds = (values: string[]) => values.map((v) => supportContactKind(v));
    expect(kinds(['help@shop.example', 'Help@Shop.CO', 'a.b+c@mail.shop.example'])).toEqual(['email', 'email', 'email']);
    expect(kinds(['+27 21 555 0100', '(021) 555-0100', '1234567', '12345678901234567890', '+12345678901234567890'])).toEqual(['phone', 'phone', 'phone', 'phone', 'phone']);
    expect(kinds(['https://shop.example/help', 'http://shop.example'])).toEqual(['url', 'url']);
    expect(
      kinds([
        'help@shop.c', // a one-letter top-level domain
        'help@shop.example1',
        'help at shop.example',
        'write to help@shop.example',
        'help@shop.example today',
        'a<b@shop.example',
        'help@@shop.example',
        '123456', // six digits: too short for a number
        '123456789012345678901', // 21 digits
        '++27215550100',
        'x0215550100',
        '0215550100x',
        '021 555 01OO',
        'ftp://shop.example',
        'https://',
        'https://shop example',
        'https://shop.example/"help"',
        'https://shop.example/<help>',
        'https://[shop',
        'xhttps://shop.example',
        '',
      ]),
    ).toEqual(new Array(21).fill(null));
  });

  it('trims a support contact and takes at most 200 characters of one', () => {
    expect(parseInput(createMerchantInput, { name: 'Kettle & Co', supportContact: '  help@shop.example  ' }).supportContact).toBe('help@shop.example');
    const page = `https://shop.example/${'a'.repeat(200 - 'https://shop.example/'.length)}`;
    expect(parseInput(createMerchantInput, { name: 'Kettle & Co', supportContact: page }).supportContact).toBe(page);
    expect(refusedInput(createMerchantInput, { name: 'Kettle & Co', supportContact: `${page}a` }).details).toEqual([{ field: 'supportContact', message: 'must be at most 200 characters' }]);
    expect(refusedInput(createMerchantInput, { name: 'Kettle & Co', supportContact: 'ask at the till' })).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'supportContact: must be an e-mail address, a phone number or an http(s) URL',
      details: [{ field: 'supportContact', message: 'must be an e-mail address, a phone number or an http(s) URL' }],
    });
  });

  it('makes a merchant from a name alone, with nowhere to send webhooks', () => {
    expect(parseInput(createMerchantInput, { name: '  Kettle & Co ' })).toStrictEqual({ name: 'Kettle & Co', webhookUrl: null });
    expect(parseInput(createMerchantInput, { name: 'Kettle & Co', webhookUrl: null }).webhookUrl).toBeNull();
  });

  it('makes a merchant with every setting given', () => {
    expect(
      parseInput(createMerchantInput, {
        name: 'Kettle & Co',
        webhookUrl: 'https://shop.example/hooks',
        paymentFeeBps: 290,
        paymentFeeFixedCents: 100,
        payoutFeeCents: 500,
        autoTopup: true,
        redirectDomains: ['Shop.Example', 'localhost'],
        supportContact: '+27 21 555 0100',
      }),
    ).toStrictEqual({
      name: 'Kettle & Co',
      webhookUrl: 'https://shop.example/hooks',
      paymentFeeBps: 290,
      paymentFeeFixedCents: 100,
      payoutFeeCents: 500,
      autoTopup: true,
      redirectDomains: ['shop.example', 'localhost'],
      supportContact: '+27 21 555 0100',
    });
  });

  it('refuses a merchant without a name, with one past 200 characters, or with a field it does not know', () => {
    expect(refusedInput(createMerchantInput, { name: '   ' }).details).toEqual([{ field: 'name', message: 'must not be empty' }]);
    expect(parseInput(createMerchantInput, { name: 'n'.repeat(200) }).name).toBe('n'.repeat(200));
    expect(refusedInput(createMerchantInput, { name: 'n'.repeat(201) }).details).toEqual([{ field: 'name', message: 'must be at most 200 characters' }]);
    expect(refusedInput(createMerchantInput, { name: 'Kettle & Co', colour: 'blue' }).details).toEqual([{ field: 'colour', message: 'is not a known field' }]);
  });

  it('takes fees from 0 to 10000 basis points and 0 to 1000000 cents, whole numbers only', () => {
    const fees = { name: 'Kettle & Co', paymentFeeBps: 0, paymentFeeFixedCents: 0, payoutFeeCents: 0 };
    expect(parseInput(createMerchantInput, fees)).toMatchObject({ paymentFeeBps: 0, paymentFeeFixedCents: 0, payoutFeeCents: 0 });
    expect(parseInput(createMerchantInput, { ...fees, paymentFeeBps: 10_000, paymentFeeFixedCents: 1_000_000, payoutFeeCents: 1_000_000 })).toMatchObject({
      paymentFeeBps: 10_000,
      paymentFeeFixedCents: 1_000_000,
      payoutFeeCents: 1_000_000,
    });
    expect(refusedInput(createMerchantInput, { ...fees, paymentFeeBps: -1, paymentFeeFixedCents: -1, payoutFeeCents: -1 }).details).toEqual([
      { field: 'paymentFeeBps', message: 'must be 0 to 10000' },
      { field: 'paymentFeeFixedCents', message: 'must not be negative' },
      { field: 'payoutFeeCents', message: 'must not be negative' },
    ]);
    expect(refusedInput(createMerchantInput, { ...fees, paymentFeeBps: 10_001, paymentFeeFixedCents: 1_000_001, payoutFeeCents: 1_000_001 }).details).toEqual([
      { field: 'paymentFeeBps', message: 'must be 0 to 10000' },
      { field: 'paymentFeeFixedCents', message: 'must be at most 1000000' },
      { field: 'payoutFeeCents', message: 'must be at most 1000000' },
    ]);
    expect(refusedInput(createMerchantInput, { ...fees, paymentFeeBps: 2.5, paymentFeeFixedCents: 0.5, autoTopup: 'yes' }).details).toEqual([
      { field: 'paymentFeeBps', message: 'must be a whole number' },
      { field: 'paymentFeeFixedCents', message: 'must be a whole number' },
      { field: 'autoTopup', message: 'must be true or false' },
    ]);
  });

  it('takes redirect domains as lower-case host names, 50 at most', () => {
    const domains = ['shop.example', 'a.co', 'my-shop.example', 'sub.my-shop.example', 'LOCALHOST', `${'a'.repeat(63)}.example`, `shop.${'z'.repeat(63)}`, '0shop9.example'];
    expect(parseInput(createMerchantInput, { name: 'Kettle & Co', redirectDomains: domains }).redirectDomains).toEqual([
      'shop.example', 'a.co', 'my-shop.example', 'sub.my-shop.example', 'localhost', `${'a'.repeat(63)}.example`, `shop.${'z'.repeat(63)}`, '0shop9.example',
    ]);
    const bad = ['not a domain', 'shop', 'shop.c', 'shop.example1', '-shop.example', 'shop-.example', `${'a'.repeat(64)}.example`, `shop.${'z'.repeat(64)}`, 'shop..example', 'xlocalhost', 'localhostx', 'shop.example.', 'sh_op.example', '.example'];
    expect(refusedInput(createMerchantInput, { name: 'Kettle & Co', redirectDomains: bad }).details).toEqual(
      bad.map((_, i) => ({ field: `redirectDomains.${i}`, message: 'must be a domain name' })),
    );
    const longest = `${'a.'.repeat(125)}example`; // 257 characters
    expect(refusedInput(createMerchantInput, { name: 'Kettle & Co', redirectDomains: [longest] }).details).toEqual([{ field: 'redirectDomains.0', message: 'must be at most 253 characters' }, { field: 'redirectDomains.0', message: 'must be a domain name' }]);
    const longestAllowed = `${'a.'.repeat(123)}example`; // 253 characters
    expect(parseInput(createMerchantInput, { name: 'Kettle & Co', redirectDomains: [longestAllowed] }).redirectDomains).toEqual([longestAllowed]);
    const fifty = Array.from({ length: 50 }, (_, i) => `s${i}.shop.example`);
    expect(parseInput(createMerchantInput, { name: 'Kettle & Co', redirectDomains: fifty }).redirectDomains).toHaveLength(50);
    const fiftyOne = [...fifty, 'more.shop.example'];
    expect(refusedInput(createMerchantInput, { name: 'Kettle & Co', redirectDomains: fiftyOne }).details).toEqual([{ field: 'redirectDomains', message: 'must hold at most 50 domains' }]);
    expect(refusedInput(updateMerchantInput, { redirectDomains: fiftyOne }).details).toEqual([{ field: 'redirectDomains', message: 'must hold at most 50 domains' }]);
    expect(refusedInput(updateMerchantInput, { addRedirectDomains: fiftyOne }).details).toEqual([{ field: 'addRedirectDomains', message: 'must hold at most 50 domains' }]);
    expect(refusedBody(merchantSettingsInput, { allowed_redirect_domains: fiftyOne }).details).toEqual([{ field: 'allowed_redirect_domains', message: 'must hold at most 50 domains' }]);
    expect(parseInput(updateMerchantInput, { redirectDomains: fifty, addRedirectDomains: fifty })).toMatchObject({ redirectDomains: fifty, addRedirectDomains: fifty });
    expect(parseWire(merchantSettingsInput, { allowed_redirect_domains: fifty })).toEqual({ allowedRedirectDomains: fifty });
  });

  it('changes only what the operator gives; null clears the webhook URL, support details and ways to pay', () => {
    expect(parseInput(updateMerchantInput, {})).toEqual({});
    expect(parseInput(updateMerchantInput, { webhookUrl: null, supportEmail: null, supportPhone: null, supportContact: null, paymentMethods: null })).toStrictEqual({
      webhookUrl: null,
      supportEmail: null,
      supportPhone: null,
      supportContact: null,
      paymentMethods: null,
    });
    expect(parseInput(updateMerchantInput, { supportContact: '' })).toStrictEqual({ supportContact: null });
    expect(parseInput(updateMerchantInput, { supportContact: 'https://shop.example/help' })).toStrictEqual({ supportContact: 'https://shop.example/help' });
    expect(
      parseInput(updateMerchantInput, {
        name: ' Kettle & Sons ',
        webhookUrl: 'https://shop.example/hooks',
        paymentFeeBps: 150,
        paymentFeeFixedCents: 0,
        payoutFeeCents: 250,
        autoTopup: false,
        redirectDomains: ['Shop.Example'],
        addRedirectDomains: ['Pay.Shop.Example'],
        supportEmail: 'help@shop.example',
        supportPhone: '021 555 0100',
        paymentMethods: ['card', 'instant_eft'],
        paymentLimits: { minCents: 1000, maxCents: 500_000 },
      }),
    ).toStrictEqual({
      name: 'Kettle & Sons',
      webhookUrl: 'https://shop.example/hooks',
      paymentFeeBps: 150,
      paymentFeeFixedCents: 0,
      payoutFeeCents: 250,
      autoTopup: false,
      redirectDomains: ['shop.example'],
      addRedirectDomains: ['pay.shop.example'],
      supportEmail: 'help@shop.example',
      supportPhone: '021 555 0100',
      paymentMethods: ['card', 'instant_eft'],
      paymentLimits: { minCents: 1000, maxCents: 500_000 },
    });
  });

  it('refuses an operator\'s change field by field', () => {
    expect(
      refusedInput(updateMerchantInput, {
        name: '',
        paymentFeeFixedCents: -1,
        payoutFeeCents: 1_000_001,
        supportContact: 'the till',
        paymentLimits: { minCents: 6000, maxCents: 5000 },
        paymentMethods: ['cash'],
        shoeSize: 9,
      }).details,
    ).toEqual([
      { field: 'name', message: 'must not be empty' },
      { field: 'paymentFeeFixedCents', message: 'must not be negative' },
      { field: 'payoutFeeCents', message: 'must be at most 1000000' },
      { field: 'supportContact', message: 'must be an e-mail address, a phone number or an http(s) URL' },
      { field: 'paymentMethods.0', message: 'must be card or instant_eft' },
      { field: 'paymentLimits.minCents', message: 'minCents must not be more than maxCents' },
      { field: 'shoeSize', message: 'is not a known field' },
    ]);
  });

  it('takes the ways to pay as one or both methods, each once; null offers every one', () => {
    for (const methods of [['card'], ['instant_eft'], ['card', 'instant_eft'], ['instant_eft', 'card']]) expect(parseWire(merchantSettingsInput, { payment_methods: methods })).toEqual({ paymentMethods: methods });
    expect(parseWire(merchantSettingsInput, { payment_methods: null })).toEqual({ paymentMethods: null });
    expect(refusedBody(merchantSettingsInput, { payment_methods: [] })).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'payment_methods: must name at least one way to pay (null offers every one)',
      details: [{ field: 'payment_methods', message: 'must name at least one way to pay (null offers every one)' }],
    });
    expect(refusedBody(merchantSettingsInput, { payment_methods: ['card', 'card'] }).details).toEqual([{ field: 'payment_methods', message: 'must name each way to pay once' }]);
    expect(refusedBody(merchantSettingsInput, { payment_methods: ['card', 'instant_eft', 'card'] }).details).toEqual([{ field: 'payment_methods', message: 'must be at most 2' }]);
    expect(refusedBody(merchantSettingsInput, { payment_methods: ['card', 'eft'] })).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'payment methods, item 2: must be card or instant_eft',
      details: [{ field: 'payment_methods.1', message: 'must be card or instant_eft' }],
    });
  });

  it('takes a merchant\'s own settings over REST in snake_case, only what is given', () => {
    expect(parseWire(merchantSettingsInput, {})).toEqual({});
    expect(
      parseWire(merchantSettingsInput, {
        webhook_url: 'https://shop.example/hooks',
        allowed_redirect_domains: ['Shop.Example', 'pay.shop.example'],
        support_email: 'help@shop.example',
        support_phone: '+27 21 555 0100',
        payment_methods: ['instant_eft'],
      }),
    ).toStrictEqual({
      webhookUrl: 'https://shop.example/hooks',
      allowedRedirectDomains: ['shop.example', 'pay.shop.example'],
      supportEmail: 'help@shop.example',
      supportPhone: '+27 21 555 0100',
      paymentMethods: ['instant_eft'],
    });
    expect(parseWire(merchantSettingsInput, { webhook_url: null, support_email: null, support_phone: null })).toStrictEqual({ webhookUrl: null, supportEmail: null, supportPhone: null });
  });

  it('refuses a merchant\'s bad settings, naming each field as REST does', () => {
    expect(
      refusedBody(merchantSettingsInput, {
        webhook_url: 'ftp://shop.example/x',
        allowed_redirect_domains: ['not a domain'],
        support_email: 'nobody',
        support_phone: 'call me',
        name: 'Renamed',
      }),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'webhook_url: must be an http(s) URL',
      details: [
        { field: 'webhook_url', message: 'must be an http(s) URL' },
        { field: 'allowed_redirect_domains.0', message: 'must be a domain name' },
        { field: 'support_email', message: 'must be an e-mail address' },
        { field: 'support_phone', message: 'must be a phone number' },
        { field: 'name', message: 'is not a known field' },
      ],
    });
  });

  it('takes a support e-mail address of at most 254 characters', () => {
    const longest = `help@${'s'.repeat(254 - 'help@'.length - '.example'.length)}.example`;
    expect(parseWire(merchantSettingsInput, { support_email: longest })).toEqual({ supportEmail: longest });
    expect(refusedBody(merchantSettingsInput, { support_email: `h${longest}` }).details).toEqual([{ field: 'support_email', message: 'must be at most 254 characters' }]);
  });

  it('takes a support phone number of 7 to 20 digits, spaces, brackets and dashes after an optional +', () => {
    for (const phone of ['+27 21 555 0100', '021 555 0100', '(021) 555-0100', '1234567', '12345678901234567890', '+12345678901234567890']) {
      expect(parseWire(merchantSettingsInput, { support_phone: phone }), phone).toEqual({ supportPhone: phone });
    }
    for (const phone of ['call me', '123456', '123456789012345678901', '++27215550100', 'x0215550100', '0215550100x', '021 555 01OO', '+']) {
      expect(refusedBody(merchantSettingsInput, { support_phone: phone }).details, phone).toEqual([{ field: 'support_phone', message: 'must be a phone number' }]);
    }
  });

  it('documents the redirect domains, support e-mail and phone a merchant may set, with examples', () => {
    const fields = documented('MerchantSettingsChange');
    expect(fields.allowed_redirect_domains).toMatchObject({
      anyOf: [{ type: 'array', maxItems: 50, description: 'Hosts the hosted page may send customers back to (success_url, cancel_url, failure_url); replaces the list', example: ['shop.example.co.za'] }, { type: 'null' }],
    });
    expect(fields.support_email).toMatchObject({ anyOf: [{ type: 'string', maxLength: 254, example: 'help@shop.example.co.za' }, { type: 'null' }] });
    expect(fields.support_phone).toMatchObject({ anyOf: [{ type: 'string', pattern: '^\\+?[0-9 ()-]{7,20}$', example: '+27 21 555 0100', maxLength: 21 }, { type: 'null' }] });
  });

  it('shows a merchant its own settings as GET /api/v1/merchant sends them', () => {
    const json = merchantSettingsJson(shop);
    expect(json).toStrictEqual({
      merchant_id: MERCHANT_ID,
      name: 'Kettle & Co',
      webhook_url: 'https://shop.example/hooks',
      allowed_redirect_domains: ['shop.example', 'pay.shop.example'],
      support_email: 'help@shop.example',
      support_phone: '+27 21 555 0100',
      payment_methods: ['instant_eft'],
      payment_limits: { min_cents: 1000, max_cents: 500_000 },
    });
    expect(merchantSettingsJsonSchema.parse(json)).toEqual(json);
    const bare = { ...shop, webhookUrl: null, redirectDomains: [], supportEmail: null, supportPhone: null, paymentMethods: null, paymentLimits: DEFAULT_PAYMENT_LIMITS };
    expect(merchantSettingsJsonSchema.parse(merchantSettingsJson(bare))).toStrictEqual({
      merchant_id: MERCHANT_ID,
      name: 'Kettle & Co',
      webhook_url: null,
      allowed_redirect_domains: [],
      support_email: null,
      support_phone: null,
      payment_methods: null,
      payment_limits: { min_cents: 5500, max_cents: 300_000 },
    });
  });
});

describe('people.ts: the dashboard\'s people, their tokens and passwords', () => {
  it('has three roles, three languages, and the cookies and header the browser sees', () => {
    expect(ROLES).toEqual(['owner', 'developer', 'viewer']);
    for (const role of ROLES) expect(roleSchema.parse(role)).toBe(role);
    expect(roleSchema.safeParse('admin').success).toBe(false);
    expect(PERSON_LANGUAGES).toEqual(['en', 'af', 'zu']);
    expect([SESSION_COOKIE, CSRF_COOKIE, CSRF_HEADER]).toEqual(['zarpay_session', 'zarpay_csrf', 'x-csrf-token']);
  });

  it('keeps invites 72 hours, sessions 12 hours (30 idle minutes), reset links an hour', () => {
    expect(INVITE_TTL_MS).toBe(259_200_000);
    expect(SESSION_MAX_MS).toBe(43_200_000);
    expect(SESSION_IDLE_MS).toBe(1_800_000);
    expect(RESET_TTL_MS).toBe(3_600_000);
    expect(SIGN_IN_WINDOW_MS).toBe(900_000);
    expect([SIGN_IN_FAILURES, SIGN_IN_ACCOUNT_FAILURES, RESETS_PER_HOUR, PASSWORD_MIN]).toEqual([5, 10, 3, 12]);
  });

  it('takes an e-mail address trimmed and in lower case, 254 characters at most', () => {
    expect(parseInput(emailSchema, '  Thandi@Shop.Example ')).toBe('thandi@shop.example');
    expect(parseInput(emailSchema, 'a@b.c')).toBe('a@b.c');
    const longest = `t@${'s'.repeat(254 - 't@'.length - '.example'.length)}.example`;
    expect(parseInput(emailSchema, longest)).toBe(longest);
    expect(refusedInput(emailSchema, `t${longest}`).message).toBe('input: must be at most 254 characters');
    for (const bad of ['nobody', 'thandi nkosi@shop.example', 'thandi@shop.example x', 'thandi@shop', '@shop.example', 'thandi@.example', 'thandi@shop.', 'thandi@@shop.example', '']) {
      expect(refusedInput(emailSchema, bad), bad).toEqual({ code: 'VALIDATION_FAILED', message: 'input: must be an e-mail address', details: [{ field: 'input', message: 'must be an e-mail address' }] });
    }
  });

  it('takes a password of 12 to 1024 characters', () => {
    expect(passwordSchema.parse('a'.repeat(12))).toBe('a'.repeat(12));
    expect(passwordSchema.parse('a'.repeat(1024))).toBe('a'.repeat(1024));
    expect(passwordSchema.safeParse('a'.repeat(11)).error?.issues[0]?.message).toBe('must be at least 12 characters');
    expect(passwordSchema.safeParse('a'.repeat(1025)).success).toBe(false);
  });

  it('reads an invite, a sign-in, a forgotten password, a reset and a new password as the dashboard posts them', () => {
    expect(inviteInput.parse({ email: ' Ayanda@Example.com', role: 'viewer' })).toEqual({ email: 'ayanda@example.com', role: 'viewer' });
    expect(inviteInput.safeParse({ email: 'ayanda@example.com', role: 'admin' }).success).toBe(false);
    expect(signInInput.parse({ email: ' Ayanda@Example.COM ', password: ' correct horse battery ', code: ' 123456 ' })).toStrictEqual({ email: 'ayanda@example.com', password: ' correct horse battery ', code: '123456' });
    expect(signInInput.parse({ email: 'ayanda@example.com', password: 'x' })).toStrictEqual({ email: 'ayanda@example.com', password: 'x' });
    expect(signInInput.safeParse({ email: 'a'.repeat(255), password: 'x' }).success).toBe(false);
    expect(signInInput.safeParse({ email: 'a'.repeat(254), password: 'x'.repeat(1025) }).success).toBe(false);
    expect(signInInput.safeParse({ email: 'a'.repeat(254), password: 'x'.repeat(1024), code: '1'.repeat(33) }).success).toBe(false);
    expect(signInInput.safeParse({ email: 'a'.repeat(254), password: 'x'.repeat(1024), code: `  ${'1'.repeat(32)}  ` }).data?.code).toBe('1'.repeat(32));
    expect(forgotPasswordInput.parse({ email: '  Ayanda@Example.com ' })).toEqual({ email: 'ayanda@example.com' });
    expect(forgotPasswordInput.safeParse({ email: 'a'.repeat(255) }).success).toBe(false);
    for (const schema of [resetPasswordInput, setPasswordInput]) {
      expect(schema.parse({ token: 't', password: 'a long enough secret' })).toEqual({ token: 't', password: 'a long enough secret' });
      expect(schema.parse({ token: 't'.repeat(200), password: 'a long enough secret' }).token).toBe('t'.repeat(200));
      for (const token of ['', 't'.repeat(201)]) expect(schema.safeParse({ token, password: 'a long enough secret' }).success).toBe(false);
      expect(schema.safeParse({ token: 't', password: 'too short' }).error?.issues).toMatchObject([{ path: ['password'], message: 'must be at least 12 characters' }]);
    }
    expect(inviteStateInput.parse({ token: 't'.repeat(200) })).toEqual({ token: 't'.repeat(200) });
    for (const token of ['', 't'.repeat(201)]) expect(inviteStateInput.safeParse({ token }).success).toBe(false);
  });

  it('makes tokens of 32 random bytes in base64url, and keeps only their SHA-256', () => {
    const a = newToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newToken()).not.toBe(a);
    expect(tokenDigest('abc').toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('derives the CSRF token from the service secret and the session, and checks one given back', () => {
    expect(csrfToken('service secret', 'session-token-1')).toBe('tfMtE19ZdodeVZkhe_3m1JliXtvq4wZmQ_JPn5VolMc');
    expect(csrfToken('another secret', 'session-token-1')).toBe('5M3oKpyyZl2gekoLTHjwAx0jDUN29OhHXADCE0v8xqM');
    expect(csrfToken('service secret', 'session-token-2')).toBe('iTFoqTJ6FYGI5PRAkwJr33eWZJ5dsJTURm1u1JlmY0w');
    expect(csrfMatches('service secret', 'session-token-1', 'tfMtE19ZdodeVZkhe_3m1JliXtvq4wZmQ_JPn5VolMc')).toBe(true);
    expect(csrfMatches('service secret', 'session-token-1', 'iTFoqTJ6FYGI5PRAkwJr33eWZJ5dsJTURm1u1JlmY0w')).toBe(false);
    expect(csrfMatches('service secret', 'session-token-1', 'tfMtE19ZdodeVZkhe_3m1JliXtvq4wZmQ_JPn5VolM')).toBe(false);
    expect(csrfMatches('service secret', 'session-token-1', '')).toBe(false);
    expect(csrfMatches('service secret', 'session-token-1', undefined)).toBe(false);
  });

  // Stored with small parameters (N = 1024, p = 1), which travel with the hash.
  const STORED = 'scrypt$1024$8$1$emFycGF5LXRlc3Qtc2FsdA$_cgbnYXOE0ysljZVsZsPwHwb_Kog5y-jTBe-Uq78pqM';

  it('checks a password against a hash stored earlier, with the parameters written in it', async () => {
    expect(await verifyPassword('correct horse battery', STORED)).toBe(true);
    expect(await verifyPassword('correct horse battery!', STORED)).toBe(false);
    // Compared after NFKC normalisation: a ligature is the letters it stands for.
    const finance = 'scrypt$1024$8$1$emFycGF5LXRlc3Qtc2FsdA$6r55p1BlvTsJmWNp79h62AYPIGdZanJypb73tJx-toE';
    expect(await verifyPassword('\ufb01nance department', finance)).toBe(true);
    expect(await verifyPassword('finance department', finance)).toBe(true);
  });

  it('refuses every password against no hash, another kind of hash, or one without its salt or with a cut hash', async () => {
    expect(await verifyPassword('correct horse battery', null)).toBe(false);
    expect(await verifyPassword('correct horse battery', STORED.replace('scrypt', 'bcrypt'))).toBe(false);
    // The right key for an empty salt: refused for the missing salt, not for the key.
    expect(await verifyPassword('correct horse battery', 'scrypt$1024$8$1$$mePfNCCITXLT3iEHfEUWORzgc2DCEZ4k2AqEivCO1iE')).toBe(false);
    expect(await verifyPassword('correct horse battery', 'scrypt$1024$8$1$emFycGF5LXRlc3Qtc2FsdA')).toBe(false);
    expect(await verifyPassword('correct horse battery', 'scrypt$1024$8$1$emFycGF5LXRlc3Qtc2FsdA$')).toBe(false);
    expect(await verifyPassword('correct horse battery', 'scrypt$1024$8$1$emFycGF5LXRlc3Qtc2FsdA$_cgbnYXOE0ysljZVsZsPwHwb')).toBe(false);
  });

  it('hashes a password with scrypt (N = 2^15, r = 8, p = 3) and a fresh salt, and verifies it', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^scrypt\$32768\$8\$3\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
  });
});

describe('actor.ts: who is asking, and what they see', () => {
  const withKey: Actor = {
    kind: 'merchant',
    merchant: shop,
    key: { id: 'k', merchantId: MERCHANT_ID, kid: 'kid', env: 'tst', type: 'secret', status: 'active', createdAt: new Date(), expiresAt: null, revokedAt: null, displayMask: 'm', issuedBy: 'merchant', issuedByPersonId: null, role: 'owner' },
  };
  const signedIn: Actor = { kind: 'merchant', merchant: shop, person: { personId: 'p-1', email: 'ayanda@example.com', role: 'viewer', sessionId: 's-1' } };
  const customer: Actor = { kind: 'customer', paymentId: OTHER_ID };
  const provider: Actor = { kind: 'provider', provider: 'yoco', notification: null };
  const system: Actor = { kind: 'system', task: 'reconciler' };

  it('gives a merchant itself, and refuses it another merchant', () => {
    expect(scope(withKey)).toEqual({ merchantId: MERCHANT_ID });
    expect(scope(withKey, null)).toEqual({ merchantId: MERCHANT_ID });
    expect(scope(signedIn, MERCHANT_ID.toUpperCase())).toEqual({ merchantId: MERCHANT_ID });
    expect(refused(() => scope(withKey, OTHER_ID))).toEqual({ code: 'FORBIDDEN', message: 'merchantId: a merchant may only name itself', details: undefined });
  });

  it('gives the operator and zarpay\'s own work the merchant named (in lower case), or all of them', () => {
    expect(scope(OPERATOR, OTHER_ID.toUpperCase())).toEqual({ merchantId: OTHER_ID });
    expect(scope(system, OTHER_ID)).toEqual({ merchantId: OTHER_ID });
    expect(scope(OPERATOR, null)).toEqual({ all: true });
    expect(scope(system)).toEqual({ all: true });
    for (const actor of [customer, provider]) expect(refused(() => scope(actor))).toMatchObject({ code: 'FORBIDDEN', message: 'not allowed for this caller' });
  });

  it('needs the operator to name the one merchant a use case acts for', () => {
    expect(oneMerchantScope(OPERATOR, OTHER_ID)).toEqual({ merchantId: OTHER_ID });
    expect(oneMerchantScope(withKey)).toEqual({ merchantId: MERCHANT_ID });
    expect(oneMerchant(signedIn)).toBe(MERCHANT_ID);
    expect(oneMerchant(OPERATOR, OTHER_ID)).toBe(OTHER_ID);
    expect(refused(() => oneMerchantScope(OPERATOR))).toMatchObject({ code: 'VALIDATION_FAILED', message: 'merchantId: required for the operator' });
    expect(refused(() => oneMerchant(system))).toMatchObject({ code: 'VALIDATION_FAILED', message: 'merchantId: required for the operator' });
  });

  it('gives a customer its one payment, a provider its own attempts, anyone else its merchant scope', () => {
    expect(paymentScope({ kind: 'customer', paymentId: OTHER_ID.toUpperCase() })).toEqual({ paymentId: OTHER_ID });
    expect(refused(() => paymentScope({ kind: 'customer', paymentId: 'pay-1' }))).toMatchObject({ code: 'PAYMENT_NOT_FOUND', message: 'payment not found' });
    expect(paymentScope(provider)).toEqual({ provider: 'yoco' });
    expect(paymentScope(withKey)).toEqual({ merchantId: MERCHANT_ID });
    expect(paymentScope(system)).toEqual({ all: true });
  });

  it('filters on one merchant, or on none for all of them', () => {
    expect(merchantFilter(scope(withKey))).toBe(MERCHANT_ID);
    expect(merchantFilter(scope(OPERATOR))).toBeNull();
    expect(covers(scope(withKey), MERCHANT_ID)).toBe(true);
    expect(covers(scope(withKey), OTHER_ID)).toBe(false);
    expect(covers(scope(OPERATOR), OTHER_ID)).toBe(true);
  });

  it('lets only a merchant do a merchant\'s work, and only the operator the operator\'s', () => {
    expect(requireMerchant(signedIn)).toBe(signedIn);
    for (const actor of [OPERATOR, customer, provider, system]) expect(refused(() => requireMerchant(actor))).toMatchObject({ code: 'FORBIDDEN', message: 'only a merchant may do this' });
    expect(requireOperator(OPERATOR)).toBeUndefined();
    for (const actor of [withKey, customer, provider, system]) expect(refused(() => requireOperator(actor))).toMatchObject({ code: 'FORBIDDEN', message: 'only the operator may do this' });
  });

  it('names each actor in the audit log', () => {
    expect(
      [OPERATOR, { kind: 'operator', name: 'thandi' } as const, { kind: 'operator', name: '' } as const, withKey, signedIn, customer, provider, system].map((a) => actorLabel(a)),
    ).toEqual(['operator', 'operator:thandi', 'operator', `merchant:${MERCHANT_ID}`, `merchant:${MERCHANT_ID}/person:p-1`, 'customer', 'provider:yoco', 'system:reconciler']);
    expect(Object.isFrozen(OPERATOR)).toBe(true);
  });

  it('takes an operator\'s name of 1 to 64 letters, digits, spaces and ._@+-', () => {
    for (const name of ['thandi', 'Thandi N.', 'ops_team@zarpay.example', 'a+b-c', 'T', 'x'.repeat(64)]) expect(OPERATOR_NAME.test(name), name).toBe(true);
    for (const name of ['', 'x'.repeat(65), 'thandi;', ';thandi', 'thandi\n', 'Thandiwé', 'a<b', 'a/b']) expect(OPERATOR_NAME.test(name), name).toBe(false);
  });
});

describe('payment-link.ts: a link\'s input, the JSON a merchant gets, the amount a customer types', () => {
  it('reads a link over REST: description, an optional fixed amount and reference, single use or not', () => {
    expect(parseWire(createPaymentLinkInput, { description: ' Guitar lesson ', amount_cents: 25_000, merchant_reference: ' LESSONS ', single_use: true })).toStrictEqual({
      description: 'Guitar lesson',
      amountCents: 25_000,
      merchantReference: 'LESSONS',
      singleUse: true,
    });
    expect(parseWire(createPaymentLinkInput, { description: 'Donation', amount_cents: null })).toEqual({ description: 'Donation' });
    expect(parseWire(createPaymentLinkInput, { description: 'd'.repeat(200), amount_cents: 1, merchant_reference: 'r'.repeat(64) })).toMatchObject({ amountCents: 1, merchantReference: 'r'.repeat(64) });
    expect(parseWire(createPaymentLinkInput, { description: 'Big', amount_cents: 10_000_000 }).amountCents).toBe(10_000_000);
  });

  it('refuses an amount no merchant takes with INVALID_AMOUNT, and the rest with VALIDATION_FAILED', () => {
    const limits = "amount_cents: must be within this merchant's payment limits";
    expect(refusedBody(createPaymentLinkInput, { description: 'ok', amount_cents: 0 })).toMatchObject({ code: 'INVALID_AMOUNT', message: limits });
    expect(refusedBody(createPaymentLinkInput, { description: 'ok', amount_cents: 10_000_001 })).toMatchObject({ code: 'INVALID_AMOUNT', message: limits });
    expect(refusedBody(createPaymentLinkInput, { description: 'ok', amount_cents: 12.5 })).toMatchObject({ code: 'INVALID_AMOUNT', message: 'amount_cents: must be a whole number' });
    expect(refusedBody(createPaymentLinkInput, { description: 'ok', amount_cents: '100' })).toMatchObject({ code: 'VALIDATION_FAILED', message: 'amount_cents: must be a number' });
    expect(refusedBody(createPaymentLinkInput, { description: '', merchant_reference: ' ', single_use: 'yes', color: 'red' }).details).toEqual([
      { field: 'description', message: 'must not be empty' },
      { field: 'merchant_reference', message: 'must not be empty' },
      { field: 'single_use', message: 'must be true or false' },
      { field: 'color', message: 'is not a known field' },
    ]);
    expect(refusedBody(createPaymentLinkInput, { description: 'd'.repeat(201), merchant_reference: 'r'.repeat(65) }).details).toEqual([
      { field: 'description', message: 'must be at most 200 characters' },
      { field: 'merchant_reference', message: 'must be at most 64 characters' },
    ]);
  });

  it('documents a link\'s optional amount, reference and single use, with examples', () => {
    const fields = documented('CreatePaymentLinkRequest');
    expect(fields.amount_cents).toEqual({
      anyOf: [
        { type: 'integer', minimum: 1, maximum: 10_000_000, format: 'int64', description: "A fixed amount in cents, within the merchant's payment limits; absent or null: the customer types the amount", example: 25_000 },
        { type: 'null' },
      ],
    });
    expect(fields.merchant_reference).toEqual({
      anyOf: [{ type: 'string', minLength: 1, maxLength: 64, description: "The merchant's own reference for the link", example: 'LESSONS-NOV' }, { type: 'null' }],
    });
    expect(fields.single_use).toEqual({ anyOf: [{ type: 'boolean', description: 'Closes once one payment through it is captured (default false)' }, { type: 'null' }] });
    expect(documented('PaymentLink').amount_cents).toMatchObject({ anyOf: [{ type: 'integer', minimum: 0, description: 'The fixed amount; null when the customer types it', example: 25_000 }, { type: 'null' }] });
  });

  it('opens or closes a link with active: true or false, nothing else', () => {
    expect(parseWire(updatePaymentLinkInput, { active: false })).toEqual({ active: false });
    expect(refusedBody(updatePaymentLinkInput, { active: null })).toEqual({ code: 'VALIDATION_FAILED', message: 'active: must be true or false', details: [{ field: 'active', message: 'must be true or false' }] });
    expect(refusedBody(updatePaymentLinkInput, { active: 'no' }).message).toBe('active: must be true or false');
    expect(refusedBody(updatePaymentLinkInput, { active: true, description: 'x' }).message).toBe('description: is not a known field');
  });

  it('lists links 50 at a time from the start unless asked otherwise', () => {
    expect(parseWire(listPaymentLinksQuery, {}, 'query')).toEqual({ limit: 50, offset: 0 });
    expect(parseWire(listPaymentLinksQuery, { limit: '20', offset: '40' }, 'query')).toEqual({ limit: 20, offset: 40 });
    expect(refusedBody(listPaymentLinksQuery, { limit: '0' }).message).toBe('limit: must be 1 to 100');
    expect(refused(() => parseWire(listPaymentLinksQuery, { page: '2' }, 'query')).message).toBe('query.page: is not a known field');
  });

  it('shows a link as the API sends it', () => {
    const link: PaymentLink = {
      id: OTHER_ID,
      merchantId: MERCHANT_ID,
      description: 'Guitar lesson',
      amountCents: 25_000,
      merchantReference: 'LESSONS',
      singleUse: true,
      active: false,
      paymentsCount: 3,
      capturedCents: 50_000,
      createdAt: new Date('2026-11-28T10:15:30.000Z'),
      updatedAt: new Date('2026-11-28T11:00:00.000Z'),
    };
    const url = `https://pay.zarpay.example/l/${OTHER_ID}`;
    const addresses = { url, qrCode: { content: url, imageUrl: `${url}/qr.png?expires=1764325530&signature=${'a'.repeat(64)}` } };
    const json = paymentLinkJson(link, addresses);
    expect(json).toStrictEqual({
      link_id: OTHER_ID,
      url,
      qr_code: { content: url, image_url: `${url}/qr.png?expires=1764325530&signature=${'a'.repeat(64)}` },
      description: 'Guitar lesson',
      amount_cents: 25_000,
      merchant_reference: 'LESSONS',
      single_use: true,
      active: false,
      payments_count: 3,
      captured_cents: 50_000,
      created_at: '2026-11-28T10:15:30.000Z',
    });
    expect(paymentLinkJsonSchema.parse(json)).toEqual(json);
    const open = paymentLinkJson({ ...link, amountCents: null, merchantReference: null, singleUse: false, active: true, paymentsCount: 0, capturedCents: 0 }, addresses);
    expect(paymentLinkJsonSchema.parse(open)).toMatchObject({ amount_cents: null, merchant_reference: null, single_use: false, active: true, payments_count: 0, captured_cents: 0 });
  });

  it('reads an amount in rand as a customer types it, in cents', () => {
    const typed = ['100', '100.50', '100,50', 'R 100,50', 'r100', 'R1 000,00', '1\u00a0000', '100.5', '100.05', '0.99', '  R 5  ', '123456789', `${' '.repeat(29)}100`];
    expect(typed.map((t) => parseRand(t))).toEqual([10_000, 10_050, 10_050, 10_050, 10_000, 100_000, 100_000, 10_050, 10_005, 99, 500, 12_345_678_900, 10_000]);
  });

  it('reads nothing that is not an amount in rand', () => {
    const notAmounts: unknown[] = ['', 'R', '100.', '.50', '100.505', '1234567890', 'abc', '-100', '100 R', 'RR100', '1R00', 'x100', '100x', '1e3', `${' '.repeat(30)}100`, 100, null, undefined];
    expect(notAmounts.map((t) => parseRand(t))).toEqual(new Array(notAmounts.length).fill(null));
  });
});

describe('payment-request.ts: a one-off request by e-mail', () => {
  const body = { amount_cents: 45_000, description: 'Invoice 1042: plumbing', customer_email: 'thandi@example.co.za', merchant_order_id: ' INV-1042 ' };

  it('reads a request over REST, trimming the order id; without one, zarpay makes its own', () => {
    expect(parseWire(requestPaymentInput, body)).toStrictEqual({ amountCents: 45_000, description: 'Invoice 1042: plumbing', customerEmail: 'thandi@example.co.za', merchantOrderId: 'INV-1042' });
    expect(parseWire(requestPaymentInput, { ...body, merchant_order_id: undefined })).toEqual({ amountCents: 45_000, description: 'Invoice 1042: plumbing', customerEmail: 'thandi@example.co.za' });
    expect(parseWire(requestPaymentInput, { ...body, amount_cents: 1, merchant_order_id: 'o'.repeat(255) })).toMatchObject({ amountCents: 1, merchantOrderId: 'o'.repeat(255) });
    expect(parseWire(requestPaymentInput, { ...body, amount_cents: 10_000_000 }).amountCents).toBe(10_000_000);
  });

  it('refuses an amount no merchant takes with INVALID_AMOUNT', () => {
    for (const amount of [0, 10_000_001]) {
      expect(refusedBody(requestPaymentInput, { ...body, amount_cents: amount })).toMatchObject({ code: 'INVALID_AMOUNT', message: "amount_cents: must be within this merchant's payment limits" });
    }
    expect(refusedBody(requestPaymentInput, { ...body, amount_cents: 450.5 })).toMatchObject({ code: 'INVALID_AMOUNT', message: 'amount_cents: must be a whole number' });
    expect(refusedBody(requestPaymentInput, { ...body, amount_cents: undefined })).toMatchObject({ code: 'VALIDATION_FAILED', message: 'amount_cents: is required' });
  });

  it('refuses a bad description, address or order id, each by name', () => {
    expect(refusedBody(requestPaymentInput, { ...body, description: ' ', customer_email: 'thandi', merchant_order_id: '' }).details).toEqual([
      { field: 'description', message: 'must not be empty' },
      { field: 'customer_email', message: 'must be an e-mail address' },
      { field: 'merchant_order_id', message: 'must not be empty' },
    ]);
    const longEmail = `tt@${'e'.repeat(255 - 'tt@'.length - '.co.za'.length)}.co.za`; // 255 characters
    expect(refusedBody(requestPaymentInput, { ...body, description: 'd'.repeat(201), customer_email: longEmail, merchant_order_id: 'o'.repeat(256) }).details).toEqual([
      { field: 'description', message: 'must be at most 200 characters' },
      { field: 'customer_email', message: 'must be at most 254 characters' },
      { field: 'merchant_order_id', message: 'must be at most 255 characters' },
    ]);
    expect(parseWire(requestPaymentInput, { ...body, customer_email: longEmail.slice(1) }).customerEmail).toBe(longEmail.slice(1));
  });

  it('documents the optional order id: what it does, and an example', () => {
    expect(documented('PaymentRequestRequest').merchant_order_id).toEqual({
      anyOf: [
        {
          type: 'string',
          minLength: 1,
          maxLength: 255,
          description: "The merchant's order id (unique per merchant: the same request again replays it and sends nothing more); absent: zarpay makes one, `request-{uuid}`",
          example: 'INV-1042',
        },
        { type: 'null' },
      ],
    });
  });

  it('answers with the payment, its page, the address and whether the e-mail is on its way', () => {
    const url = `https://pay.zarpay.example/pay/${OTHER_ID}`;
    const links = { paymentUrl: url, qrCode: { content: url, imageUrl: `${url}/qr.png?expires=1764325530&signature=${'b'.repeat(64)}` } };
    const json = paymentRequestJson({ payment: { id: OTHER_ID, status: 'created' }, links, created: true }, 'thandi@example.co.za');
    expect(json).toStrictEqual({
      payment_id: OTHER_ID,
      status: 'created',
      payment_url: url,
      qr_code: { content: url, image_url: `${url}/qr.png?expires=1764325530&signature=${'b'.repeat(64)}` },
      customer_email: 'thandi@example.co.za',
      email_queued: true,
    });
    expect(paymentRequestJsonSchema.parse(json)).toEqual(json);
    const replay = paymentRequestJson({ payment: { id: OTHER_ID, status: 'captured' }, links, created: false }, 'thandi@example.co.za');
    expect(paymentRequestJsonSchema.parse(replay)).toMatchObject({ status: 'captured', email_queued: false });
  });
});

describe('payment-method.ts: the ways to pay', () => {
  it('is card or instant_eft, spelled exactly', () => {
    expect(PAYMENT_METHODS).toEqual(['card', 'instant_eft']);
    expect(['card', 'instant_eft', 'CARD', 'eft', '', 1, null, undefined, ['card']].map((v) => isPaymentMethod(v))).toEqual([true, true, false, false, false, false, false, false, false]);
  });
});
