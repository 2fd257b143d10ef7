import type { Job, QueueStats } from '../domain/jobs.ts';
import type { DbOrTx } from './index.ts';
import { statement } from './statement.ts';

/**
 * The statements of the job queue (src/jobs/): enqueue, the one claim, the one write of
 * outcomes, and the operator's reads. Statements elsewhere in src/db that queue work in the
 * transaction of a change (an event's delivery, a capture's e-mail) insert into `jobs` the same
 * way, with `on conflict (queue, key) do nothing`.
 */

export interface NewJob {
  queue: string;
  /** The same queue and key twice is one job (the second enqueue changes nothing). */
  key: string;
  merchantId?: string | null;
  payload?: Record<string, unknown>;
  /** Due this many milliseconds from now (default: now). */
  inMs?: number;
}

const enqueueStatement = statement<{ queue: string; key: string; merchantId: string | null; payload: string; inMs: number }, { id: number }>(
  'enqueue a job',
  `
  insert into jobs (queue, key, merchant_id, payload, run_at)
  values (:queue::text, :key::text, :merchantId::uuid, :payload::jsonb, now() + :inMs::bigint * interval '1 millisecond')
  on conflict (queue, key) do nothing
  returning id`,
);

/** Queues a job in the caller's transaction (or alone); false when the same queue and key is already there. */
export async function enqueue(db: DbOrTx, job: NewJob): Promise<boolean> {
  const rows = await enqueueStatement.run(db, {
    queue: job.queue,
    key: job.key,
    merchantId: job.merchantId ?? null,
    payload: JSON.stringify(job.payload ?? {}),
    inMs: Math.max(0, Math.round(job.inMs ?? 0)),
  });
  return rows.length > 0;
}

const deleteStatement = statement<{ queue: string; keys: string[] }, { id: number }>(
  'delete queued jobs by key',
  `delete from jobs where queue = :queue::text and key = any(:keys::text[]) returning id`,
);

/** Takes back work that is no longer wanted (a delivery superseded by a redelivery). */
export async function dropJobs(db: DbOrTx, queue: string, keys: string[]): Promise<number> {
  if (keys.length === 0) return 0;
  return (await deleteStatement.run(db, { queue, keys })).length;
}

/** A job as its task receives it. */
export interface ClaimedJob {
  id: number;
  queue: string;
  key: string;
  merchant_id: string | null;
  payload: Record<string, unknown>;
  /** Claims so far, this one included. */
  attempts: number;
  run_at: Date;
  created_at: Date;
}

/** What one queue of a runner wants from a claim. */
export interface QueueClaim {
  queue: string;
  /** Free slots of the queue in this runner. */
  limit: number;
  /** At most this many of one merchant's jobs of the queue in flight in this runner… */
  perMerchant: number;
  /** …counting those it already runs, by merchant. */
  busy: ReadonlyMap<string, number>;
  /** How long the claim holds a job: longer than a run of the queue's task can take. */
  leaseMs: number;
}

/**
 * The one claim, for every queue a runner has room in: the due jobs nobody holds, oldest first,
 * up to the queue's free slots, but no more of one merchant than its share. Of each queue's
 * oldest due jobs (a window a few times the claim's size), each merchant gets its oldest up to
 * `perMerchant` less what it already has in flight here, and merchants already at their share
 * are passed over: a merchant whose webhook receiver hangs holds at most its share of the slots,
 * and everyone else's work goes out beside it. Jobs of no merchant are each their own share.
 *
 * The lease is checked again where the rows are locked (FOR UPDATE SKIP LOCKED), so a job another
 * runner claimed meanwhile is left to it; the claim commits at once, and a runner that dies
 * leaves leases that run out. One statement whatever the number of queues, so a wake-up costs
 * one round trip.
 */
const claimStatement = statement<
  {
    token: string;
    dueBy: string | null;
    queues: string[];
    limits: number[];
    perMerchant: number[];
    leases: number[];
    busyQueues: string[];
    busyMerchants: string[];
    busyCounts: number[];
  },
  ClaimedJob
