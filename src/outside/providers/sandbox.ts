import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import * as books from '../../db/sandbox.ts';
import { AppError } from '../../domain/errors.ts';
import { hmacHex, hmacMatches } from '../../domain/signing.ts';
import { QUEUE } from '../../domain/jobs.ts';
import { GiveUp, type Task } from '../../jobs/task.ts';
import {
  type AttemptState,
  type NotificationHeaders,
  type PaymentProvider,
  type ProviderNotification,
  type ProviderSimulator,
  ProviderRefusedError,
  type RefundState,
  type StartAttempt,
  type StartedAttempt,
} from './port.ts';

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
export const SANDBOX_WEBHOOK_PATH = '/providers/sandbox/webhook';
/** Notifications older or newer than this are refused, so a captured request cannot be replayed later. */
const MAX_SKEW_SECONDS = 300;
/** Deliveries of one confirmation: then the sandbox stops, and the reconciler asks queryAttempt. */
const RETRY_DELAYS_MS = [1_000, 5_000, 30_000];
const DELIVERY_TIMEOUT_MS = 10_000;

const notificationSchema = z.strictObject({
  event_id: z.uuid(),
  provider_ref: z.string().min(1).max(100),
  status: z.enum(['succeeded', 'failed']),
  reason: z.string().max(500).optional(),
  /** Present when the notification is about a refund of the checkout. */
  refund_ref: z.string().min(1).max(100).optional(),
  amount_cents: z.number().int().optional(),
});

export interface SandboxOptions {
  db: Db;
  /** HMAC key shared by the "provider" and zarpay (derived from SERVICE_SECRET). */
  key: Buffer;
  delayMs: number;
  /** Where zarpay listens: this process's HTTP server when it has one, else PUBLIC_BASE_URL. */
  callbackBase: () => string;
  /** This process's runner hears of a confirmation that falls due. */
  dueIn: (ms: number) => void;
}

/**
 * `sign(t, body)`: the `X-Sandbox-Signature` value, `t={unix seconds},v1={hex HMAC-SHA256 of
 * "{t}.{raw body}"}`, the scheme of Stripe-style provider webhooks.
 */
export function sandboxSignature(key: Buffer, t: number, body: string): string {
  return `t=${t},v1=${hmacHex(key, `${t}.${body}`)}`;
}

/**
 * A provider for `tst` and `dev` (never registered in `prd`): it approves every attempt after
 * `delayMs` (or declines it, when its simulator was asked to: the hosted page's "Simulate a
 * decline"), without sending the customer anywhere. Like a real provider it keeps books of its
 * own (`sandbox.checkouts`, written when an attempt starts), tells zarpay by a signed notification
 * POSTed to `/providers/sandbox/webhook`, retries that a few times, and answers the status API
 * (`queryAttempt`) from its books, so a restart, a lost notification or a crash loses nothing:
 * whatever it did not deliver, the reconciler asks about.
 *
 * Its side of the world runs as zarpay's other background work does: each confirmation is a job
 * of `sandbox.confirm` (`task`), queued with the checkout.
 */
export class SandboxProvider implements PaymentProvider, ProviderSimulator {
  readonly name = 'sandbox';

  constructor(private readonly options: SandboxOptions) {}

  startAttempt(attempt: StartAttempt): Promise<StartedAttempt> {
    return this.take(attempt, 'succeeded');
  }

  /** The customer's card is declined: the attempt fails after the same delay. */
  startDeclinedAttempt(attempt: StartAttempt): Promise<StartedAttempt> {
    return this.take(attempt, 'failed');
  }

