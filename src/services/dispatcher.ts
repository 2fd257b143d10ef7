import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { EventRow } from '../db/types.ts';
import { signatureHeader } from '../domain/webhook-signature.ts';
import type { ServiceDeps } from './deps.ts';
import type { EventBus } from './event-bus.ts';
import type { WebhookSecretService } from './webhook-secrets.ts';
import { postWebhook, type PostResult } from './webhook-http.ts';

/** How many deliveries one dispatcher has in flight at most. */
const CONCURRENCY = 16;
/** The fallback poll, for deliveries whose notification this process did not see. */
const POLL_MS = 1000;
/**
 * A claim lasts twice the attempt's time limit plus this margin (25 s with the default 10 s
 * limit) before another dispatcher may take the delivery over: comfortably longer than a POST
 * and the two short transactions around it, short enough that a crash delays little.
 */
const LEASE_MARGIN_MS = 5_000;

/** The webhook body of CONTRACT §6, identical on every attempt of one event. */
export function webhookBody(event: Pick<EventRow, 'id' | 'type' | 'created_at' | 'data'>): string {
  const data = typeof event.data === 'string' ? JSON.parse(event.data) : event.data;
  return JSON.stringify({ id: event.id, type: event.type, created_at: new Date(event.created_at).toISOString(), api_version: 'v1', data });
}

export interface DispatcherOptions {
  onError?: (error: unknown) => void;
}

/**
 * Delivers queued webhooks at least once. Any number of dispatchers (threads of one process or
 * several processes) share the queue: each claims due deliveries with FOR UPDATE SKIP LOCKED,
 * writes a lease and commits, then POSTs outside any transaction and records the outcome. A
 * dispatcher that dies mid-attempt leaves a lease that expires, and the delivery is taken again.
 */
export class Dispatcher {
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private loopDone: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private unsubscribe: (() => void) | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();

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
    // A committed event anywhere on the database wakes us: its delivery row committed with it.
    this.unsubscribe = this.bus.on(() => this.wake());
    this.loopDone = this.loop();
  }

  /** Stops claiming, then waits for attempts in flight (each bounded by WEBHOOK_TIMEOUT_MS). */
  async stop() {
    if (!this.running) return;
    this.running = false;
    this.unsubscribe?.();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.wake();
    await this.loopDone;
    await Promise.allSettled([...this.inFlight]);
  }

  wake() {
    this.woken = true;
    this.wakeUp?.();
  }

  private async loop() {
    while (this.running) {
      this.woken = false;
      let claimed = 0;
      try {
        claimed = await this.claimAndSend(CONCURRENCY - this.inFlight.size);
      } catch (e) {
        this.options.onError?.(e);
      }
      if (!this.running) break;
      if (claimed > 0 && this.inFlight.size < CONCURRENCY) continue;
      if (!this.woken) await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, POLL_MS);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
  }

  /** Claims up to `limit` due deliveries and starts sending them; returns how many it claimed. */
  async claimAndSend(limit: number): Promise<number> {
    if (limit <= 0) return 0;
    const token = randomUUID();
    const claimed = await this.deps.db.transaction().execute(async (tx) => {
      const due = await tx
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', sql<Date>`now()`)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now()`)]))
        .orderBy('next_attempt_at')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute();
      if (due.length === 0) return [];
      return tx
        .updateTable('webhook_deliveries')
        .set({ locked_until: sql`now() + ${this.leaseMs} * interval '1 millisecond'`, locked_by: token, updated_at: sql`now()` })
        .where('id', 'in', due.map((d) => d.id))
        .returning(['id', 'event_id', 'merchant_id', 'url', 'attempts'])
        .execute();
    });
    for (const delivery of claimed) {
      const work = this.send(delivery, token)
        .catch((e) => this.options.onError?.(e))
        .finally(() => {
          this.inFlight.delete(work);
          this.wake();
        });
      this.inFlight.add(work);
    }
    return claimed.length;
  }

  private async send(d: { id: string; event_id: string; merchant_id: string; url: string; attempts: number }, token: string) {
    const { config, db } = this.deps;
    const event = await db.selectFrom('events').select(['id', 'type', 'created_at', 'data']).where('id', '=', d.event_id).executeTakeFirstOrThrow();
    const body = webhookBody(event);
    const timestamp = Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'webhook-id': event.id,
      'webhook-timestamp': String(timestamp),
      'x-service-event-id': event.id,
    };
    const attemptedAt = new Date();
    let keys: Buffer[];
    try {
      keys = await this.secrets.signingKeys(d.merchant_id);
    } catch {
      // Never send unsigned in place of signed (e.g. SERVICE_SECRET changed and the secrets no
      // longer decrypt): count a failed attempt, so the delivery ends up failed and visible.
      await this.record(d, token, attemptedAt, { ok: false, statusCode: null, durationMs: 0, error: 'the webhook secret could not be read' });
      return;
    }
    const signature = signatureHeader(keys, event.id, timestamp, body);
    if (signature) headers['webhook-signature'] = signature;
    const result = await postWebhook(d.url, headers, body, { timeoutMs: config.webhookTimeoutMs, publicOnly: config.serviceEnv === 'prd' });
    await this.record(d, token, attemptedAt, result);
  }

  private async record(d: { id: string; attempts: number }, token: string, attemptedAt: Date, result: PostResult) {
    const delays = this.deps.config.webhookRetryDelaysMs;
    const attempt = d.attempts + 1;
    const retryIn = result.ok || attempt > delays.length ? undefined : delays[attempt - 1]!;
    await this.deps.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('webhook_attempts')
        .values({
          delivery_id: d.id,
          attempt,
          attempted_at: attemptedAt,
          status_code: result.statusCode,
          duration_ms: result.durationMs,
          error: result.error,
          succeeded: result.ok,
        })
        .execute();
      // Only the holder of the claim moves the delivery on; a dispatcher whose lease ran out
      // still logs what it did, but the delivery now belongs to whoever took it over.
      await tx
        .updateTable('webhook_deliveries')
        .set({
          attempts: attempt,
          status: result.ok ? 'succeeded' : retryIn === undefined ? 'failed' : 'pending',
          next_attempt_at: retryIn === undefined ? sql`next_attempt_at` : sql`now() + ${retryIn} * interval '1 millisecond'`,
          locked_until: null,
          locked_by: null,
          last_status_code: result.statusCode,
          last_error: result.error,
          updated_at: sql`now()`,
          completed_at: retryIn === undefined ? sql`now()` : null,
        })
        .where('id', '=', d.id)
        .where('locked_by', '=', token)
        .execute();
    });
    if (retryIn !== undefined && this.running) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.wake();
      }, retryIn + 5);
      timer.unref();
      this.timers.add(timer);
    }
  }
}
