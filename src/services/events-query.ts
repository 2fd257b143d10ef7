import { type Actor, merchantFilter, scope } from '../domain/actor.ts';
import type { RecordedEvent } from '../domain/events.ts';
import { isUuid } from '../domain/ids.ts';
import { toRecordedEvent } from '../db/outbox.ts';
import type { ServiceDeps } from './deps.ts';

/** Reads of the event outbox for dashboards; nothing here writes or delivers events. */
export class EventHistoryService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * The events of each payout, oldest first, in the order of `payoutIds` (a DataLoader batch: one
   * statement for any number of payouts). Events outside the actor's scope are never returned,
   * whatever ids are asked for.
   */
  async forPayouts(actor: Actor, payoutIds: readonly string[]): Promise<RecordedEvent[][]> {
    const merchantId = merchantFilter(scope(actor));
    const valid = [...new Set(payoutIds.filter(isUuid))];
    const byPayout = new Map<string, RecordedEvent[]>();
    if (valid.length > 0) {
      let q = this.deps.db
        .selectFrom('events')
        .select(['id', 'merchant_id', 'type', 'payout_id', 'payment_id', 'data', 'created_at'])
        .where('payout_id', 'in', valid);
      if (merchantId !== null) q = q.where('merchant_id', '=', merchantId);
      for (const row of await q.orderBy('seq').execute()) {
        const list = byPayout.get(row.payout_id!) ?? [];
        list.push(toRecordedEvent(row));
        byPayout.set(row.payout_id!, list);
      }
    }
    return payoutIds.map((id) => byPayout.get(id) ?? []);
  }
}