  private async take(attempt: StartAttempt, outcome: 'succeeded' | 'failed'): Promise<StartedAttempt> {
    const providerRef = await books.takeAttempt(this.options.db, {
      ref: `sbx_${randomBytes(12).toString('hex')}`,
      attemptId: attempt.attemptId,
      outcome,
      reason: outcome === 'failed' ? 'declined by the issuing bank (sandbox)' : null,
      delayMs: this.options.delayMs,
      eventId: randomUUID(),
    });
    this.options.dueIn(this.options.delayMs);
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

  /**
   * Takes a refund of a succeeded checkout (the same key twice is the same refund); it succeeds
   * after the confirmation delay, told by a notification like a checkout's outcome, and
   * `queryRefund` answers from the books meanwhile.
   */
  async refund(providerRef: string, amountCents: number, idempotencyKey: string): Promise<{ refundRef: string }> {
    const ref = await books.takeRefund(this.options.db, {
      ref: `sbx_rf_${randomBytes(8).toString('hex')}`,
      key: idempotencyKey,
      checkoutRef: providerRef,
      amount: amountCents,
      delayMs: this.options.delayMs,
      eventId: randomUUID(),
    });
    if (!ref) throw new ProviderRefusedError(this.name, 400, 'not_refundable', `sandbox checkout ${providerRef} has nothing to refund`);
    this.options.dueIn(this.options.delayMs);
    return { refundRef: ref };
  }

  async queryRefund(_providerRef: string, refundRef: string): Promise<RefundState> {
    const refund = await books.findRefund(this.options.db, refundRef);
    if (!refund) return { status: 'failed', reason: 'the sandbox has no such refund' };
    return refund.confirmed ? { status: 'succeeded' } : { status: 'pending' };
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
    const { event_id, provider_ref, status, reason, refund_ref, amount_cents } = parsed.data;
    if (refund_ref !== undefined) {
      return {
        about: 'refund',
        eventId: event_id,
        providerRef: provider_ref,
        refundRef: refund_ref,
        outcome: status,
        ...(amount_cents !== undefined && { amountCents: amount_cents }),
        ...(status === 'failed' && { reason: reason ?? 'refund failed (sandbox)' }),
      };
    }
    return status === 'succeeded'
      ? { eventId: event_id, providerRef: provider_ref, outcome: 'succeeded', paymentRef: provider_ref }
      : { eventId: event_id, providerRef: provider_ref, outcome: 'failed', reason: reason ?? 'declined (sandbox)' };
  }

  /** The body of a confirmation: how a checkout, or a refund, went; undefined when the books know neither. */
  private async confirmation(payload: { ref?: string; refund?: string }): Promise<string | undefined> {
    if (payload.refund !== undefined) {
      const refund = await books.findRefund(this.options.db, payload.refund);
      if (!refund) return undefined;
      return JSON.stringify({ event_id: refund.eventId, provider_ref: refund.checkoutRef, status: 'succeeded', refund_ref: refund.ref, amount_cents: refund.amountCents });
    }
    const checkout = payload.ref === undefined ? undefined : await books.findCheckout(this.options.db, payload.ref);
    if (!checkout) return undefined;
    return JSON.stringify({
      event_id: checkout.eventId,
      provider_ref: checkout.ref,
      status: checkout.outcome,
      ...(checkout.reason !== null && { reason: checkout.reason }),
    });
  }

  /** The sandbox's side of the world: a job of `sandbox.confirm` tells zarpay how one checkout, or one refund, went. */
  get task(): Task<{ ref?: string; refund?: string }> {
    return {
      queue: QUEUE.sandboxConfirm,
      concurrency: 20,
      leaseMs: 2 * DELIVERY_TIMEOUT_MS,
      retryDelaysMs: RETRY_DELAYS_MS,
      run: async (job) => {
        const body = await this.confirmation(job.payload);
        if (body === undefined) return;
        const t = Math.floor(Date.now() / 1000);
        const res = await fetch(this.options.callbackBase() + SANDBOX_WEBHOOK_PATH, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: sandboxSignature(this.options.key, t, body) },
          body,
          redirect: 'manual',
          signal: AbortSignal.any([job.signal, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]),
        });
        if (res.ok) {
          // zarpay answers which payment the notification was about. None: it does not know the
          // checkout yet (the notification came before zarpay recorded the attempt's reference,
          // on a busy machine), so, like a provider whose notification was not taken, send it again.
          const answer = (await res.json().catch(() => null)) as { data?: { payment_id?: string | null } } | null;
          if (answer?.data?.payment_id) return;
          throw new Error('zarpay did not know the sandbox checkout yet; its notification is sent again');
        }
        await res.arrayBuffer();
        // A 4xx other than 429 will not get better by retrying (a bad signature, an unknown attempt).
        if (res.status < 500 && res.status !== 429) throw new GiveUp(`sandbox notification answered ${res.status}`);
        throw new Error(`sandbox notification answered ${res.status}`);
      },
    };
  }
}