>(
  'claim due jobs, a fair share per merchant',
  `
  with wanted as (
    select * from unnest(:queues::text[], :limits::int[], :perMerchant::int[], :leases::bigint[]) as w (queue, lim, per_merchant, lease_ms)
  ),
  busy as (
    select * from unnest(:busyQueues::text[], :busyMerchants::uuid[], :busyCounts::int[]) as b (queue, merchant_id, n)
  ),
  candidates as (
    select c.id, c.queue, c.merchant_id, c.run_at, w.lim, w.per_merchant, w.lease_ms
      from wanted w cross join lateral (
        select j.id, j.queue, j.merchant_id, j.run_at from jobs j
         where j.queue = w.queue and j.status = 'queued' and j.run_at <= least(now(), :dueBy::timestamptz)
           and (j.locked_until is null or j.locked_until < now())
           and (j.merchant_id is null
                or j.merchant_id <> all (array(select b.merchant_id from busy b where b.queue = w.queue and b.n >= w.per_merchant)))
         order by j.run_at
         limit greatest(4 * w.lim, 64)
      ) c
  ),
  offered as (
    select c.*,
           coalesce(b.n, 0) + row_number() over (partition by c.queue, coalesce(c.merchant_id::text, c.id::text) order by c.run_at, c.id) as slot
      from candidates c left join busy b on b.queue = c.queue and b.merchant_id = c.merchant_id
  ),
  ranked as (
    select o.*, row_number() over (partition by o.queue order by o.run_at, o.id) as rank
      from offered o where o.slot <= o.per_merchant
  ),
  due as (
    select j.id, r.lease_ms from jobs j join ranked r on r.id = j.id
     where r.rank <= r.lim and j.status = 'queued' and (j.locked_until is null or j.locked_until < now())
     for update of j skip locked
  )
  update jobs j
     set locked_until = now() + due.lease_ms * interval '1 millisecond', locked_by = :token::uuid,
         attempts = j.attempts + 1, updated_at = now()
    from due
   where j.id = due.id
  returning j.id, j.queue, j.key, j.merchant_id, j.payload, j.attempts, j.run_at, j.created_at`,
);

/**
 * One statement: the due jobs of every queue in `wanted` this runner has room for, leased to
 * `token`; with `dueBy`, only those that were due by then.
 */
export async function claimJobs(db: DbOrTx, token: string, wanted: readonly QueueClaim[], dueBy: Date | null = null): Promise<ClaimedJob[]> {
  const busy = wanted.flatMap((w) => [...w.busy].filter(([, n]) => n > 0).map(([merchant, n]) => ({ queue: w.queue, merchant, n })));
  const rows = await claimStatement.run(db, {
    token,
    dueBy: dueBy?.toISOString() ?? null,
    queues: wanted.map((w) => w.queue),
    limits: wanted.map((w) => w.limit),
    perMerchant: wanted.map((w) => w.perMerchant),
    leases: wanted.map((w) => Math.round(w.leaseMs)),
    busyQueues: busy.map((b) => b.queue),
    busyMerchants: busy.map((b) => b.merchant),
    busyCounts: busy.map((b) => b.n),
  });
  for (const row of rows) {
    row.id = Number(row.id);
    if (typeof row.payload === 'string') row.payload = JSON.parse(row.payload);
  }
  return rows;
}

/**
 * What became of a claimed job:
 * - `done`: deleted;
 * - `retry`: queued again in `delayMs` (a failed try with tries left, or a recurring job's);
 * - `later`: queued again in `delayMs` (not a failure: asked too early);
 * - `again`: a recurring job that ran: queued again in `delayMs`, its tries counted afresh and
 *   its last error cleared;
 * - `failed`: kept, failed, for an operator to look at and retry;
 * - `released`: given back untried at shutdown (its try is not counted), due at once;
 * - `abandoned`: given up at shutdown, its run still going after the abort: its lease is kept, so
 *   another runner takes it once the lease runs out, as after a crash (the try counts).
 */
export type JobOutcomeKind = 'done' | 'retry' | 'later' | 'again' | 'failed' | 'released' | 'abandoned';

export interface JobOutcome {
  id: number;
  token: string;
  kind: JobOutcomeKind;
  delayMs: number | null;
  error: string | null;
  /** The payload the job carries into its next run instead of its own; null: unchanged. */
  payload: Record<string, unknown> | null;
}

const settleStatement = statement<
  { ids: number[]; tokens: string[]; kinds: string[]; delays: (number | null)[]; errors: (string | null)[]; payloads: (string | null)[] },
  { id: number }
