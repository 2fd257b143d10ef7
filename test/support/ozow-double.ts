import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local Ozow (Pay by Bank): the payment request API, the customer's pages at each request's
 * `url`, the status API by reference, the refund API (token, submit, list) and the hashed form
 * posts Ozow sends to a NotifyUrl. Shapes follow the hub pages cited at the top of
 * src/outside/providers/ozow.ts; the hashes are computed here on their own (node:crypto), so the
 * adapter's are checked, not trusted.
 *
 * As strict as Ozow where zarpay depends on it, and stricter where the hub is silent:
 * - PostPaymentRequest refuses (400 with `errorMessage`) a wrong `ApiKey`, an unknown `SiteCode`, a
 *   `HashCheck` that is not the documented one, a `TransactionReference` already used, and an
 *   `Amount` with more than two decimals (or not ZAR/ZA).
 * - Notifications: form-encoded, `Hash` over the documented fields; `notify` can send them late,
 *   several times, with any status (out of order), forged (another key), tampered (amount, site).
 * - `failNext` makes the next API calls fail (a status, or a hang): Ozow down.
 * - Refunds: a bearer token from `/token`; `HashCheck` checked; more than what is left refused
 *   per refund in `errors`; the outcome is sent by `settleRefund`.
 */

export type OzowStatus = 'New' | 'Pending' | 'PendingInvestigation' | 'Complete' | 'Cancelled' | 'Error' | 'Abandoned';

export interface DoubleTransaction {
  transactionId: string;
  paymentRequestId: string;
  siteCode: string;
  reference: string;
  bankReference: string;
  /** As posted ("55.00"). */
  amount: string;
  status: OzowStatus;
  isTest: boolean;
  vars: Record<string, string>;
  refunds: DoubleRefund[];
}

export interface DoubleRefund {
  refundId: string;
  transactionId: string;
  amount: string;
  status: 'Pending' | 'Complete' | 'Failed';
  notifyUrl: string;
  reason: string;
  createdDateUtc: string;
}

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export type Fault = number | 'hang';

export interface NotifyOptions {
  /** Default: the request's NotifyUrl. */
  to?: string;
  /** Report this status instead of the transaction's (out of order). */
  status?: OzowStatus;
  /** Report this amount (rand as posted) instead of the transaction's. */
  amount?: string;
  currency?: string;
  siteCode?: string;
  /** Hash with another key: a forgery. */
  forge?: boolean;
  /** Leave the Hash out. */
  unsigned?: boolean;
  times?: number;
}

export const OZOW_REQUEST_FIELDS = [
  'SiteCode', 'CountryCode', 'CurrencyCode', 'Amount', 'TransactionReference', 'BankReference',
  'Optional1', 'Optional2', 'Optional3', 'Optional4', 'Optional5', 'Customer',
  'CancelUrl', 'ErrorUrl', 'SuccessUrl', 'NotifyUrl', 'IsTest',
];
const NOTIFY_FIELDS = ['SiteCode', 'TransactionId', 'TransactionReference', 'Amount', 'Status', 'Optional1', 'Optional2', 'Optional3', 'Optional4', 'Optional5', 'CurrencyCode', 'IsTest', 'StatusMessage'];
const REFUND_NOTIFY_FIELDS = ['RefundId', 'TransactionId', 'CurrencyCode', 'Amount', 'Status', 'BankName', 'AccountNumber', 'StatusMessage', 'isRtc'];
const REFUND_FIELDS = ['TransactionId', 'Amount', 'RefundReason', 'NotifyUrl'];

const sha512 = (values: string[], key: string) => createHash('sha512').update((values.join('') + key).toLowerCase()).digest('hex');
const cents = (amount: string) => Math.round(Number(amount) * 100);

export type OzowDouble = Awaited<ReturnType<typeof startOzowDouble>>;

