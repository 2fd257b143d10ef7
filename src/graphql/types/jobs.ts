import { type Job, JOB_STATUSES, QUEUE, type QueueStats } from '../../domain/jobs.ts';
import { actorOf, builder } from '../builder.ts';

const JobStatusEnum = builder.enumType('JobStatus', {
  description: 'Where a background job is.',
  values: Object.fromEntries(
    JOB_STATUSES.map((s) => [
      s.toUpperCase(),
      {
        value: s,
        description: { queued: 'Waiting for its time or a free runner.', running: 'Claimed by a runner now.', failed: 'Gave up after its tries; kept until an operator retries it.' }[s],
      },
    ]),
  ) as Record<'QUEUED' | 'RUNNING' | 'FAILED', { value: (typeof JOB_STATUSES)[number]; description: string }>,
});

const queueList = Object.values(QUEUE).map((q) => `\`${q}\``).join(', ');

const JobRef = builder.objectRef<Job>('Job').implement({
  description: 'One piece of background work: a webhook delivery, a customer e-mail, a reconciliation, a refund owed.',
  fields: (t) => ({
    attempts: t.exposeInt('attempts', { description: 'How many times it has been run so far; for a recurring job, since it last succeeded.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was queued.' }),
    id: t.id({ description: 'The job\'s id (`zarpay jobs retry ID`).', resolve: (j) => String(j.id) }),
    key: t.exposeString('key', { description: 'What it is about, within its queue: a delivery, payment or attempt id.' }),
    lastError: t.exposeString('lastError', { nullable: true, description: 'Why its last try failed.' }),
    merchantId: t.expose('merchantId', { type: 'UUID', nullable: true, description: 'Whose work it is; null for zarpay\'s own.' }),
    queue: t.exposeString('queue', { description: `Its queue: ${queueList}.` }),
    runAt: t.expose('runAt', { type: 'DateTime', description: 'When it is (or was) due.' }),
    status: t.expose('status', { type: JobStatusEnum, description: 'Where it is.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
  }),
});

const JobQueueRef = builder.objectRef<QueueStats>('JobQueue').implement({
  description: 'One queue of background work in figures (`zarpay jobs stats`; /metrics `zarpay_jobs`).',
  fields: (t) => ({
    due: t.exposeInt('due', { description: 'Jobs due now that no runner holds.' }),
    failed: t.exposeInt('failed', { description: 'Jobs that gave up, waiting for an operator.' }),
    name: t.exposeString('queue', { description: `The queue: ${queueList}.` }),
    oldestDueSeconds: t.exposeFloat('oldestDueSeconds', { description: 'How long the oldest due job has waited past its time; 0 when none is due.' }),
    retrying: t.exposeInt('retrying', {
      description: 'Jobs queued again after a failed try (also counted as due, scheduled or running). A recurring job that keeps failing stays here and never becomes failed: its row shows its last error and the tries since it last succeeded.',
    }),
    running: t.exposeInt('running', { description: 'Jobs a runner holds now.' }),
    scheduled: t.exposeInt('scheduled', { description: 'Jobs due later (a retry\'s backoff, a wait before reconciling).' }),
  }),
});

builder.queryFields((t) => ({
  jobQueues: t.field({
    type: [JobQueueRef],
    description: 'Every queue of background work in figures (operator only; CLI `zarpay jobs stats`). Errors: FORBIDDEN for a merchant.',
    authScopes: { operator: true },
    resolve: (_r, _a, ctx) => ctx.services.jobs.stats(actorOf(ctx)),
  }),
  jobs: t.field({
    type: [JobRef],
    description: 'Background jobs, newest first (operator only; CLI `zarpay jobs list`). Errors: VALIDATION_FAILED for an unknown queue or a `first` outside 1 to 100, FORBIDDEN for a merchant.',
    authScopes: { operator: true },
    args: {
      first: t.arg.int({ description: 'How many, 1 to 100; default 50.' }),
      queue: t.arg.string({ description: `Only this queue: ${queueList}.` }),
      status: t.arg({ type: JobStatusEnum, description: 'Only jobs in this state.' }),
    },
    resolve: (_r, a, ctx) => ctx.services.jobs.list(actorOf(ctx), { queue: a.queue ?? null, status: a.status ?? null, limit: a.first ?? null }),
  }),
}));

const RetryJobPayload = builder.simpleObject('RetryJobPayload', {
  description: 'The job, queued again.',
  fields: (t) => ({ job: t.field({ type: JobRef, description: 'The job, due now with its tries counted afresh.' }) }),
});

builder.mutationFields((t) => ({
  retryJob: t.field({
    type: RetryJobPayload,
    description: 'Queues a failed job again, due now (operator only; CLI `zarpay jobs retry`). Errors: NOT_FOUND for an unknown job, INVALID_STATUS_TRANSITION for one that has not failed, FORBIDDEN for a merchant.',
    authScopes: { operator: true },
    args: { id: t.arg.id({ required: true, description: 'The job\'s id.' }) },
    resolve: async (_r, a, ctx) => ({ job: await ctx.services.jobs.retry(actorOf(ctx), /^\d{1,15}$/.test(String(a.id)) ? Number(a.id) : -1) }),
  }),
}));
