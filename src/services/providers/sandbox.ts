import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../../domain/errors.ts';
import { hmacHex, hmacMatches } from '../../domain/signing.ts';
import type { CallbackHeaders, PaymentProvider, ProviderConfirmation, StartAttempt } from './provider.ts';

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
export const SANDBOX_CALLBACK_PATH = '/providers/sandbox/callback';
/** Callbacks older or newer than this are refused, so a captured request cannot be replayed later. */
const MAX_SKEW_SECONDS = 300;
const ATTEMPTS = 3;

const callbackSchema = z.strictObject({
  attempt_id: z.uuid(),
  provider_ref: z.string().min(1).max(100),
  status: z.enum(['succeeded', 'failed']),
  reason: z.string().max(500).optional(),
});

export interface SandboxOptions {
  /** HMAC key shared by the "provider" and zarpay (derived from SERVICE_SECRET). */
  key: Buffer;
  delayMs: number;
  /** Where the callback goes; undefined until the service listens. */
  callbackBase: () => string | undefined;
  onError?: (message: string, err?: unknown) => void;
}

/**
 * `sign(t, body)`: the `X-Sandbox-Signature` value, `t={unix seconds},v1={hex HMAC-SHA256 of
 * "{t}.{raw body}"}`, the scheme of Stripe-style provider webhooks.
 */
export function sandboxSignature(key: Buffer, t: number, body: string): string {
  return `t=${t},v1=${hmacHex(key, `${t}.${body}`)}`;
}

/**
 * A provider that approves every attempt (or declines, when asked) after `delayMs`, by POSTing a
 * signed confirmation to zarpay's own callback endpoint over HTTP, exactly as a real provider
 * would. Confirmations are kept in memory only: after a restart a payment stays awaiting_webhook
 * until the operator settles it.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox';
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private stopped = false;

  constructor(private readonly options: SandboxOptions) {}

  async start(attempt: StartAttempt): Promise<{ providerRef: string }> {
    const providerRef = `sbx_${randomBytes(12).toString('hex')}`;
    const body: Record<string, unknown> = {
      attempt_id: attempt.attemptId,
      provider_ref: providerRef,
      status: attempt.simulate === 'decline' ? 'failed' : 'succeeded',
    };
    if (attempt.simulate === 'decline') body.reason = 'declined by the issuing bank (sandbox)';
    this.schedule(JSON.stringify(body), 1);
    return { providerRef };
  }

  private schedule(body: string, attempt: number) {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const sending = this.send(body, attempt).finally(() => this.inFlight.delete(sending));
      this.inFlight.add(sending);
    }, this.options.delayMs);
    this.timers.add(timer);
  }

  private async send(body: string, attempt: number) {
    const base = this.options.callbackBase();
    let retry = false;
    try {
      if (!base) throw new Error('the service is not listening yet');
      const t = Math.floor(Date.now() / 1000);
      const res = await fetch(base + SANDBOX_CALLBACK_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: sandboxSignature(this.options.key, t, body) },
        body,
        signal: this.abort.signal,
      });
      await res.arrayBuffer();
      // 4xx other than 429 will not get better by retrying (unknown attempt, bad signature).
      retry = res.status >= 500 || res.status === 429;
      if (!res.ok) this.options.onError?.(`sandbox callback answered ${res.status}`);
    } catch (e) {
      retry = true;
      if (!this.stopped) this.options.onError?.('sandbox callback failed', e);
    }
    if (retry && attempt < ATTEMPTS) this.schedule(body, attempt + 1);
  }

  verifyCallback(rawBody: Buffer, headers: CallbackHeaders): ProviderConfirmation {
    const header = headers[SANDBOX_SIGNATURE_HEADER];
    if (typeof header !== 'string') throw new AppError('UNAUTHORIZED', `missing ${SANDBOX_SIGNATURE_HEADER} header`);
    const parts = Object.fromEntries(header.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
    const t = Number(parts.t);
    if (!/^\d{1,12}$/.test(parts.t ?? '') || !hmacMatches(this.options.key, Buffer.concat([Buffer.from(`${t}.`), rawBody]), parts.v1)) {
      throw new AppError('FORBIDDEN', 'invalid callback signature');
    }
    if (Math.abs(Date.now() / 1000 - t) > MAX_SKEW_SECONDS) throw new AppError('FORBIDDEN', 'callback timestamp outside the allowed window');
    let json: unknown;
    try {
      json = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw new AppError('INVALID_INPUT', 'callback body is not valid JSON');
    }
    const parsed = callbackSchema.safeParse(json);
    if (!parsed.success) throw new AppError('VALIDATION_FAILED', `callback: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    const { attempt_id, provider_ref, status, reason } = parsed.data;
    return { attemptId: attempt_id, providerRef: provider_ref, outcome: status, ...(reason !== undefined && { reason }) };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.abort.abort();
    await Promise.allSettled([...this.inFlight]);
  }
}
