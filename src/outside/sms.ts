import type { SmsSettings } from '../config.ts';

/** One text to one phone. */
export interface Sms {
  /** E.164, `+27825550123`. */
  to: string;
  body: string;
  /** Ours, at most 20 characters, shown beside the message in the gateway's reports. */
  reference: string;
}

/**
 * Why a message was not taken. `permanent`: the gateway refused this message for good (a number
 * it cannot send to); anything else (unreachable, 5xx, 429, credentials or credits an operator
 * fixes) may pass on a later try.
 */
export class SmsRefused extends Error {
  override name = 'SmsRefused';
  constructor(
    message: string,
    readonly permanent: boolean,
    /** The gateway's HTTP status, when it answered. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * The SMS port: how a customer's confirmation reaches a phone. In production BulkSMS's JSON REST
 * API (`bulkSms`); tests run it against a double speaking the same protocol (test/support/bulksms.ts).
 */
export interface SmsGateway {
  /** Resolves with the gateway's message id once it accepted the message; throws SmsRefused otherwise. */
  send(sms: Sms, signal?: AbortSignal): Promise<{ id: string }>;
}

/** Time for one submission, answer included: well within the job's lease. */
const TIMEOUT_MS = 15_000;

/**
 * BulkSMS (bulksms.com, South African), JSON REST API v1, "Send Messages":
 * https://developer.bulksms.com/json/v1/#tag/Message/paths/~1messages/post (its OpenAPI document:
 * https://api.bulksms.com/v1 servers, `SubmissionEntry`, `Message`, `Error`).
 *
 * - `POST https://api.bulksms.com/v1/messages`, `Content-Type: application/json`, HTTP Basic
 *   authentication with an API token (`token-id:token-secret`, SMS_API_KEY), body
 *   `{ "to": "+27…", "body": "…", "userSuppliedId": "…" }` (a single entry may be sent as an
 *   object; `to` as one string is an INTERNATIONAL number).
 * - `201 Created` with an array of `Message` (`id`, `to`, `body`, `status: { id, type, subtype }`);
 *   a fresh submission's `status.type` is `ACCEPTED` (or `SCHEDULED`); `FAILED` with a subtype
 *   such as `BLOCKED` or `NOT_SENT` means it will never be delivered.
 * - Errors are `{ type, title, status, detail }` (`application/problem+json` style): 400 bad
 *   request (the submission is invalid: sending it again cannot help), 401 authentication failed,
 *   403 insufficient credits, 429 too many requests, 5xx the gateway's own trouble.
 *
 * Classified for the job runner: a 400 or a FAILED status is permanent for this message; 401 and
 * 403 (credentials, credits: an operator fixes them), 404 (a wrong SMS_URL), 429, 5xx, timeouts
 * and connection failures are retried with backoff.
 *
 * The API's `deduplication-id` is not used: it is a 32-bit number per account for 12 hours, and
 * an id that collided with another deployment's on a shared account would drop a customer's
 * message without a word. A response lost after the gateway took the message therefore sends it
 * again: a repeated confirmation is the lesser harm.
 */
export function bulkSms(settings: SmsSettings, fetcher: typeof fetch = (input, init) => globalThis.fetch(input, init)): SmsGateway {
  const authorization = `Basic ${Buffer.from(settings.apiKey).toString('base64')}`;
  return {
    async send(sms, signal) {
      const timeout = AbortSignal.timeout(TIMEOUT_MS);
      let res: Response;
      try {
        res = await fetcher(settings.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', authorization },
          body: JSON.stringify({ to: sms.to, body: sms.body, userSuppliedId: sms.reference }),
          redirect: 'error',
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (e) {
        if (signal?.aborted) throw e;
        const cause = (e as { cause?: { code?: string } }).cause?.code;
        throw new SmsRefused(timeout.aborted ? `SMS gateway: no answer within ${TIMEOUT_MS} ms` : `SMS gateway unreachable${cause ? ` (${cause})` : ''}`, false);
      }
      const text = await res.text().catch(() => '');
      if (res.status === 201 || res.status === 200) {
        const message = firstMessage(text);
        if (!message?.id) throw new SmsRefused(`SMS gateway: ${res.status} without a message id`, false, res.status);
        if (message.status?.type === 'FAILED') throw new SmsRefused(`SMS gateway: message ${message.status.id ?? 'FAILED'}`, true, res.status);
        return { id: String(message.id) };
      }
      throw new SmsRefused(`SMS gateway: ${res.status} ${problemText(text)}`.trim(), res.status === 400, res.status);
    },
  };
}

interface BulkSmsMessage {
  id?: string | number;
  status?: { id?: string; type?: string; subtype?: string };
}

function firstMessage(text: string): BulkSmsMessage | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    const first = Array.isArray(parsed) ? parsed[0] : parsed;
    return first && typeof first === 'object' ? (first as BulkSmsMessage) : undefined;
  } catch {
    return undefined;
  }
}

/** The error's title and detail, never the request (it holds the customer's voucher code). */
function problemText(text: string): string {
  try {
    const p = JSON.parse(text) as { title?: unknown; detail?: unknown };
    return [p.title, p.detail].filter((x): x is string => typeof x === 'string').join(': ').slice(0, 300);
  } catch {
    return '';
  }
}

/** The gateway's address without credentials or query, for the start-up log. */
export function smsTarget(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`;
}
