import { randomUUID } from 'node:crypto';
import { createTransport } from 'nodemailer';
import type { SmtpSettings } from '../config.ts';
import * as outbox from '../db/customer-emails.ts';
import { confirmationEmail } from '../domain/customer-email.ts';
import { keyringOf, type ServiceDeps } from './deps.ts';

/** Retries of a confirmation the SMTP server did not take (then it is marked failed). */
const RETRY_DELAYS_MS = [5_000, 60_000, 600_000, 3_600_000];
const POLL_MS = 1_000;
/** A claim lasts this long: well past one sending's time limits below. */
const LEASE_MS = 60_000;
const BATCH = 20;

/**
 * Customer confirmations (issue 14, item 5): sends the e-mails the capture's transaction queued
 * (db/customer-emails.ts), one per payment, with nodemailer over `SMTP_URL`.
 *
 * Once per payment, across crashes: the row exists only if the capture committed, senders claim
 * rows with SKIP LOCKED and a lease, and a sent row is never claimed again. What no outbox can
 * close is the moment between the SMTP server's "250 accepted" and our commit of `sent`: a crash
 * exactly then sends it again after the lease, with the same Message-ID, which mail systems use
 * to recognise the repeat.
 */
export class CustomerMailer {
  private running = false;
  private loopDone: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private transport: ReturnType<typeof createTransport> | undefined;
  private onError: (message: string, err?: unknown) => void = () => {};

  constructor(
    private readonly deps: ServiceDeps,
    private readonly smtp: SmtpSettings,
  ) {}

  start(onError?: (message: string, err?: unknown) => void) {
    if (this.running) return;
    if (onError) this.onError = onError;
    this.transport = createTransport({ url: this.smtp.url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
    this.running = true;
    this.loopDone = this.loop();
  }

  /** Lets a sending under way finish for up to `graceMs`, then closes the connection (the lease returns the row). */
  async stop(graceMs = 3_000) {
    if (!this.running) return;
    this.running = false;
    this.wakeUp?.();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.loopDone, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    this.transport?.close();
    await this.loopDone;
  }

  /** New confirmations were queued: send now rather than at the next poll. */
  wake() {
    this.wakeUp?.();
  }

  private async loop() {
    while (this.running) {
      try {
        await this.runOnce();
      } catch (e) {
        this.onError('customer e-mail: a round failed', e);
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

  /** Sends what is due; returns how many it tried. */
  async runOnce(): Promise<number> {
    const token = randomUUID();
    const due = await outbox.claimDue(this.deps.db, { token, leaseMs: LEASE_MS, limit: BATCH });
    for (const [i, email] of due.entries()) {
      if (!this.running) {
        await outbox.releaseClaims(this.deps.db, due.slice(i).map((e) => e.id), token);
        break;
      }
      await this.send(email, token);
    }
    return due.length;
  }

  private async send(email: outbox.ClaimedEmail, token: string) {
    const facts = await outbox.confirmationFacts(this.deps.db, email.payment_id);
    if (!facts?.customer_email || !facts.completed_at) {
      await outbox.recordSending(this.deps.db, { id: email.id, token }, { sent: false, error: 'the payment has no customer e-mail', retryInMs: null });
      return;
    }
    const { subject, text } = confirmationEmail({
      paymentId: facts.id,
      merchantName: facts.merchant_name,
      amountCents: facts.amount_cents,
      merchantOrderId: facts.merchant_order_id,
      intentType: facts.intent_type,
      description: facts.description,
      voucherCode: facts.code_sealed ? keyringOf(this.deps).open('voucher-code', facts.id, facts.code_sealed) : null,
      paidAt: facts.completed_at,
    });
    try {
      await this.transport!.sendMail({
        from: this.smtp.from,
        to: facts.customer_email,
        subject,
        text,
        messageId: `<payment-${facts.id}@${new URL(this.deps.config.publicBaseUrl).hostname}>`,
      });
      await outbox.recordSending(this.deps.db, { id: email.id, token }, { sent: true });
    } catch (e) {
      const code = (e as { responseCode?: number }).responseCode;
      // 5xx: the server refused this message for good (a bad address); anything else may pass later.
      const permanent = typeof code === 'number' && code >= 500;
      const retryInMs = permanent ? null : (RETRY_DELAYS_MS[email.attempts] ?? null);
      const error = `${code ?? ''} ${(e as Error).message}`.trim();
      await outbox.recordSending(this.deps.db, { id: email.id, token }, { sent: false, error, retryInMs });
      this.onError(`customer e-mail for payment ${facts.id} not sent${retryInMs === null ? ', giving up' : ''}`, e);
    }
  }
}

/** The SMTP address without its credentials, for the start-up log. */
export function smtpTarget(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.hostname}${u.port ? `:${u.port}` : ''}`;
}
