import type { DbOrTx } from './index.ts';
import { statement } from './statement.ts';

/**
 * The sandbox provider's own books (services/providers/sandbox.ts): what a real provider keeps on
 * its side, kept here so that its confirmations outlive a restart of the process that took them.
 */

export interface SandboxCheckout {
  ref: string;
  outcome: 'succeeded' | 'failed';
  reason: string | null;
  /** Before this moment the sandbox is still "processing": it answers pending. */
  confirmed: boolean;
  refunded: boolean;
}

const insertStatement = statement<
  { ref: string; attemptId: string; outcome: string; reason: string | null; delayMs: number; eventId: string },
  { ref: string }
>(
  'sandbox: take an attempt',
  `
  with taken as (
    insert into sandbox_checkouts (ref, attempt_id, outcome, reason, confirm_at, event_id, next_delivery_at)
    values (:ref::text, :attemptId::uuid, :outcome::text, :reason::text,
            now() + :delayMs::bigint * interval '1 millisecond', :eventId::uuid, now() + :delayMs::bigint * interval '1 millisecond')
    on conflict (attempt_id) do nothing
    returning ref
  )
  -- The same attempt twice (a retried start) is the same checkout, as with a real provider.
  select ref from taken union all select ref from sandbox_checkouts where attempt_id = :attemptId::uuid`,
);

/** Records an attempt the sandbox was given; a retry with the same attempt id returns the first one's reference. */
export async function takeAttempt(
  db: DbOrTx,
  a: { ref: string; attemptId: string; outcome: 'succeeded' | 'failed'; reason: string | null; delayMs: number; eventId: string },
): Promise<string> {
  const [row] = await insertStatement.run(db, a);
  return row!.ref;
}

export async function findCheckout(db: DbOrTx, ref: string): Promise<SandboxCheckout | undefined> {
  const row = await db
    .selectFrom('sandbox_checkouts')
    .select((eb) => ['ref', 'outcome', 'reason', eb(eb.ref('confirm_at'), '<=', eb.fn<Date>('now')).as('confirmed'), 'refunded_at'])
    .where('ref', '=', ref)
    .executeTakeFirst();
  return row && { ref: row.ref, outcome: row.outcome, reason: row.reason, confirmed: row.confirmed === true, refunded: row.refunded_at !== null };
}

/** Marks a succeeded checkout refunded; false when there is no such checkout to refund. */
export async function refundCheckout(db: DbOrTx, ref: string): Promise<boolean> {
  const updated = await db
    .updateTable('sandbox_checkouts')
    .set({ refunded_at: new Date() })
    .where('ref', '=', ref)
    .where('outcome', '=', 'succeeded')
    .where('refunded_at', 'is', null)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

export interface DueNotification {
  ref: string;
  event_id: string;
  outcome: 'succeeded' | 'failed';
  reason: string | null;
  deliveries: number;
}

const claimStatement = statement<{ leaseMs: number; limit: number }, DueNotification>(
  'sandbox: claim confirmations due',
  `
  with due as (
    select ref from sandbox_checkouts
     where notified_at is null and next_delivery_at <= now() and (locked_until is null or locked_until < now())
     order by next_delivery_at
     limit :limit::int
     for update skip locked
  )
  update sandbox_checkouts c set locked_until = now() + :leaseMs::bigint * interval '1 millisecond'
    from due where c.ref = due.ref
  returning c.ref, c.event_id, c.outcome, c.reason, c.deliveries`,
);

/** Takes confirmations whose time has come (several processes share them). */
export function claimDue(db: DbOrTx, q: { leaseMs: number; limit: number }): Promise<DueNotification[]> {
  return claimStatement.run(db, q);
}

/** After a delivery: done, or try again in `retryInMs` (null: give up; the reconciler asks instead). */
export async function delivered(db: DbOrTx, ref: string, outcome: { ok: true } | { ok: false; retryInMs: number | null }) {
  await db
    .updateTable('sandbox_checkouts')
    .set((eb) => ({
      locked_until: null,
      deliveries: eb('deliveries', '+', 1),
      ...(outcome.ok || outcome.retryInMs === null
        ? { notified_at: new Date() }
        : { next_delivery_at: new Date(Date.now() + outcome.retryInMs) }),
    }))
    .where('ref', '=', ref)
    .execute();
}
