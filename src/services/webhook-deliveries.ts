import { sql } from 'kysely';
import { dropJobs } from '../db/jobs.ts';
import { queueDelivery } from '../db/outbox.ts';
import { QUEUE } from '../domain/jobs.ts';
import { type Actor, merchantFilter, requireOperator, scope } from '../domain/actor.ts';
import { AppError } from '../domain/errors.ts';
import { isUuid } from '../domain/ids.ts';
import type { ServiceDeps } from './deps.ts';

export interface WebhookAttempt {
  attempt: number;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  succeeded: boolean;
}

export interface WebhookDelivery {
  id: string;
  eventId: string;
  eventType: string;
  merchantId: string;
  url: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: Date;
  completedAt: Date | null;
  attemptLog: WebhookAttempt[];
}

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export interface DeliveryFilter {
  eventId?: string | null;
  status?: WebhookDelivery['status'] | null;
  /** The merchant asked for: a merchant may name only itself; the operator any, or none for all. */
  merchantId?: string | null;
  limit?: number | null;
}

/** The webhook delivery log and the operator's redelivery. */
export class WebhookDeliveryService {
  constructor(private readonly deps: ServiceDeps) {}

  /** Deliveries within the actor's scope, newest first, each with its attempts in order. */
  async list(actor: Actor, filter: DeliveryFilter): Promise<WebhookDelivery[]> {
    const merchantId = merchantFilter(scope(actor, filter.merchantId));
    const limit = filter.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new AppError('VALIDATION_FAILED', 'limit: must be 1 to 100');
    if ((filter.eventId && !isUuid(filter.eventId)) || (merchantId && !isUuid(merchantId))) return [];
    let q = this.deps.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('events as e', 'e.id', 'd.event_id')
      .select(['d.id', 'd.event_id', 'e.type', 'd.merchant_id', 'd.url', 'd.status', 'd.attempts', 'd.next_attempt_at', 'd.last_status_code', 'd.last_error', 'd.created_at', 'd.completed_at'])
      .orderBy('d.created_at', 'desc')
      .orderBy('d.id')
      .limit(limit);
    if (filter.eventId) q = q.where('d.event_id', '=', filter.eventId);
    if (merchantId) q = q.where('d.merchant_id', '=', merchantId);
    if (filter.status) q = q.where('d.status', '=', filter.status);
    const rows = await q.execute();
    const attempts = rows.length
      ? await this.deps.db.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', rows.map((r) => r.id)).orderBy('id').execute()
      : [];
    return rows.map((r) => ({
      id: r.id,
      eventId: r.event_id,
      eventType: r.type,
      merchantId: r.merchant_id,
      url: r.url,
      status: r.status,
      attempts: r.attempts,
      nextAttemptAt: r.status === 'pending' ? r.next_attempt_at : null,
      lastStatusCode: r.last_status_code,
      lastError: r.last_error,
      createdAt: r.created_at,
      completedAt: r.completed_at,
      attemptLog: attempts
        .filter((a) => a.delivery_id === r.id)
        .map((a) => ({
          attempt: a.attempt,
          attemptedAt: a.attempted_at,
          statusCode: a.status_code,
          durationMs: a.duration_ms,
          error: a.error,
          succeeded: a.succeeded,
        })),
    }));
  }

  /**
   * The operator sends an event again, as a new delivery with a fresh set of attempts, to the
   * event's own URL or else the merchant's current one.
   */
  async redeliver(actor: Actor, eventId: string): Promise<WebhookDelivery> {
    requireOperator(actor);
    if (!isUuid(eventId)) throw new AppError('NOT_FOUND', 'event not found');
    const deliveryId = await this.deps.db.transaction().execute(async (tx) => {
      const event = await tx.selectFrom('events').select('id').where('id', '=', eventId.toLowerCase()).executeTakeFirst();
      if (!event) throw new AppError('NOT_FOUND', 'event not found');
      const id = await queueDelivery(tx, event.id);
      if (!id) throw new AppError('VALIDATION_FAILED', 'the merchant has no webhook URL to deliver to');
      // The new delivery supersedes any still retrying: the receiver should get the event from
      // one delivery, not from both. Their jobs go; an attempt under way still logs what it did,
      // but no longer moves a delivery that has ended.
      const superseded = await tx
        .updateTable('webhook_deliveries')
        .set({ status: 'failed', last_error: `superseded by redelivery ${id}`, completed_at: sql`now()`, updated_at: sql`now()` })
        .where('event_id', '=', event.id)
        .where('status', '=', 'pending')
        .where('id', '!=', id)
        .returning('id')
        .execute();
      await dropJobs(tx, QUEUE.webhook, superseded.map((d) => d.id));
      return id;
    });
    const all = await this.list(actor, { eventId, limit: 100 });
    return all.find((d) => d.id === deliveryId)!;
  }
}
