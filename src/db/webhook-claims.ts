import type { DbOrTx } from './index.ts';
import { statement } from './statement.ts';

/** A claimed delivery with what its POST needs. */
export interface ClaimedDelivery {
  id: string;
  merchant_id: string;
  url: string;
  attempts: number;
  event_id: string;
  type: string;
  created_at: Date;
  data: unknown;
}

export interface ClaimRequest {
  /** The claim's token, written as the lease's holder. */
  token: string;
  leaseMs: number;
  /** How many deliveries the dispatcher has room for. */
  limit: number;
  /** At most this many deliveries of one merchant in flight at this dispatcher… */
  perMerchant: number;
  /** …counting those it already has, by merchant. */
  busy: ReadonlyMap<string, number>;
}

/**
 * Takes due deliveries nobody holds, oldest first, but no more of one merchant than its share:
 * of the oldest due deliveries (a window a few times the claim's size), each merchant gets its
 * oldest up to `perMerchant` less what it already has in flight here, and merchants already at
 * their share are passed over. A merchant whose receiver hangs then holds at most its share of
 * the dispatcher's slots, and every other merchant's deliveries still go out at once.
 *
 * The lease is checked again where the rows are locked (FOR UPDATE SKIP LOCKED), so a delivery
 * another dispatcher claimed meanwhile is left to it.
 */
const claimStatement = statement<
  { token: string; leaseMs: number; limit: number; window: number; perMerchant: number; busyMerchants: string[]; busyCounts: number[] },
  ClaimedDelivery
>(
  'claim webhook deliveries due, a fair share per merchant',
  `
  with busy as (
    select * from unnest(:busyMerchants::uuid[], :busyCounts::int[]) as b (merchant_id, n)
  ),
  candidates as (
    select d.id, d.merchant_id, d.next_attempt_at from webhook_deliveries d
     where d.status = 'pending' and d.next_attempt_at <= now()
       and (d.locked_until is null or d.locked_until < now())
       and d.merchant_id <> all (array(select merchant_id from busy where n >= :perMerchant::int))
     order by d.next_attempt_at
     limit :window::int
  ),
  offered as (
    select c.id, c.next_attempt_at,
           coalesce(b.n, 0) + row_number() over (partition by c.merchant_id order by c.next_attempt_at, c.id) as slot
      from candidates c left join busy b on b.merchant_id = c.merchant_id
  ),
  due as (
    select d.id from webhook_deliveries d join offered o on o.id = d.id
     where o.slot <= :perMerchant::int
       and d.status = 'pending' and (d.locked_until is null or d.locked_until < now())
     order by o.next_attempt_at
     limit :limit::int
     for update of d skip locked
  )
  update webhook_deliveries d
     set locked_until = now() + :leaseMs::bigint * interval '1 millisecond', locked_by = :token::uuid, updated_at = now()
    from due, events e
   where d.id = due.id and e.id = d.event_id
  returning d.id, d.merchant_id, d.url, d.attempts, e.id as event_id, e.type, e.created_at, e.data`,
);

/** One statement: the claimed deliveries, their lease written, with their events. */
export function claimDeliveries(db: DbOrTx, q: ClaimRequest): Promise<ClaimedDelivery[]> {
  const busy = [...q.busy].filter(([, n]) => n > 0);
  return claimStatement.run(db, {
    token: q.token,
    leaseMs: q.leaseMs,
    limit: q.limit,
    // Wide enough that merchants at their share rarely crowd the others out of one claim.
    window: Math.max(4 * q.limit, 64),
    perMerchant: q.perMerchant,
    busyMerchants: busy.map(([m]) => m),
    busyCounts: busy.map(([, n]) => n),
  });
}
