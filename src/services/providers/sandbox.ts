import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import * as books from '../../db/sandbox.ts';
import { AppError } from '../../domain/errors.ts';
import { hmacHex, hmacMatches } from '../../domain/signing.ts';
import {
  type AttemptState,
  type NotificationHeaders,
  type PaymentProvider,
  type ProviderNotification,
  ProviderRefusedError,
  type StartAttempt,
  type StartedAttempt,
} from './port.ts';

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
export const SANDBOX_WEBHOOK_PATH = '/providers/sandbox/webhook';
/** Notifications older or newer than this are refused, so a captured request cannot be replayed later. */
const MAX_SKEW_SECONDS = 300;
/** Deliveries of one confirmation: then the sandbox stops, and the reconciler asks queryAttempt. */
const RETRY_DELAYS_MS = [1_000, 5_000, 30_000];
const POLL_MS = 1_000;
const LEASE_MS = 15_000;
const DELIVERY_TIMEOUT_MS = 10_000;

const notificationSchema = z.strictObject({
  event_id: z.uuid(),
  provider_ref: z.string().min(1).max(100),
  status: z.enum(['succeeded', 'failed']),
  reason: z.string().max(500).optional(),
});

export interface SandboxOptions {
  db: Db;
  /** HMAC key shared by the "provider" and zarpay (derived from SERVICE_SECRET). */
  key: Buffer;
  delayMs: number;
  /** Where this process's HTTP server listens; undefined in processes without one (nothing is delivered there). */
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
 * A provider for `tst` and `dev` (never registered in `prd`): it approves every attempt (or
 * declines, when the hosted page's "Simulate a decline" asks) after `delayMs`, without sending the
 * customer anywhere. Like a real provider it keeps books of its own (`sandbox_checkouts`, written
 * when an attempt starts), tells zarpay by a signed notification POSTed to
 * `/providers/sandbox/webhook`, retries that a few times, and answers the status API
 * (`queryAttempt`) from its books, so a restart, a lost notification or a crash loses nothing:
 * whatever it did not deliver, the reconciler asks about.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox';
  private running = false;
  private loopDone: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly abort = new AbortController();

  constructor(private readonly options: SandboxOptions) {}

  async startAttempt(attempt: StartAttempt): Promise<StartedAttempt> {
    const declined = attempt.testOutcome === 'decline';
    const providerRef = await books.takeAttempt(this.options.db, {
      ref: `sbx_${randomBytes(12).toString('hex')}`,
      attemptId: attempt.attemptId,
      outcome: declined ? 'failed' : 'succeeded',
      reason: declined ? 'declined by the issuing bank (sandbox)' : null,
      delayMs: this.options.delayMs,
      eventId: randomUUID(),
    });
    this.wakeIn(this.options.delayMs);
    return { providerRef, redirectUrl: null };
  }

  async queryAttempt(providerRef: string): Promise<AttemptState> {
    const checkout = await books.findCheckout(this.options.db, providerRef);
    if (!checkout) return { status: 'expired' };
    if (!checkout.confirmed) return { status: 'pending' };
    return checkout.outcome === 'succeeded'
      ? { status: 'succeeded', paymentRef: checkout.ref }
      : { status: 'failed', reason: checkout.reason ?? 'declined (sandbox)' };
  }

  async refund(providerRef: string): Promise<{ refundRef: string }> {
    if (!(await books.refundCheckout(this.options.db, providerRef))) {
      throw new ProviderRefusedError(this.name, 400, 'not_refundable', `sandbox checkout ${providerRef} has nothing to refund`);
    }
    return { refundRef: `sbx_rf_${randomBytes(8).toString('hex')}` };
  }

  parseNotification(rawBody: Buffer, headers: NotificationHeaders): ProviderNotification | null {
    const header = headers[SANDBOX_SIGNATURE_HEADER];
    if (typeof header !== 'string') throw new AppError('UNAUTHORIZED', `missing ${SANDBOX_SIGNATURE_HEADER} header`);
    const parts = Object.fromEntries(header.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
    const t = Number(parts.t);
    if (!/^\d{1,12}$/.test(parts.t ?? '') || !hmacMatches(this.options.key, Buffer.concat([Buffer.from(`${t}.`), rawBody]), parts.v1)) {
      throw new AppError('FORBIDDEN', 'invalid notification signature');
    }
    if (Math.abs(Date.now() / 1000 - t) > MAX_SKEW_SECONDS) throw new AppError('FORBIDDEN', 'notification timestamp outside the allowed window');
    let json: unknown;
    try {
      json = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw new AppError('INVALID_INPUT', 'notification body is not valid JSON');
    }
    const parsed = notificationSchema.safeParse(json);
    if (!parsed.success) throw new AppError('VALIDATION_FAILED', `notification: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    const { event_id, provider_ref, status, reason } = parsed.data;
    return status === 'succeeded'
      ? { eventId: event_id, providerRef: provider_ref, outcome: 'succeeded', paymentRef: provider_ref }
      : { eventId: event_id, providerRef: provider_ref, outcome: 'failed', reason: reason ?? 'declined (sandbox)' };
  }

  /** Starts delivering confirmations (the sandbox's side of the world). */
  start() {
    if (this.running) return;
    this.running = true;
    this.loopDone = this.loop();
  }

  async stop(): Promise<void> {
    this.running = false;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.abort.abort();
    this.wakeUp?.();
    await this.loopDone;
  }

  private wakeIn(ms: number) {
    if (!this.running) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.wakeUp?.();
    }, ms + 5);
    timer.unref();
    this.timers.add(timer);
  }

  private async loop() {
    while (this.running) {
      try {
        if (this.options.callbackBase()) await this.deliverDue();
      } catch (e) {
        this.options.onError?.('sandbox provider: confirmations could not be read', e);
      }
      if (!this.running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, POLL_MS);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
  }

  private async deliverDue() {
    const due = await books.claimDue(this.options.db, { leaseMs: LEASE_MS, limit: 20 });
    await Promise.all(due.map((n) => this.deliver(n)));
  }

  private async deliver(n: books.DueNotification) {
    const base = this.options.callbackBase();
    const body = JSON.stringify({
      event_id: n.event_id,
      provider_ref: n.ref,
      status: n.outcome,
      ...(n.reason !== null && { reason: n.reason }),
    });
    let ok = false;
    let retry = true;
    try {
      const t = Math.floor(Date.now() / 1000);
      const res = await fetch(base + SANDBOX_WEBHOOK_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: sandboxSignature(this.options.key, t, body) },
        body,
        redirect: 'manual',
        signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]),
      });
      await res.arrayBuffer();
      ok = res.ok;
      // A 4xx other than 429 will not get better by retrying (a bad signature, an unknown attempt).
      retry = res.status >= 500 || res.status === 429;
      if (!ok) this.options.onError?.(`sandbox notification answered ${res.status}`);
    } catch (e) {
      if (!this.running) return; // the lease runs out and another process (or the next start) delivers it
      this.options.onError?.('sandbox notification failed', e);
    }
    const retryInMs = retry ? (RETRY_DELAYS_MS[n.deliveries] ?? null) : null;
    await books.delivered(this.options.db, n.ref, ok ? { ok: true } : { ok: false, retryInMs });
    if (retryInMs !== null) this.wakeIn(retryInMs);
  }
}
