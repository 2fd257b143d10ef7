/**
 * Ozow Pay by Bank (instant EFT), South Africa: the customer pays straight from their bank's
 * online banking, on Ozow's pages, and Ozow tells us by a hashed form post to our NotifyUrl.
 * Read from Ozow's developer hub (pages named by title; docs/providers.md keeps the list):
 *
 * - "Step 1: Post variables" / the payment request API ("Create payment request"):
 *   `POST {apiUrl}/PostPaymentRequest`, headers `ApiKey`, `Accept: application/json`, a JSON body
 *   of the post variables `SiteCode`, `CountryCode` ("ZA"), `CurrencyCode` ("ZAR"), `Amount`
 *   (rand, two decimals), `TransactionReference` (the merchant's, ≤ 50), `BankReference` (≤ 20,
 *   shown on the customer's statement), `Optional1`…`Optional5`, `Customer`, `CancelUrl`,
 *   `ErrorUrl`, `SuccessUrl`, `NotifyUrl`, `IsTest`, and `HashCheck`: SHA-512 (hex) of the
 *   variables' values concatenated in that documented order, the private key appended, the whole
 *   lower-cased. The answer is `{ paymentRequestId, url, errorMessage }`; the customer goes to `url`.
 * - "Step 2: Process Ozow Response" and "Step 6: Outcome": Ozow posts the response variables
 *   (form-encoded) to the NotifyUrl, and to the browser's Success/Cancel/Error URL: `SiteCode`,
 *   `TransactionId` (Ozow's guid), `TransactionReference`, `Amount`, `Status`, `Optional1`…`5`,
 *   `CurrencyCode`, `IsTest`, `StatusMessage`, and `Hash`: SHA-512 of those values in that order,
 *   the private key appended, lower-cased. Ozow may send a notification more than once; a
 *   `Pending` one is followed by another with the final status.
 * - "Step 3: Check transaction status using API": `GET {apiUrl}/GetTransactionByReference?
 *   siteCode=…&transactionReference=…[&isTest=true]`, header `ApiKey`: a JSON array (at most 10) of
 *   transactions with `transactionId`, `siteCode`, `transactionReference`, `currencyCode`,
 *   `amount`, `status`, `statusMessage`.
 * - Refunds ("Get API token", "Step 2: Submit refunds", "Step 3: Refund processing"):
 *   `POST {apiUrl}/token` (form: `grant_type=password`, `SiteCode`; header `ApiKey`) gives a bearer
 *   `access_token` with `expires_in` seconds; `POST {apiUrl}/secure/refunds/submit` with a JSON array
 *   of `{ TransactionId, Amount, RefundReason, NotifyUrl, HashCheck }` answers an array of
 *   `{ refundId, transactionId, refundAmount, errors[] }`; the outcome is posted to the refund's
 *   NotifyUrl: `RefundId`, `TransactionId`, `CurrencyCode`, `Amount`, `Status`, `BankName`,
 *   `AccountNumber`, `StatusMessage`, `isRtc`, `Hash`.
 *
 * Status → AttemptState (notification and status API alike):
 *   Complete                      → succeeded (paymentRef = Ozow's TransactionId)
 *   Pending, PendingInvestigation → pending  (Ozow decides later, or by hand; the reconciler and
 *                                             the expiry rule keep asking, late money goes back)
 *   Cancelled, Error, Abandoned   → expired  (nobody was charged and Ozow will not take money for
 *                                             this reference: the payment is payable again, by
 *                                             either method, with a new attempt)
 * Refund status: Complete → succeeded; Failed, Cancelled, Returned, Invalid → failed; Pending,
 * Submitted → still pending (ignored).
 *
 * What the documentation leaves open, and what we chose (docs/providers.md repeats these):
 * - `providerRef` is our TransactionReference (the attempt id): the notification and the status
 *   API both name it; Ozow's own TransactionId is known only once the customer paid (paymentRef).
 * - The hub shows no idempotency for PostPaymentRequest; a reference is used once (the attempt
 *   is new each time), so a failed start is never repeated under the same reference.
 * - Amount formats: we send and accept a dot and at most two decimals ("55.00"); anything else in
 *   a notification is not understood (VALIDATION_FAILED, nothing settled).
 * - Booleans arrive as "true"/"false" in any case; the hash is over the values exactly as posted.
 * - An empty GetTransactionByReference answer (the customer never reached their bank) is pending,
 *   not proof that nobody paid: the payment ends by zarpay's own expiry rule.
 * - The refund HashCheck: ASSUMPTION, the request's values in their documented order
 *   (TransactionId, Amount, RefundReason, NotifyUrl) with the private key appended, lower-cased;
 *   the refund notification's Hash likewise over its variables in table order.
 * - Refunds have no documented idempotency. The refund reason carries zarpay's key, and a
 *   refund that may have been sent before without a readable answer is first looked for in GetRefunds (the
 *   transaction's refund of that amount created since): found, it is that refund, not a second.
 *   ASSUMPTION: GetRefunds lists a refund as soon as submit created it, naming its
 *   `transactionReference`. zarpay records in its database before each submission that it is
 *   sending one (`refunds.submitted_at`), so a restart forgets nothing.
 * - GetTransactionByReference's `amount` and `currencyCode`, when given, are checked against the
 *   payment like a notification's; an amount that cannot be read is not taken as paid.
 * - The hub documents no way to read one refund by id (GetRefunds filters by date and status):
 *   no `queryRefund`; a refund whose notification never comes is resolved by an operator
 *   (`zarpay refund resolve`), as for Yoco.
 * - Test mode: `IsTest` is true outside `prd` and never in `prd`; anything Ozow says about a
 *   transaction of the other mode is ignored, so a test payment can never capture a live one.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../../domain/errors.ts';
import {
  ProviderRefusedError,
  ProviderUnavailableError,
  type AttemptState,
  type EarlierRefundRequest,
  type NotificationHeaders,
  type PaymentProvider,
  type ProviderNotification,
  type StartAttempt,
  type StartedAttempt,
} from './port.ts';
import { type ProviderAnswer, type ProviderHttp, providerRequest } from './http.ts';

/** Ozow's live API (`OZOW_API_URL` overrides it: Ozow's staging API, or a local double). */
export const OZOW_API_URL = 'https://api.ozow.com';
const DEFAULT_TIMEOUT_MS = 10_000;
const NAME = 'ozow';

