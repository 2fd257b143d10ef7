import { type AuditEntry, listAudit } from '../db/audit.ts';
import { type Actor, requireOperator, scope } from '../domain/actor.ts';
import { isUuid } from '../domain/ids.ts';
import type { ServiceDeps } from './deps.ts';

/** The operator's read of the audit log: who did what to a payment or payout, and when. */
export class AuditService {
  constructor(private readonly deps: ServiceDeps) {}

  list(actor: Actor, filter: { paymentId?: string | null; payoutId?: string | null; limit: number }): Promise<AuditEntry[]> {
    requireOperator(actor);
    const id = (v: string | null | undefined) => (v && isUuid(v) ? v.toLowerCase() : v ? '00000000-0000-0000-0000-000000000000' : null);
    return listAudit(this.deps.db, scope(actor), { paymentId: id(filter.paymentId), payoutId: id(filter.payoutId), limit: filter.limit });
  }
}
