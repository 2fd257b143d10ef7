import { eventsOfPayouts } from '../db/event-log.ts';
import { type Actor, scope } from '../domain/actor.ts';
import type { RecordedEvent } from '../domain/events.ts';
import { isUuid } from '../domain/ids.ts';
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
    const byPayout = await eventsOfPayouts(this.deps.db, scope(actor), [...new Set(payoutIds.filter(isUuid))]);
    return payoutIds.map((id) => byPayout.get(id) ?? []);
  }
}