/** The payment request's hashed variables, in the documented order. */
export const REQUEST_FIELDS = [
  'SiteCode',
  'CountryCode',
  'CurrencyCode',
  'Amount',
  'TransactionReference',
  'BankReference',
  'Optional1',
  'Optional2',
  'Optional3',
  'Optional4',
  'Optional5',
  'Customer',
  'CancelUrl',
  'ErrorUrl',
  'SuccessUrl',
  'NotifyUrl',
  'IsTest',
] as const;
/** The notification's hashed variables, in the documented order. */
export const NOTIFICATION_FIELDS = [
  'SiteCode',
  'TransactionId',
  'TransactionReference',
  'Amount',
  'Status',
  'Optional1',
  'Optional2',
  'Optional3',
  'Optional4',
  'Optional5',
  'CurrencyCode',
  'IsTest',
  'StatusMessage',
] as const;
/** The refund notification's hashed variables (ASSUMPTION: table order, Hash excluded). */
export const REFUND_NOTIFICATION_FIELDS = ['RefundId', 'TransactionId', 'CurrencyCode', 'Amount', 'Status', 'BankName', 'AccountNumber', 'StatusMessage', 'isRtc'] as const;
/** The refund request's hashed variables (ASSUMPTION: their documented order). */
export const REFUND_REQUEST_FIELDS = ['TransactionId', 'Amount', 'RefundReason', 'NotifyUrl'] as const;

/** SHA-512 (hex) of the values in order, the private key appended, lower-cased: Ozow's HashCheck. */
export function ozowHash(values: readonly (string | undefined)[], privateKey: string): string {
  return createHash('sha512')
    .update((values.map((v) => v ?? '').join('') + privateKey).toLowerCase(), 'utf8')
    .digest('hex');
}

