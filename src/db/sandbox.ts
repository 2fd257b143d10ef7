import { QUEUE } from '../domain/jobs.ts';
import type { DbOrTx } from './index.ts';
import { statement } from './statement.ts';

/**
 * The sandbox provider's own books (outside/providers/sandbox.ts), in a schema of their own:
 * what a real provider keeps on its side, kept here so that its confirmations outlive a restart
 * of the process that took them. Only tst/dev ever write them.
 */

export interface SandboxCheckout {
  ref: string;
  attemptId: string;
  eventId: string;
  outcome: 'succeeded' | 'failed';
  reason: string | null;
  /** Before `confirm_at` the sandbox is still "processing": it answers pending. */
  confirmed: boolean;
  refunded: boolean;
}

const takeStatement = statement<
  { ref: string; attemptId: string; outcome: string; reason: string | null; delayMs: number; eventId: string },
  { ref: string }
>(
  'sandbox: take an attempt',
  `
  with taken as (
    insert into sandbox.checkouts (ref, attempt_id, outcome, reason, confirm_at, event_id)
    values (:ref::text, :attemptId::uuid, :outcome::text, :reason::text, now() + :delayMs::bigint * interval '1 millisecond', :eventId::uuid)
    on conflict (attempt_id) do nothing
    returning ref, confirm_at
  ),
  confirmation as (
    -- Its confirmation, due when the sandbox has "processed" the payment.
    insert into jobs (queue, key, payload, run_at)
    select '${QUEUE.sandboxConfirm}', ref, jsonb_build_object('ref', ref), confirm_at from taken
    on conflict (queue, key) do nothing
  )
  -- The same attempt twice (a retried start) is the same checkout, as with a real provider.
  select ref from taken union all select ref from sandbox.checkouts where attempt_id = :attemptId::uuid`,
);

/** Records an attempt the sandbox was given, with its confirmation queued; a retry with the same attempt id returns the first one's reference. */
export async function takeAttempt(
  db: DbOrTx,
  a: { ref: string; attemptId: string; outcome: 'succeeded' | 'failed'; reason: string | null; delayMs: number; eventId: string },
): Promise<string> {
  const [row] = await takeStatement.run(db, a);
  return row!.ref;
}

const findStatement = statement<
  { ref: string },
  { ref: string; attempt_id: string; event_id: string; outcome: 'succeeded' | 'failed'; reason: string | null; confirmed: boolean; refunded: boolean }
>(
  'sandbox: a checkout',
  `select ref, attempt_id, event_id, outcome, reason, confirm_at <= now() as confirmed, refunded_at is not null as refunded
     from sandbox.checkouts where ref = :ref::text`,
);

export async function findCheckout(db: DbOrTx, ref: string): Promise<SandboxCheckout | undefined> {
  const [row] = await findStatement.run(db, { ref });
  return row && { ref: row.ref, attemptId: row.attempt_id, eventId: row.event_id, outcome: row.outcome, reason: row.reason, confirmed: row.confirmed, refunded: row.refunded };
}

// ---- The sandbox's refunds: each confirmed by a job of `sandbox.confirm` (key `refund:{ref}`), as its checkouts are.

const takeRefundStatement = statement<
  { ref: string; key: string; checkoutRef: string; amount: number; delayMs: number; eventId: string },
  { ref: string }
>(
  'sandbox: take a refund',
  `
  with checkout as (
    select ref from sandbox.checkouts where ref = :checkoutRef::text and outcome = 'succeeded'
  ),
  taken as (
    insert into sandbox.refunds (ref, key, checkout_ref, amount_cents, confirm_at, event_id)
    select :ref::text, :key::text, c.ref, :amount::bigint, now() + :delayMs::bigint * interval '1 millisecond', :eventId::uuid from checkout c
    on conflict (key) do nothing
    returning ref, confirm_at
  ),
  marked as (
    update sandbox.checkouts set refunded_at = coalesce(refunded_at, now()) where ref in (select ref from checkout)
  ),
  confirmation as (
    insert into jobs (queue, key, payload, run_at)
    select '${QUEUE.sandboxConfirm}', 'refund:' || ref, jsonb_build_object('refund', ref), confirm_at from taken
    on conflict (queue, key) do nothing
  )
  -- The same key twice is the same refund, as with a real provider.
  select ref from taken union all select ref from sandbox.refunds where key = :key::text`,
);

/** Records a refund of a succeeded sandbox checkout, its confirmation queued; undefined when there is no such checkout. */
export async function takeRefund(
  db: DbOrTx,
  r: { ref: string; key: string; checkoutRef: string; amount: number; delayMs: number; eventId: string },
): Promise<string | undefined> {
  const [row] = await takeRefundStatement.run(db, r);
  return row?.ref;
}

export interface SandboxRefund {
  ref: string;
  checkoutRef: string;
  amountCents: number;
  eventId: string;
  confirmed: boolean;
}

const findRefundStatement = statement<{ ref: string }, { ref: string; checkout_ref: string; amount_cents: number; event_id: string; confirmed: boolean }>(
  'sandbox: a refund',
  `select ref, checkout_ref, amount_cents, event_id, confirm_at <= now() as confirmed from sandbox.refunds where ref = :ref::text`,
);

export async function findRefund(db: DbOrTx, ref: string): Promise<SandboxRefund | undefined> {
  const [row] = await findRefundStatement.run(db, { ref });
  return row && { ref: row.ref, checkoutRef: row.checkout_ref, amountCents: Number(row.amount_cents), eventId: row.event_id, confirmed: row.confirmed };
}