export async function startOzowDouble(options: { siteCode?: string; privateKey?: string; apiKey?: string; autoNotify?: boolean } = {}) {
  const siteCode = options.siteCode ?? 'ZAR-ZAR-001';
  const privateKey = options.privateKey ?? randomBytes(16).toString('hex');
  const apiKey = options.apiKey ?? randomBytes(16).toString('hex');
  let autoNotify = options.autoNotify ?? true;
  /** Set: every refund is refused with these words (refunds not enabled for the site, float empty). */
  let refusing: string | undefined;
  const transactions = new Map<string, DoubleTransaction>();
  const requests: Recorded[] = [];
  const faults: Fault[] = [];
  const held = new Set<ServerResponse>();
  const tokens = new Set<string>();
  const deliveries: { reference: string; status: number | string }[] = [];
  /** Paths whose next request takes effect but whose answer is lost (the connection drops). */
  const losing = new Set<string>();
  /** What the status API says a transaction's amount is, when told to say something else. */
  const statusAmounts = new Map<string, string>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const send = (res: ServerResponse, status: number, body: unknown, type = 'application/json') => {
    res.writeHead(status, { 'content-type': type });
    res.end(type === 'application/json' ? JSON.stringify(body) : String(body));
  };
  const byRequestId = (id: string) => [...transactions.values()].find((t) => t.paymentRequestId === id);

  async function handle(req: IncomingMessage, res: ServerResponse, text: string) {
    const url = new URL(req.url ?? '/', origin);
    const path = url.pathname;
    const isForm = String(req.headers['content-type'] ?? '').includes('x-www-form-urlencoded');
    const body: unknown = isForm ? Object.fromEntries(new URLSearchParams(text)) : text ? safeJson(text) : undefined;
    // The customer's pages.
    const page = /^\/pay\/([^/]+)(?:\/(bank|cancel))?$/.exec(path);
    if (page) {
      const t = byRequestId(page[1]!);
      if (!t) return send(res, 404, 'no such payment request', 'text/html');
      if (req.method === 'GET' && !page[2]) return send(res, 200, bankPage(t), 'text/html; charset=utf-8');
      if (req.method === 'POST' && page[2]) return returnCustomer(res, t, page[2] === 'bank' ? 'Complete' : 'Cancelled');
    }
    requests.push({ method: req.method ?? '', path, headers: req.headers, body });
    const fault = faults.shift();
    if (fault === 'hang') return void held.add(res);
    if (fault !== undefined) return send(res, fault, { errorMessage: `failure injected by the double (${fault})` });
    if (losing.delete(path)) {
      // Done, but the answer never arrives.
      const real = res;
      res = { writeHead: () => res, end: () => real.destroy() } as unknown as ServerResponse;
    }

    if (req.method === 'POST' && path === '/token') {
      if (req.headers.apikey !== apiKey) return send(res, 401, { error: 'invalid_client', error_description: 'bad ApiKey' });
      const form = body as Record<string, string>;
      if (form.grant_type !== 'password' || form.SiteCode !== siteCode) return send(res, 400, { error: 'invalid_grant', error_description: 'bad site code' });
      const token = randomBytes(24).toString('base64url');
      tokens.add(token);
      return send(res, 200, { access_token: token, token_type: 'bearer', expires_in: 3600 });
    }
    if (path.startsWith('/secure/')) {
      const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
      if (!bearer || !tokens.has(bearer)) return send(res, 401, { message: 'Authorization has been denied for this request.' });
      if (req.method === 'POST' && path === '/secure/refunds/submit') return send(res, 200, submitRefunds(body));
      if (req.method === 'GET' && path === '/secure/refunds/getrefunds') {
        // Every refund, whatever RefundDate asks (the double's refunds are all of today).
        const all = [...transactions.values()].flatMap((t) => t.refunds.map((r) => ({ r, t })));
        return send(
          res,
          200,
          all.map(({ r, t }) => ({ id: r.refundId, siteCode: t.siteCode, currencyCode: 'ZAR', amount: Number(r.amount), status: r.status, transactionReference: t.reference, createdDateUtc: r.createdDateUtc })),
        );
      }
    }
    if (req.headers.apikey !== apiKey) return send(res, 401, { errorMessage: 'Invalid ApiKey' });
    if (req.method === 'POST' && path === '/PostPaymentRequest') return paymentRequest(res, body as Record<string, unknown>);
    if (req.method === 'GET' && path.toLowerCase() === '/gettransactionbyreference') {
      if (url.searchParams.get('siteCode') !== siteCode) return send(res, 400, { errorMessage: 'Invalid site code' });
      const isTest = url.searchParams.get('isTest') === 'true';
      const found = [...transactions.values()].filter((t) => t.reference === url.searchParams.get('transactionReference') && t.isTest === isTest && t.status !== 'New');
      return send(
        res,
        200,
        found.map((t) => ({
          transactionId: t.transactionId,
          merchantCode: 'ZAR',
          siteCode: t.siteCode,
          transactionReference: t.reference,
          currencyCode: 'ZAR',
          amount: Number(statusAmounts.get(t.reference) ?? t.amount),
          status: t.status,
          statusMessage: t.status === 'Complete' ? 'Payment successful' : '',
          isTest: t.isTest,
        })),
      );
    }
    return send(res, 404, { errorMessage: 'not found' });
  }

  function paymentRequest(res: ServerResponse, b: Record<string, unknown>) {
    const v = Object.fromEntries(OZOW_REQUEST_FIELDS.map((f) => [f, b[f] === undefined || b[f] === null ? '' : String(b[f])]));
    const refuse = (errorMessage: string) => send(res, 400, { paymentRequestId: null, url: null, errorMessage });
    if (v.SiteCode !== siteCode) return refuse('Invalid SiteCode');
    if (typeof b.HashCheck !== 'string' || b.HashCheck !== sha512(OZOW_REQUEST_FIELDS.map((f) => v[f]!), privateKey)) return refuse('HashCheck does not match');
    if (v.CountryCode !== 'ZA' || v.CurrencyCode !== 'ZAR') return refuse('Only ZA / ZAR');
    if (!/^\d+(\.\d{1,2})?$/.test(v.Amount!) || cents(v.Amount!) <= 0) return refuse('Amount must be positive with at most two decimals');
    if (!v.TransactionReference || v.TransactionReference.length > 50) return refuse('TransactionReference is required (50 at most)');
    if ([...transactions.values()].some((t) => t.reference === v.TransactionReference)) return refuse('TransactionReference has been used before');
    if (v.BankReference!.length > 20) return refuse('BankReference is longer than 20');
    const t: DoubleTransaction = {
      transactionId: randomUUID(),
      paymentRequestId: randomUUID(),
      siteCode,
      reference: v.TransactionReference!,
      bankReference: v.BankReference!,
      amount: v.Amount!,
      status: 'New',
      isTest: v.IsTest!.toLowerCase() === 'true',
      vars: v as Record<string, string>,
      refunds: [],
    };
    transactions.set(t.reference, t);
    return send(res, 200, { paymentRequestId: t.paymentRequestId, url: `${origin}/pay/${t.paymentRequestId}`, errorMessage: null });
  }

  function submitRefunds(body: unknown) {
    if (!Array.isArray(body)) return [{ refundId: null, transactionId: null, refundAmount: 0, errors: ['body is not an array'] }];
    return body.map((item: Record<string, unknown>) => {
      const v = Object.fromEntries(REFUND_FIELDS.map((f) => [f, item[f] == null ? '' : String(item[f])]));
      const t = [...transactions.values()].find((x) => x.transactionId === v.TransactionId);
      const errors: string[] = [];
      if (item.HashCheck !== sha512(REFUND_FIELDS.map((f) => v[f]!), privateKey)) errors.push('HashCheck does not match');
      if (!t || t.status !== 'Complete') errors.push('Transaction not found or not complete');
      if (!/^\d+(\.\d{1,2})?$/.test(v.Amount!)) errors.push('Amount must have at most two decimals');
      const left = t ? cents(t.amount) - t.refunds.filter((r) => r.status !== 'Failed').reduce((n, r) => n + cents(r.amount), 0) : 0;
      if (cents(v.Amount!) > left) errors.push('Refund amount exceeds the amount available to refund');
      if (refusing) errors.push(refusing);
      if (errors.length > 0 || !t) return { refundId: null, transactionId: v.TransactionId, refundAmount: 0, errors };
      const refund: DoubleRefund = {
        refundId: randomUUID(),
        transactionId: t.transactionId,
        amount: v.Amount!,
        status: 'Pending',
        notifyUrl: v.NotifyUrl!,
        reason: v.RefundReason!,
        createdDateUtc: new Date().toISOString().replace('Z', ''),
      };
      t.refunds.push(refund);
      return { refundId: refund.refundId, transactionId: t.transactionId, refundAmount: Number(refund.amount), errors: [] };
    });
  }

  function notification(t: DoubleTransaction, o: NotifyOptions): URLSearchParams {
    const v: Record<string, string> = {
      SiteCode: o.siteCode ?? t.siteCode,
      TransactionId: t.transactionId,
      TransactionReference: t.reference,
      Amount: o.amount ?? t.amount,
      Status: o.status ?? t.status,
      Optional1: t.vars.Optional1 ?? '',
      Optional2: '',
      Optional3: '',
      Optional4: '',
      Optional5: '',
      CurrencyCode: o.currency ?? 'ZAR',
      IsTest: t.isTest ? 'true' : 'false',
      StatusMessage: (o.status ?? t.status) === 'Complete' ? 'Payment successful' : '',
    };
    const form = new URLSearchParams(v);
    if (!o.unsigned) form.set('Hash', sha512(NOTIFY_FIELDS.map((f) => v[f]!), o.forge ? `${privateKey}x` : privateKey));
    return form;
  }

  async function post(url: string, form: URLSearchParams): Promise<number | string> {
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString(), signal: AbortSignal.timeout(10_000) });
      await res.text();
      return res.status;
    } catch (e) {
      return (e as Error).message;
    }
  }

  function bankPage(t: DoubleTransaction): string {
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ozow double</title></head><body>
<h1>Pay R${t.amount} from your bank</h1><p>Reference ${t.bankReference}</p>
<form method="post" action="/pay/${t.paymentRequestId}/bank"><button type="submit" data-testid="ozow-pay">Pay from my bank</button></form>
<form method="post" action="/pay/${t.paymentRequestId}/cancel"><button type="submit" data-testid="ozow-cancel">Cancel</button></form>
</body></html>`;
  }

  /** The customer's bank said yes (or they cancelled): Ozow notifies, and posts the browser back. */
  async function returnCustomer(res: ServerResponse, t: DoubleTransaction, status: OzowStatus) {
    t.status = status;
    if (autoNotify) await deliver(t, {});
    const form = notification(t, {});
    const to = status === 'Complete' ? t.vars.SuccessUrl : t.vars.CancelUrl;
    const fields = [...form].map(([k, v]) => `<input type="hidden" name="${k}" value="${v.replace(/"/g, '&quot;')}">`).join('');
    send(res, 200, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ozow double</title></head><body><p>${status}</p><form method="post" action="${to}">${fields}<button type="submit" data-testid="ozow-return">Return to the merchant</button></form></body></html>`, 'text/html; charset=utf-8');
  }

  async function deliver(t: DoubleTransaction, o: NotifyOptions): Promise<(number | string)[]> {
    const out: (number | string)[] = [];
    for (let i = 0; i < (o.times ?? 1); i++) {
      const status = await post(o.to ?? t.vars.NotifyUrl!, notification(t, o));
      deliveries.push({ reference: t.reference, status });
      out.push(status);
    }
    return out;
  }

  const find = (reference: string) => {
    const t = transactions.get(reference);
    if (!t) throw new Error(`no Ozow transaction ${reference}`);
    return t;
  };

  return {
    apiUrl: origin,
    siteCode,
    privateKey,
    apiKey,
    transactions,
    requests,
    deliveries,
    transaction: find,
    /** The transaction of a zarpay payment (its Optional1). */
    ofPayment: (paymentId: string) => [...transactions.values()].filter((t) => t.vars.Optional1 === paymentId),
    refuseRefunds(reason: string | undefined) {
      refusing = reason;
    },
    setAutoNotify(on: boolean) {
      autoNotify = on;
    },
    /** The customer's bank paid (no notification sent: call `notify`). */
    pay(reference: string) {
      find(reference).status = 'Complete';
    },
    setStatus(reference: string, status: OzowStatus) {
      find(reference).status = status;
    },
    notify: (reference: string, o: NotifyOptions = {}) => deliver(find(reference), o),
    /** Ozow finished a refund: posts the hashed outcome to the refund's NotifyUrl. */
    async settleRefund(refundId: string, status: 'Complete' | 'Failed', o: { amount?: string; to?: string } = {}) {
      const r = [...transactions.values()].flatMap((t) => t.refunds).find((x) => x.refundId === refundId);
      if (!r) throw new Error(`no Ozow refund ${refundId}`);
      r.status = status;
      const v: Record<string, string> = {
        RefundId: r.refundId,
        TransactionId: r.transactionId,
        CurrencyCode: 'ZAR',
        Amount: o.amount ?? r.amount,
        Status: status,
        BankName: 'Test Bank',
        AccountNumber: '****1234',
        StatusMessage: status === 'Failed' ? 'Account closed' : '',
        isRtc: 'false',
      };
      const form = new URLSearchParams(v);
      form.set('Hash', sha512(REFUND_NOTIFY_FIELDS.map((f) => v[f]!), privateKey));
      return post(o.to ?? r.notifyUrl, form);
    },
    /** The next request to `path` takes effect, but its answer is lost on the way back. */
    loseNextAnswer(path: string) {
      losing.add(path);
    },
    /** The status API says this amount (rand, as Ozow writes it) for the transaction from now on. */
    reportAmount(reference: string, amount: string) {
      statusAmounts.set(reference, amount);
    },
    /** The next API calls fail, one fault each (a status, or no answer at all). */
    failNext(...f: Fault[]) {
      faults.push(...f);
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The settings that point a zarpay at this double. */
export function ozowSettings(d: { siteCode: string; privateKey: string; apiKey: string; apiUrl: string }): Record<string, string> {
  return { OZOW_SITE_CODE: d.siteCode, OZOW_PRIVATE_KEY: d.privateKey, OZOW_API_KEY: d.apiKey, OZOW_API_URL: d.apiUrl };
}
