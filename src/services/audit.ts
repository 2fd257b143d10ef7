import { type AuditEntry, listAudit, recordAudit } from '../db/audit.ts';
import { peopleOf } from '../db/people.ts';
import { languageOf } from '../db/person-security.ts';
import { auditSentence } from '../domain/audit-words.ts';
import { authorize } from '../domain/access.ts';
import { type Actor, actorLabel, requireOperator, scope } from '../domain/actor.ts';
import { isUuid } from '../domain/ids.ts';
import type { ServiceDeps } from './deps.ts';

/** The operator's read of the audit log: who did what to a payment or payout, and when. */
export class AuditService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * The entries, newest first, each with its sentence (people named by their e-mail address, for a
   * merchant's own log) in the reader's language: a dashboard person's own, English for an API key
   * and the operator.
   */
  async list(actor: Actor, filter: { paymentId?: string | null; payoutId?: string | null; limit: number; offset?: number }): Promise<(AuditEntry & { summary: string })[]> {
    // The operator reads it all; a merchant's owners read their merchant's (who did what, CONTRACT §10).
    if (actor.kind === 'merchant') authorize(actor, 'audit.read');
    else requireOperator(actor);
    const id = (v: string | null | undefined) => (v && isUuid(v) ? v.toLowerCase() : v ? '00000000-0000-0000-0000-000000000000' : null);
    const entries = await listAudit(this.deps.db, scope(actor), { paymentId: id(filter.paymentId), payoutId: id(filter.payoutId), limit: filter.limit, offset: filter.offset ?? 0 });
    const names = new Map(actor.kind === 'merchant' ? (await peopleOf(this.deps.db, actor.merchant.id)).map((p) => [p.id, p.email] as const) : []);
    const language = actor.kind === 'merchant' && actor.person ? await languageOf(this.deps.db, actor.person.personId) : 'en';
    return entries.map((e) => ({ ...e, summary: auditSentence(e, names, language) }));
  }

  /**
   * Records a change a person made in the dashboard (by GraphQL mutation name): who, what, and the
   * payout or payment it touched (so the log can say which, and its amount).
   */
  async recordPersonAction(actor: Actor, action: string, detail: Record<string, unknown> = {}, target: { paymentId?: string | null; payoutId?: string | null } = {}): Promise<void> {
    if (actor.kind !== 'merchant' || !actor.person) return;
    await recordAudit(this.deps.db, {
      actor: actorLabel(actor),
      action: `dashboard.${action}`,
      merchantId: actor.merchant.id,
      paymentId: target.paymentId ?? null,
      payoutId: target.payoutId ?? null,
      detail: { ...detail, person_id: actor.person.personId, email: actor.person.email },
    });
  }
}