>(
  'record what became of claimed jobs',
  `
  with outcome as (
    select * from unnest(:ids::bigint[], :tokens::uuid[], :kinds::text[], :delays::bigint[], :errors::text[], :payloads::jsonb[])
      as o (id, token, kind, delay_ms, error, payload)
  ),
  done as (
    delete from jobs j using outcome o
     where j.id = o.id and j.locked_by = o.token and o.kind = 'done'
    returning j.id
  ),
  moved as (
    update jobs j set
      status = case when o.kind = 'failed' then 'failed' else 'queued' end,
      run_at = case when o.kind in ('retry', 'later', 'again') then now() + coalesce(o.delay_ms, 0) * interval '1 millisecond'
                    when o.kind = 'released' then now() else j.run_at end,
      attempts = case when o.kind = 'released' then greatest(j.attempts - 1, 0) when o.kind = 'again' then 0 else j.attempts end,
      last_error = case when o.kind in ('retry', 'failed', 'abandoned') then left(o.error, 1000)
                        when o.kind = 'again' then null else j.last_error end,
      payload = coalesce(o.payload, j.payload),
      locked_by = null,
      locked_until = case when o.kind = 'abandoned' then j.locked_until end,
      updated_at = now()
    from outcome o
    where j.id = o.id and j.locked_by = o.token and o.kind <> 'done'
    returning j.id
  )
  select id from done union all select id from moved`,
);

/**
 * Writes the outcomes of many jobs in one statement; returns the ids still held by their claim
 * (the others had been taken over after their lease ran out, and are the new holder's business).
 */
export async function settleJobs(db: DbOrTx, outcomes: readonly JobOutcome[]): Promise<Set<number>> {
  if (outcomes.length === 0) return new Set();
  const rows = await settleStatement.run(db, {
    ids: outcomes.map((o) => o.id),
    tokens: outcomes.map((o) => o.token),
    kinds: outcomes.map((o) => o.kind),
    delays: outcomes.map((o) => (o.delayMs === null ? null : Math.max(0, Math.round(o.delayMs)))),
    errors: outcomes.map((o) => o.error),
    payloads: outcomes.map((o) => (o.payload === null ? null : JSON.stringify(o.payload))),
  });
  return new Set(rows.map((r) => Number(r.id)));
}

const armStatement = statement<{ queue: string; key: string }, { rearmed: boolean; last_error: string | null }>(
  'queue a recurring job, again if it had failed',
  `
  with rearmed as (
    update jobs set status = 'queued', run_at = now(), attempts = 0, locked_by = null, locked_until = null, updated_at = now()
     where queue = :queue::text and key = :key::text and status = 'failed'
    returning last_error
  ),
  added as (
    insert into jobs (queue, key) select :queue::text, :key::text where not exists (select 1 from rearmed)
    on conflict (queue, key) do nothing
    returning id
  )
  select true as rearmed, last_error from rearmed`,
);

/**
 * Queues a recurring job (one per deployment: the same queue and key again changes nothing), and
 * queues again, due now with its tries counted afresh, one that an older version let fail for
 * good; returns that one's last error, or undefined when there was none.
 */
export async function armRecurring(db: DbOrTx, queue: string, key: string): Promise<{ lastError: string | null } | undefined> {
  const [row] = await armStatement.run(db, { queue, key });
  return row && { lastError: row.last_error };
}

interface JobRow {
  id: number;
  queue: string;
  key: string;
  merchant_id: string | null;
  status: 'queued' | 'failed';
  run_at: Date;
  attempts: number;
  locked_until: Date | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
}

const JOB_COLUMNS = 'id, queue, key, merchant_id, status, run_at, attempts, locked_until, last_error, created_at, updated_at';

