import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { type ClaimedDelivery, claimDeliveries } from '../db/webhook-claims.ts';
import type { Actor } from '../domain/actor.ts';
import { type EventType, webhookBody } from '../domain/events.ts';
import { signatureHeader } from '../domain/webhook-signature.ts';
import type { ServiceDeps } from './deps.ts';
import type { EventBus } from './event-bus.ts';
import type { WebhookSecretService } from './webhook-secrets.ts';
import { postWebhook, type PostResult } from './webhook-http.ts';

/** The dispatcher delivers every merchant's events: it acts as zarpay itself. */
const DELIVERY: Actor = Object.freeze({ kind: 'system', task: 'webhook delivery' });

/** How many deliveries one dispatcher has in flight at most. */
const CONCURRENCY = 64;
/**
 * How many of them one merchant may have: a receiver that hangs (or a merchant with a huge
 * backlog) takes at most a quarter of the dispatcher, and every other merchant's deliveries go
 * out at once beside it. Three merchants hanging together still leave a quarter to the rest.
 */
export const PER_MERCHANT_IN_FLIGHT = 16;
/** The fallback poll, for deliveries no event announced (retries, redeliveries, another process's). */
const POLL_MS = 1000;
/** After a claim that found nothing due, the next waits at least this long, however many events arrive. */
const EMPTY_CLAIM_SPACING_MS = 50;
/**
 * After a claim that took what was due and left slots free, the next waits this long, so the
 * slots freed and the events committed meanwhile are claimed together: a merchant at its share
 * frees its slots one by one, and a claim for each would cost a statement per delivery.
 */
const CLAIM_SPACING_MS = 5;
/** Outcomes are written together: at most this many per statement, at most this long after the answer. */
const RECORD_BATCH = 200;
const RECORD_WITHIN_MS = 5;
/** After a failed write of outcomes, the next try. */
const OUTCOME_RETRY_MS = 1_000;
/**
 * A claim lasts twice the attempt's time limit plus this margin (25 s with the default 10 s
 * limit) before another dispatcher may take the delivery over: comfortably longer than a POST
 * and the writes around it, short enough that a crash delays little.
 */
const LEASE_MARGIN_MS = 5_000;

type WakeReason = 'event' | 'free slot' | 'stop';

export interface DispatcherOptions {
  onError?: (error: unknown) => void;
}

/** A claimed delivery with the claim's token: only its holder writes the outcome. */
interface Claimed extends ClaimedDelivery {
  token: string;
}

/** One attempt's outcome, waiting to be written. */
interface Outcome {
  delivery: Claimed;
  attemptedAt: Date;
  result: PostResult;
}

/**
 * Delivers queued webhooks at least once. Any number of dispatchers (in the service's
 * processes, or `zarpay dispatcher`) share the queue: each claims due deliveries with one
 * statement (FOR UPDATE SKIP LOCKED, a lease written and committed at once, the events read
 * with them, no merchant beyond its share of this dispatcher), POSTs outside any transaction,
 * and writes the outcomes of many attempts in one statement. A dispatcher that dies mid-attempt leaves a lease that expires, and the delivery is
 * taken again; an outcome is only written by the holder of the claim.
 */
export class Dispatcher {
  private readonly inFlight = new Set<Promise<void>>();
  /** Deliveries in flight here, by merchant: each claim gives a merchant its share less these. */
  private readonly inFlightByMerchant = new Map<string, number>();
  private running = false;
  private loopDone: Promise<void> | undefined;
  private wakeUp: ((why: WakeReason) => void) | undefined;
  private woken = false;
  private unsubscribe: (() => void) | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private outcomes: Outcome[] = [];
  private recordTimer: NodeJS.Timeout | undefined;
  private recording: Promise<void> = Promise.resolve();
  /** Aborts the POSTs still under way when stop()'s grace runs out. */
  private abort = new AbortController();
  /** Claims given up on at shutdown: released for another dispatcher, no attempt counted. */
  private interrupted: Claimed[] = [];

  constructor(
    private readonly deps: ServiceDeps,
    private readonly secrets: WebhookSecretService,
    private readonly bus: EventBus,
    private readonly options: DispatcherOptions = {},
  ) {}

  get leaseMs() {
    return 2 * this.deps.config.webhookTimeoutMs + LEASE_MARGIN_MS;
  }

  /** Starts the claim loop; `onError` hears about failures the loop survives (database down). */
  start(onError?: (error: unknown) => void) {
    if (this.running) return;
    if (onError) this.options.onError = onError;
    this.running = true;
    this.abort = new AbortController();
    // Events committed anywhere on the database wake us: their delivery rows committed with them.
    this.unsubscribe = this.bus.onCommit(() => this.wake());
    this.loopDone = this.loop();
  }