/** Integer cents as Ozow's decimal rand ("55.00"). */
export function randOf(cents: number): string {
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** Ozow's decimal rand as integer cents; undefined for anything but digits with at most two decimals. */
export function centsOf(amount: unknown): number | undefined {
  const text = typeof amount === 'number' ? String(amount) : amount;
  if (typeof text !== 'string') return undefined;
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

export interface OzowOptions {
  siteCode: string;
  privateKey: string;
  apiKey: string;
  /** `OZOW_API_URL`; defaults to {@link OZOW_API_URL}. */
  apiUrl?: string;
  /** Where Ozow posts notifications: `{PUBLIC_BASE_URL}/providers/ozow/webhook`. */
  notifyUrl: string;
  /** Ozow's test mode (`IsTest`): never in prd. */
  isTest: boolean;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const createdRequest = z.object({ url: z.url({ protocol: /^https?$/ }), paymentRequestId: z.string().nullish(), errorMessage: z.string().nullish() });
const transaction = z.object({
  transactionId: z.string().nullish(),
  siteCode: z.string().nullish(),
  transactionReference: z.string().nullish(),
  currencyCode: z.string().nullish(),
  amount: z.union([z.number(), z.string()]).nullish(),
  status: z.string(),
  statusMessage: z.string().nullish(),
  isTest: z.union([z.boolean(), z.string()]).nullish(),
});
const transactions = z.array(transaction);
const token = z.object({ access_token: z.string().min(1), expires_in: z.union([z.number(), z.string()]).optional() });
const submitted = z.array(z.object({ refundId: z.string().nullish(), transactionId: z.string().nullish(), errors: z.array(z.string()).nullish() }));
const listedRefund = z.object({ id: z.string(), transactionReference: z.string().nullish(), amount: z.union([z.number(), z.string()]), createdDateUtc: z.string().nullish() });

type Transaction = z.infer<typeof transaction>;

export function createOzowProvider(options: OzowOptions): OzowProvider {
  return new OzowProvider(options);
}

export class OzowProvider implements PaymentProvider {
  readonly name = NAME;
  private readonly siteCode: string;
  private readonly privateKey: string;
  private readonly apiKey: string;
  private readonly notifyUrl: string;
  private readonly isTest: boolean;
  private readonly http: ProviderHttp;
  private token: { value: string; until: number } | undefined;

  constructor(o: OzowOptions) {
    // Messages name the setting, never its value.
    for (const [name, value] of [
      ['OZOW_SITE_CODE', o.siteCode],
      ['OZOW_PRIVATE_KEY', o.privateKey],
      ['OZOW_API_KEY', o.apiKey],
    ] as const) {
      if (!value || /\s/.test(value)) throw new Error(`${name} is empty or contains whitespace`);
    }
    this.siteCode = o.siteCode;
    this.privateKey = o.privateKey;
    this.apiKey = o.apiKey;
    const url = new URL(o.apiUrl ?? OZOW_API_URL);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('OZOW_API_URL must be an http(s) address');
    this.notifyUrl = o.notifyUrl;
    this.isTest = o.isTest;
    this.http = {
      name: NAME,
      label: 'Ozow',
      apiUrl: url.toString().replace(/\/+$/, ''),
      timeoutMs: o.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      fetch: o.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      clean: (message) => this.clean(message),
    };
  }

  async startAttempt(attempt: StartAttempt): Promise<StartedAttempt> {
    if (!Number.isSafeInteger(attempt.amountCents) || attempt.amountCents <= 0) throw new RangeError('amountCents must be a positive integer');
    if (attempt.currency !== 'ZAR') throw new RangeError('Ozow takes ZAR only');
    const vars: Record<(typeof REQUEST_FIELDS)[number], string> = {
      SiteCode: this.siteCode,
      CountryCode: 'ZA',
      CurrencyCode: 'ZAR',
      Amount: randOf(attempt.amountCents),
      TransactionReference: attempt.attemptId,
      // What the customer's bank statement shows (≤ 20): enough to find the payment again.
      BankReference: `ZARPAY ${attempt.paymentId.slice(0, 8).toUpperCase()}`,
      Optional1: attempt.paymentId,
      Optional2: '',
      Optional3: '',
      Optional4: '',
      Optional5: '',
      Customer: '',
      CancelUrl: attempt.returnUrls.cancel,
      ErrorUrl: attempt.returnUrls.failure,
      SuccessUrl: attempt.returnUrls.success,
      NotifyUrl: this.notifyUrl,
      IsTest: this.isTest ? 'true' : 'false',
    };
    const body = { ...vars, HashCheck: ozowHash(REQUEST_FIELDS.map((f) => vars[f]), this.privateKey) };
    const res = await this.request('create payment request', 'POST', '/PostPaymentRequest', { json: body, headers: { apikey: this.apiKey } });
    if (!res.ok) throw this.refused('create payment request', res);
    const created = createdRequest.safeParse(res.body);
    if (!created.success) {
      const message = (res.body as { errorMessage?: unknown } | undefined)?.errorMessage;
      // Ozow answers a refused request with 200 and an errorMessage, and no url.
      if (typeof message === 'string' && message) throw new ProviderRefusedError(NAME, res.status, undefined, this.clean(`Ozow refused the payment request: ${message}`));
      throw new ProviderUnavailableError(NAME, 'bad_response', "Ozow's answer to the payment request is not what its API documents", res.status);
    }
    return { providerRef: attempt.attemptId, redirectUrl: created.data.url };
  }

  async queryAttempt(providerRef: string, signal?: AbortSignal): Promise<AttemptState> {
    const found = await this.transactionsOf(providerRef, signal);
    if (found.some((t) => t.status === 'Complete')) {
      const paid = found.find((t) => t.status === 'Complete')!;
      // The answer's amount and currency are checked against the payment, as a notification's are.
      const amountCents = centsOf(paid.amount);
      // An amount it gives but that cannot be read is not taken as paid (nor as anything else).
      if (paid.amount != null && amountCents === undefined) return { status: 'pending' };
      return {
        status: 'succeeded',
        ...(paid.transactionId && { paymentRef: paid.transactionId }),
        ...(amountCents !== undefined && { amountCents }),
        ...(paid.currencyCode && { currency: paid.currencyCode }),
      };
    }
    if (found.length === 0 || found.some((t) => t.status === 'Pending' || t.status === 'PendingInvestigation')) return { status: 'pending' };
    if (found.every((t) => ENDED.has(t.status))) return { status: 'expired' };
    // A status the hub does not list: not taken as an outcome.
    return { status: 'pending' };
  }

  async refund(providerRef: string, amountCents: number, idempotencyKey: string, signal?: AbortSignal, earlier?: EarlierRefundRequest): Promise<{ refundRef: string }> {
    if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new RangeError('amountCents must be a positive integer');
    const paid = (await this.transactionsOf(providerRef, signal)).find((t) => t.status === 'Complete' && t.transactionId);
    if (!paid) throw new ProviderRefusedError(NAME, 404, 'not_complete', 'Ozow has no completed transaction for this reference to refund');
    // Ozow has no idempotency: a request that may have reached it is looked for before another is made.
    if (earlier) {
      const made = await this.refundSince(providerRef, amountCents, earlier, signal);
      if (made) return { refundRef: made };
    }
    const vars = { TransactionId: paid.transactionId!, Amount: randOf(amountCents), RefundReason: `zarpay refund ${idempotencyKey}`, NotifyUrl: this.notifyUrl };
    const body = [{ ...vars, HashCheck: ozowHash(REFUND_REQUEST_FIELDS.map((f) => vars[f]), this.privateKey) }];
    const auth = { authorization: `Bearer ${await this.bearer(signal)}` };
    let res: ProviderAnswer;
    try {
      res = await this.request('submit refund', 'POST', '/secure/refunds/submit', { json: body, headers: auth, signal });
    } catch (e) {
      // No answer: the refund may exist. The next try comes with `earlier` and looks for it first.
      if (e instanceof ProviderUnavailableError && e.status === 401) this.token = undefined;
      throw e;
    }
    if (!res.ok) {
      if (res.status === 401) this.token = undefined;
      throw this.refused('submit refund', res);
    }
    const answer = submitted.safeParse(res.body);
    if (!answer.success || answer.data.length !== 1) throw new ProviderUnavailableError(NAME, 'bad_response', "Ozow's answer to the refund is not what its API documents", res.status);
    const [one] = answer.data;
    if (!one!.refundId || (one!.errors && one!.errors.length > 0)) {
      throw new ProviderRefusedError(NAME, res.status, 'refund_errors', this.clean(`Ozow refused the refund: ${(one!.errors ?? []).join('; ') || 'no refund id'}`));
    }
    return { refundRef: one!.refundId };
  }

  parseNotification(rawBody: Buffer, _headers: NotificationHeaders): ProviderNotification | null {
    const form = new URLSearchParams(rawBody.toString('utf8'));
    const hash = form.get('Hash') ?? form.get('HashCheck');
    if (!hash) throw new AppError('UNAUTHORIZED', 'Ozow notification without its Hash');
    const refund = form.has('RefundId');
    const fields = refund ? REFUND_NOTIFICATION_FIELDS : NOTIFICATION_FIELDS;
    const expected = ozowHash(
      fields.map((f) => form.get(f) ?? ''),
      this.privateKey,
    );
    if (!sameHex(hash.toLowerCase(), expected)) throw new AppError('FORBIDDEN', 'invalid Ozow notification hash');
    const amountCents = centsOf(form.get('Amount'));
    const currency = form.get('CurrencyCode') ?? undefined;
    const status = form.get('Status') ?? '';
    if (refund) {
      const refundRef = form.get('RefundId')!;
      const transactionId = form.get('TransactionId');
      if (!refundRef || !transactionId) throw new AppError('VALIDATION_FAILED', 'Ozow refund notification without RefundId or TransactionId');
      const outcome = REFUND_DONE.has(status) ? 'succeeded' : REFUND_FAILED.has(status) ? 'failed' : undefined;
      if (!outcome) return null;
      if (amountCents === undefined || !currency) throw new AppError('VALIDATION_FAILED', 'Ozow refund notification without a readable Amount or CurrencyCode');
      return {
        about: 'refund',
        eventId: `${refundRef}:${status}`,
        providerRef: transactionId,
        refundRef,
        outcome,
        amountCents,
        currency,
        ...(outcome === 'failed' && { reason: this.clean(`Ozow reported the refund ${status}${form.get('StatusMessage') ? `: ${form.get('StatusMessage')}` : ''}`) }),
      };
    }
    // Hashed with our private key, yet for another of the merchant's sites: not this attempt's.
    if (form.get('SiteCode') !== this.siteCode) throw new AppError('FORBIDDEN', 'Ozow notification for another site code');
    // prd never acts on test transactions, and tst never on live ones.
    if (booleanOf(form.get('IsTest')) !== this.isTest) return null;
    const reference = form.get('TransactionReference');
    const transactionId = form.get('TransactionId');
    if (!reference || !transactionId) throw new AppError('VALIDATION_FAILED', 'Ozow notification without TransactionReference or TransactionId');
    if (status === 'Pending' || status === 'PendingInvestigation') return null;
    const eventId = `${transactionId}:${status}`;
    if (status === 'Complete') {
      // Without them the amount cannot be checked, and an unchecked "paid" must not capture.
      if (amountCents === undefined || !currency) throw new AppError('VALIDATION_FAILED', 'Ozow notification without a readable Amount (two decimals at most) or CurrencyCode');
      return { eventId, providerRef: reference, outcome: 'succeeded', paymentRef: transactionId, amountCents, currency };
    }
    if (ENDED.has(status)) return { eventId, providerRef: reference, outcome: 'expired', reason: `Ozow: ${status}` };
    return null;
  }

  /** GetTransactionByReference, this site's and this mode's transactions only. */
  private async transactionsOf(providerRef: string, signal?: AbortSignal): Promise<Transaction[]> {
    if (!providerRef) throw new RangeError('providerRef is empty');
    const query = new URLSearchParams({ siteCode: this.siteCode, transactionReference: providerRef, ...(this.isTest && { isTest: 'true' }) });
    const res = await this.request('get transaction', 'GET', `/GetTransactionByReference?${query}`, { headers: { apikey: this.apiKey }, signal });
    if (!res.ok) throw this.refused('get transaction', res);
    const list = transactions.safeParse(res.body ?? []);
    if (!list.success) throw new ProviderUnavailableError(NAME, 'bad_response', "Ozow's transaction status answer is not what its API documents", res.status);
    return list.data.filter(
      (t) => (t.siteCode ?? this.siteCode) === this.siteCode && (t.transactionReference ?? providerRef) === providerRef && (t.isTest == null || booleanOf(String(t.isTest)) === this.isTest),
    );
  }

  /**
   * The refund of this transaction and amount that an earlier request made: created since it was
   * first sent (a minute's slack for clocks), and not one of the payment's other refunds. GetRefunds
   * lists one day at a time, so each day from then to today (South African dates, at most a week)
   * is read.
   */
  private async refundSince(providerRef: string, amountCents: number, earlier: EarlierRefundRequest, signal?: AbortSignal): Promise<string | undefined> {
    const auth = { authorization: `Bearer ${await this.bearer(signal)}` };
    const since = earlier.since.getTime() - 60_000;
    const days = Math.min(7, Math.floor((Date.now() - since) / 86_400_000) + 2);
    for (let day = 0; day < days; day++) {
      const date = new Date(Date.now() + 2 * 3600_000 - day * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '/');
      const res = await this.request('list refunds', 'GET', `/secure/refunds/getrefunds?${new URLSearchParams({ RefundDate: date })}`, { headers: auth, signal });
      if (!res.ok) throw this.refused('list refunds', res);
      const list = z.array(listedRefund).safeParse(res.body ?? []);
      if (!list.success) throw new ProviderUnavailableError(NAME, 'bad_response', "Ozow's refund list is not what its API documents", res.status);
      const found = list.data.find(
        (r) =>
          r.transactionReference === providerRef &&
          centsOf(r.amount) === amountCents &&
          !earlier.taken.includes(r.id) &&
          (!r.createdDateUtc || Date.parse(`${r.createdDateUtc.replace(/Z?$/, 'Z')}`) >= since),
      );
      if (found) return found.id;
    }
    return undefined;
  }

  private async bearer(signal?: AbortSignal): Promise<string> {
    if (this.token && this.token.until > Date.now()) return this.token.value;
    const form = new URLSearchParams({ grant_type: 'password', SiteCode: this.siteCode });
    const res = await this.request('get token', 'POST', '/token', { form, headers: { apikey: this.apiKey }, signal });
    if (!res.ok) throw this.refused('get token', res);
    const got = token.safeParse(res.body);
    if (!got.success) throw new ProviderUnavailableError(NAME, 'bad_response', "Ozow's token answer is not what its API documents", res.status);
    const seconds = Number(got.data.expires_in ?? 300);
    // A minute's margin, so a token never runs out on its way.
    this.token = { value: got.data.access_token, until: Date.now() + Math.max(0, seconds - 60) * 1000 };
    return this.token.value;
  }

  /** One call to Ozow's API (src/outside/providers/http.ts sorts what the answer means). */
  private request(
    op: string,
    method: 'GET' | 'POST',
    path: string,
    opts: { json?: unknown; form?: URLSearchParams; headers?: Record<string, string>; signal?: AbortSignal | undefined },
  ): Promise<ProviderAnswer> {
    return providerRequest(this.http, { op, method, path, ...opts });
  }

  private refused(op: string, res: ProviderAnswer): ProviderRefusedError {
    const b = (typeof res.body === 'object' && res.body !== null ? res.body : {}) as Record<string, unknown>;
    const message = [b.errorMessage, b.message, b.error_description, b.error].find((v): v is string => typeof v === 'string' && v.length > 0);
    return new ProviderRefusedError(NAME, res.status, typeof b.error === 'string' ? b.error : undefined, this.clean(`Ozow refused ${op}: HTTP ${res.status}${message ? `: ${message}` : ''}`));
  }

  /** Ozow's words go into our messages; make sure our keys never do, even if Ozow echoes them. */
  private clean(message: string): string {
    return message.split(this.privateKey).join('[redacted]').split(this.apiKey).join('[redacted]').slice(0, 500);
  }
}

/** Ended without payment: Ozow takes no money for the reference any more. */
const ENDED = new Set(['Cancelled', 'Error', 'Abandoned']);
const REFUND_DONE = new Set(['Complete', '1']);
const REFUND_FAILED = new Set(['Failed', 'Cancelled', 'Returned', 'Invalid', '3', '4', '5', '-1']);

function booleanOf(value: string | null | undefined): boolean {
  return (value ?? '').trim().toLowerCase() === 'true';
}

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