function toJob(row: JobRow): Job {
  const running = row.status === 'queued' && row.locked_until !== null && row.locked_until > new Date();
  return {
    id: Number(row.id),
    queue: row.queue,
    key: row.key,
    merchantId: row.merchant_id,
    status: row.status === 'failed' ? 'failed' : running ? 'running' : 'queued',
    runAt: row.run_at,
    attempts: row.attempts,
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const listStatement = statement<{ queue: string | null; status: string | null; limit: number }, JobRow>(
  'list jobs',
  `
  select ${JOB_COLUMNS} from jobs
   where (:queue::text is null or queue = :queue::text)
     and (:status::text is null
          or (:status::text = 'failed' and status = 'failed')
          or (:status::text = 'running' and status = 'queued' and locked_until > now())
          or (:status::text = 'queued' and status = 'queued' and (locked_until is null or locked_until <= now())))
   order by id desc
   limit :limit::int`,
);

/** The operator's view of the queue, newest first. */
export async function listJobs(db: DbOrTx, f: { queue: string | null; status: string | null; limit: number }): Promise<Job[]> {
  return (await listStatement.run(db, f)).map(toJob);
}

const retryStatement = statement<{ id: number }, JobRow>(
  'retry a failed job',
  `
  update jobs set status = 'queued', run_at = now(), attempts = 0, locked_by = null, locked_until = null, updated_at = now()
   where id = :id::bigint and status = 'failed'
  returning ${JOB_COLUMNS}`,
);

const requeueStatement = statement<{ queue: string; key: string }, JobRow>(
  'queue again a failed job by key',
  `
  update jobs set status = 'queued', run_at = now(), attempts = 0, locked_by = null, locked_until = null, updated_at = now()
   where queue = :queue::text and key = :key::text and status = 'failed'
  returning ${JOB_COLUMNS}`,
);

/** Queues again, due now with its tries counted afresh, the job of this queue and key when it has failed for good; false otherwise. */
export async function requeueFailed(db: DbOrTx, queue: string, key: string): Promise<boolean> {
  return (await requeueStatement.run(db, { queue, key })).length > 0;
}

const byKeyStatement = statement<{ queue: string; key: string }, JobRow>('a job by queue and key', `select ${JOB_COLUMNS} from jobs where queue = :queue::text and key = :key::text`);

/** The job of this queue and key; null when there is none (never queued, or done). */
export async function findJobByKey(db: DbOrTx, queue: string, key: string): Promise<Job | null> {
  const [row] = await byKeyStatement.run(db, { queue, key });
  return row ? toJob(row) : null;
}

const findStatement = statement<{ id: number }, JobRow>('a job by id', `select ${JOB_COLUMNS} from jobs where id = :id::bigint`);

/** Queues a failed job again, due now, with its tries counted afresh; null when there is no such failed job. */
export async function retryJob(db: DbOrTx, id: number): Promise<Job | null> {
  const [row] = await retryStatement.run(db, { id });
  return row ? toJob(row) : null;
}

export async function findJob(db: DbOrTx, id: number): Promise<Job | null> {
  const [row] = await findStatement.run(db, { id });
  return row ? toJob(row) : null;
}

const statsStatement = statement<
  Record<string, never>,
  { queue: string; due: number; scheduled: number; running: number; failed: number; retrying: number; oldest_due_seconds: number | null }
>(
  'the queues in figures',
  `
  select queue,
         count(*) filter (where status = 'queued' and run_at <= now() and (locked_until is null or locked_until <= now()))::int as due,
         count(*) filter (where status = 'queued' and run_at > now() and (locked_until is null or locked_until <= now()))::int as scheduled,
         count(*) filter (where status = 'queued' and locked_until > now())::int as running,
         count(*) filter (where status = 'failed')::int as failed,
         count(*) filter (where status = 'queued' and attempts > 0 and last_error is not null)::int as retrying,
         extract(epoch from now() - min(run_at) filter (where status = 'queued' and run_at <= now() and (locked_until is null or locked_until <= now())))::float8 as oldest_due_seconds
    from jobs
   group by queue`,
);

/** Every queue that has jobs, in figures. */
export async function queueStats(db: DbOrTx): Promise<QueueStats[]> {
  return (await statsStatement.run(db, {})).map((r) => ({
    queue: r.queue,
    due: r.due,
    scheduled: r.scheduled,
    running: r.running,
    failed: r.failed,
    retrying: r.retrying,
    oldestDueSeconds: Math.max(0, r.oldest_due_seconds ?? 0),
  }));
}

/** The statements a runner sends by itself (its claim and its outcomes): background, not any request's. */
export const isRunnerStatement = (sql: string): boolean => sql === claimStatement.sql || sql === settleStatement.sql;
