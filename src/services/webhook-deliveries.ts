import { eventExists } from '../db/event-log.ts';
import { queueDelivery } from '../db/outbox.ts';
import { attemptsOf, listDeliveries, type StoredAttempt, supersedePending } from '../db/webhook-deliveries.ts';
import { authorize } from '../domain/access.ts';
import { type Actor, merchantFilter, requireOperator, scope } from '../domain/actor.ts';
import { AppError } from '../domain/errors.ts';
import { isUuid } from '../domain/ids.ts';
import type { ServiceDeps } from './deps.ts';

/** One try of a delivery, as the attempt log keeps it. */
export type WebhookAttempt = StoredAttempt;

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
  /** How many of the newest to skip (a later page). */
  offset?: number;
}

/** The webhook delivery log and the operator's redelivery. */
export class WebhookDeliveryService {
  constructor(private readonly deps: ServiceDeps) {}

  /** Deliveries within the actor's scope, newest first, each with its attempts in order. */
  async list(actor: Actor, filter: DeliveryFilter): Promise<WebhookDelivery[]> {
    // An empty merchantId (the operator's) names no merchant: every merchant's deliveries.
    const s = scope(actor, filter.merchantId || null);
    const merchantId = merchantFilter(s);
    const limit = filter.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new AppError('VALIDATION_FAILED', 'limit: must be 1 to 100');
    if ((filter.eventId && !isUuid(filter.eventId)) || (merchantId && !isUuid(merchantId))) return [];
    const deliveries = await listDeliveries(this.deps.db, s, {
      eventId: filter.eventId || null,
      status: filter.status || null,
      limit,
      offset: filter.offset ?? 0,
    });
    const attempts = await attemptsOf(this.deps.db, deliveries.map((d) => d.id));
    return deliveries.map((d) => ({
      ...d,
      nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt : null,
      attemptLog: attempts.get(d.id) ?? [],
    }));
  }

  /**
   * The operator sends an event again, as a new delivery with a fresh set of attempts, to the
   * event's own URL or else the merchant's current one.
   */
  async redeliver(actor: Actor, eventId: string): Promise<WebhookDelivery> {
    if (!isUuid(eventId)) throw new AppError('NOT_FOUND', 'event not found');
    // A merchant (its people in the dashboard) redelivers its own events: those it has deliveries of.
    if (actor.kind === 'merchant') {
      authorize(actor, 'webhooks.manage');
      if ((await this.list(actor, { eventId, limit: 1 })).length === 0) throw new AppError('NOT_FOUND', 'event not found');
    } else requireOperator(actor);
    const deliveryId = await this.deps.db.transaction().execute(async (tx) => {
      if (!(await eventExists(tx, eventId.toLowerCase()))) throw new AppError('NOT_FOUND', 'event not found');
      const id = await queueDelivery(tx, eventId.toLowerCase());
      if (!id) throw new AppError('VALIDATION_FAILED', 'the merchant has no webhook URL to deliver to');
      // The new delivery supersedes any still retrying: the receiver should get the event from
      // one delivery, not from both.
      await supersedePending(tx, eventId.toLowerCase(), id, `superseded by redelivery ${id}`);
      return id;
    });
    const all = await this.list(actor, { eventId, limit: 100 });
    return all.find((d) => d.id === deliveryId)!;
  }
}