  /**
   * Stops claiming, lets the attempts in flight finish for up to `graceMs`, then aborts the rest
   * and releases their claims (no attempt is counted: another dispatcher, or this one after a
   * restart, delivers them at once), and writes every outcome.
   */
  async stop(graceMs = Number.POSITIVE_INFINITY) {
    if (!this.running) return;
    this.running = false;
    this.unsubscribe?.();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.wakeUp?.('stop');
    await this.loopDone;
    const settled = Promise.allSettled([...this.inFlight]);
    let timer: NodeJS.Timeout | undefined;
    const graceOver = Number.isFinite(graceMs) ? new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs))) : new Promise<void>(() => {});
    await Promise.race([settled, graceOver.then(() => this.abort.abort())]);
    await settled;
    clearTimeout(timer);
    await this.flushOutcomes();
    await this.releaseInterrupted();
  }

  private async releaseInterrupted() {
    const claims = this.interrupted.splice(0);
    if (claims.length === 0) return;
    await sql`update webhook_deliveries set locked_until = null, locked_by = null, updated_at = now()
               where id = any(${claims.map((c) => c.id)}::uuid[]) and locked_by = any(${claims.map((c) => c.token)}::uuid[])`
      .execute(this.deps.db)
      .catch((e) => this.options.onError?.(e));
  }

  /** Something may have become due (an event committed, a retry's time came). */
  wake() {
    this.woken = true;
    this.wakeUp?.('event');
  }

  /** A delivery finished: its slot, and its merchant's share, are free again. */
  private slotFreed() {
    this.woken = true;
    this.wakeUp?.('free slot');
  }

  private async loop() {
    while (this.running) {
      this.woken = false;
      let claimed = 0;
      const free = CONCURRENCY - this.inFlight.size;
      if (free > 0) {
        try {
          claimed = await this.claimAndSend(free);
        } catch (e) {
          this.options.onError?.(e);
        }
      }
      if (!this.running) break;
      // A claim takes everything due that fits (each merchant up to its share): the next one is
      // worth making once something changed, which wakes us (or the poll, for what nothing announces).
      // After an empty claim, events wait out a spacing, however many arrive; a freed slot does not.
      // After a claim that left slots free, what frees them next is gathered for a moment.
      if (free > 0 && claimed === 0) await this.sleep(EMPTY_CLAIM_SPACING_MS, ['free slot']);
      else if (claimed > 0 && claimed < free) await this.sleep(CLAIM_SPACING_MS, []);
      if (!this.woken) await this.sleep(POLL_MS, ['event', 'free slot']);
      this.wakeUp = undefined;
    }
  }

  /** Sleeps `ms`, or less if woken for one of `wakeOn` (stopping always wakes). */
  private sleep(ms: number, wakeOn: readonly WakeReason[]) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakeUp = (why) => {
        if (why !== 'stop' && !wakeOn.includes(why)) return;
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Claims up to `limit` due deliveries and starts sending them; returns how many it claimed. */
  async claimAndSend(limit: number): Promise<number> {
    if (limit <= 0) return 0;
    const token = randomUUID();
    const claimed = await this.claim(token, limit);
    if (claimed.length === 0) return 0;
    let keys: Map<string, Buffer[] | Error>;
    try {
      keys = await this.secrets.signingKeys(DELIVERY, [...new Set(claimed.map((d) => d.merchant_id))]);
    } catch (e) {
      // The secrets could not be read at all (database trouble): the leases expire and another try follows.
      this.options.onError?.(e);
      return claimed.length;
    }
    for (const delivery of claimed) {
      const merchant = delivery.merchant_id;
      this.inFlightByMerchant.set(merchant, (this.inFlightByMerchant.get(merchant) ?? 0) + 1);
      const work = this.send({ ...delivery, token }, keys.get(merchant) ?? [])
        .catch((e) => this.options.onError?.(e))
        .finally(() => {
          this.inFlight.delete(work);
          const left = this.inFlightByMerchant.get(merchant)! - 1;
          if (left > 0) this.inFlightByMerchant.set(merchant, left);
          else this.inFlightByMerchant.delete(merchant);
          this.slotFreed();
        });
      this.inFlight.add(work);
    }
    return claimed.length;
  }

  /** One statement: the due deliveries nobody holds, a fair share per merchant, leased to us, with their events. */
  private claim(token: string, limit: number): Promise<ClaimedDelivery[]> {
    return claimDeliveries(this.deps.db, { token, leaseMs: this.leaseMs, limit, perMerchant: PER_MERCHANT_IN_FLIGHT, busy: this.inFlightByMerchant });
  }

  private async send(d: Claimed, keys: Buffer[] | Error) {
    const { config } = this.deps;
    const attemptedAt = new Date();
    if (keys instanceof Error) {
      // Never send unsigned in place of signed (e.g. SERVICE_SECRET changed and the secrets no
      // longer decrypt): count a failed attempt, so the delivery ends up failed and visible.
      this.record({ delivery: d, attemptedAt, result: { ok: false, statusCode: null, durationMs: 0, error: 'the webhook secret could not be read' } });
      return;
    }
    const data = (typeof d.data === 'string' ? JSON.parse(d.data) : d.data) as Record<string, unknown>;
    const body = webhookBody({ id: d.event_id, type: d.type as EventType, createdAt: new Date(d.created_at), data });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'webhook-id': d.event_id,
      'webhook-timestamp': String(timestamp),
      'x-service-event-id': d.event_id,
    };
    const signature = signatureHeader(keys, d.event_id, timestamp, body);
    if (signature) headers['webhook-signature'] = signature;
    const result = await postWebhook(d.url, headers, body, {
      timeoutMs: config.webhookTimeoutMs,
      publicOnly: config.serviceEnv === 'prd',
      signal: this.abort.signal,
    });
    if (result === 'aborted') this.interrupted.push(d);
    else this.record({ delivery: d, attemptedAt, result });
  }

  /** Queues an outcome; the queue is written soon, in one statement with its neighbours. */
  private record(outcome: Outcome) {
    this.outcomes.push(outcome);
    if (this.outcomes.length >= RECORD_BATCH) void this.flushOutcomes();
    else this.recordTimer ??= setTimeout(() => void this.flushOutcomes(), RECORD_WITHIN_MS);
  }

  /** Writes every queued outcome (one statement per batch), one batch at a time. */
  private flushOutcomes(): Promise<void> {
    clearTimeout(this.recordTimer);
    this.recordTimer = undefined;
    const batch = this.outcomes.splice(0);
    if (batch.length === 0) return this.recording;
    this.recording = this.recording.then(() => this.writeOutcomes(batch)).catch((e) => this.outcomesNotWritten(batch, e));
    return this.recording;
  }

  /**
   * The statement failed as a whole (the database went away for a moment): nothing of the batch
   * was written. Each outcome is tried again while its claim's lease still holds the delivery
   * for us; dropped, a delivered webhook would be sent again once the lease ran out. Past the
   * lease another dispatcher may have taken the delivery over, and at-least-once delivery does
   * the rest.
   */
  private outcomesNotWritten(batch: Outcome[], e: unknown) {
    this.options.onError?.(e);
    if (!this.running) return;
    const now = Date.now();
    const kept = batch.filter((o) => o.attemptedAt.getTime() + this.leaseMs > now + OUTCOME_RETRY_MS);
    if (kept.length === 0) return;
    this.outcomes.unshift(...kept);
    clearTimeout(this.recordTimer);
    this.recordTimer = setTimeout(() => void this.flushOutcomes(), OUTCOME_RETRY_MS);
  }

  private async writeOutcomes(batch: Outcome[]) {
    const delays = this.deps.config.webhookRetryDelaysMs;
    const rows = batch.map(({ delivery, attemptedAt, result }) => {
      const attempt = delivery.attempts + 1;
      const retryIn = result.ok || attempt > delays.length ? null : delays[attempt - 1]!;
      return { id: delivery.id, token: delivery.token, attempt, attemptedAt, result, retryIn, status: result.ok ? 'succeeded' : retryIn === null ? 'failed' : 'pending' };
    });
    const col = <T>(f: (r: (typeof rows)[number]) => T) => rows.map(f);
    // Every attempt is logged; only the holder of the claim moves the delivery on (a dispatcher
    // whose lease ran out still logs what it did, but the delivery now belongs to whoever took it).
    await sql`
      with outcome as (
        select * from unnest(
          ${col((r) => r.id)}::uuid[], ${col((r) => r.token)}::uuid[], ${col((r) => r.attempt)}::int[],
          ${col((r) => r.attemptedAt.toISOString())}::timestamptz[], ${col((r) => r.result.statusCode)}::int[],
          ${col((r) => r.result.durationMs)}::int[], ${col((r) => r.result.error)}::text[], ${col((r) => r.result.ok)}::boolean[],
          ${col((r) => r.status)}::text[], ${col((r) => r.retryIn)}::bigint[]
        ) as o(delivery_id, token, attempt, attempted_at, status_code, duration_ms, error, succeeded, status, retry_ms)
      ), logged as (
        insert into webhook_attempts (delivery_id, attempt, attempted_at, status_code, duration_ms, error, succeeded)
        select delivery_id, attempt, attempted_at, status_code, duration_ms, error, succeeded from outcome
      )
      update webhook_deliveries d set
        attempts = o.attempt,
        status = o.status,
        next_attempt_at = case when o.retry_ms is null then d.next_attempt_at else now() + o.retry_ms * interval '1 millisecond' end,
        locked_until = null,
        locked_by = null,
        last_status_code = o.status_code,
        last_error = o.error,
        updated_at = now(),
        completed_at = case when o.retry_ms is null then now() else null end
      from outcome o
      where d.id = o.delivery_id and d.locked_by = o.token`.execute(this.deps.db);
    for (const r of rows) if (r.retryIn !== null) this.wakeIn(r.retryIn);
  }

  /** Wakes the loop when a retry falls due. */
  private wakeIn(ms: number) {
    if (!this.running) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.wake();
    }, ms + 5);
    timer.unref();
    this.timers.add(timer);
  }
}
