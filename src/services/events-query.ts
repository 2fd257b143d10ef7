import type { ServiceDeps } from './deps.ts';
import { isUuid } from './merchants.ts';

/** An outbox event as a payout's history shows it: what was sent, and when. */
export interface EventRecord {
  id: string;
  /** `payout.created`, `payout.approved`, … (CONTRACT §8: a string, as in the webhook body). */
  type: string;
  payoutId: string | null;
  merchantId: string;
  /** The webhook body's `data`: the resource in its public JSON shape at that moment. */
  data: Record<string, unknown>;
  createdAt: Date;
}

/** Reads of the event outbox for dashboards; nothing here writes or delivers events. */
export class EventHistoryService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * The events of each payout, oldest first, in the order of `payoutIds` (a DataLoader batch:
   * one statement for any number of payouts). With `merchantId`, another merchant's events are
   * never returned, whatever ids are asked for.
   */
  async forPayouts(payoutIds: readonly string[], merchantId?: string): Promise<EventRecord[][]> {
    const valid = [...new Set(payoutIds.filter(isUuid))];
    const byPayout = new Map<string, EventRecord[]>();
    if (valid.length > 0) {
      let q = this.deps.db
        .selectFrom('events')
        .select(['id', 'type', 'payout_id', 'merchant_id', 'data', 'created_at'])
        .where('payout_id', 'in', valid);
      if (merchantId !== undefined) q = q.where('merchant_id', '=', merchantId);
      for (const row of await q.orderBy('seq').execute()) {
        const record: EventRecord = {
          id: row.id,
          type: row.type,
          payoutId: row.payout_id,
          merchantId: row.merchant_id,
          data: row.data,
          createdAt: row.created_at,
        };
        const list = byPayout.get(row.payout_id!) ?? [];
        list.push(record);
        byPayout.set(row.payout_id!, list);
      }
    }
    return payoutIds.map((id) => byPayout.get(id) ?? []);
  }
}
