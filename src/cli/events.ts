import type { Command } from 'commander';
import { oneOf, uuid, whole } from './args.ts';
import { CliError, resolveTarget, restShape } from './client.ts';
import { formatOption, op, print } from './output.ts';
import { deliveryTable, wantsTable } from './table.ts';

const DELIVERY = `id eventId eventType merchantId url status attempts nextAttemptAt lastStatusCode lastError createdAt completedAt
  attemptLog { attempt attemptedAt statusCode durationMs error succeeded }`;
const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
const JOB_STATUSES = ['queued', 'running', 'failed'] as const;
const FLAGS = { e: '--event', m: '--merchant', n: '--limit', s: '--status', eventId: '<event-id>' };

interface Delivery {
  id: string;
  attemptLog: Record<string, unknown>[];
  [k: string]: unknown;
}

/**
 * JSON keeps CONTRACT §7's shape, one row per attempt (scripts read it): a delivery as log rows,
 * one per attempt, or one without attempt fields while none was made. A terminal gets
 * `deliveryTable` instead, one row per delivery.
 */
function attemptRows(d: Delivery): Record<string, unknown>[] {
  const { id, attemptLog, status, attempts, ...rest } = d;
  const base = { delivery_id: id, ...(restShape(rest) as object), delivery_status: String(status).toLowerCase(), attempts };
  if (attemptLog.length === 0) return [base];
  return attemptLog.map((a) => ({ ...base, ...(restShape(a) as object) }));
}

/** Until the operator interrupts. */
const interrupted = () =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });

/** `events tail`, `webhooks deliveries|redeliver`, `jobs stats|list|retry` (operator GraphQL), and the job runners `worker`, `dispatcher`, `reconciler`. */
export function eventCommands(program: Command) {
  program
    .command('events')
    .description('the event stream')
    .command('tail')
    .description('print events as they commit, one JSON object per line, until interrupted')
    .option('--merchant <id>', 'one merchant only', uuid('--merchant'))
    .action(async (opts) => {
      const target = resolveTarget();
      // Loaded only here: the other commands need no event-stream client.
      const { createClient } = await import('graphql-sse');
      const client = createClient({
        url: `${target.url}/graphql/stream`,
        headers: { authorization: `Bearer ${target.token}` },
        singleConnection: true,
        retryAttempts: 5,
      });
      const fields = 'id type createdAt merchantId data position';
      type Event = { id: string; type: string; createdAt: string; merchantId: string; data: unknown; position: string };
      const failed = new Promise<never>((_resolve, reject) => {
        // A tail that falls behind (its output not taken as fast as events commit) is ended by
        // the service (RATE_LIMIT_EXCEEDED); it resumes after the last event it printed.
        const follow = (field: string, after: string | null) => {
          let last = after;
          client.subscribe<Record<string, Event>>(
            { query: `subscription($m: UUID, $after: String) { ${field}(merchantId: $m, after: $after) { ${fields} } }`, variables: { m: opts.merchant ?? null, after } },
            {
              next: (r) => {
                const error = r.errors?.[0] as { message: string; extensions?: { code?: string } } | undefined;
                if (error?.extensions?.code === 'RATE_LIMIT_EXCEEDED' && last) return follow(field, last);
                if (error) return reject(new CliError(error.extensions?.code ?? 'INTERNAL_ERROR', error.message));
                const e = r.data?.[field];
                if (!e) return;
                process.stdout.write(JSON.stringify({ id: e.id, type: e.type, created_at: e.createdAt, merchant_id: e.merchantId, data: e.data }) + '\n');
                last = e.position;
              },
              error: (e) => reject(new CliError('SERVICE_UNAVAILABLE', `event stream from ${target.url}: ${(e as Error)?.message ?? String(e)}`)),
              complete: () => {},
            },
          );
        };
        for (const field of ['payoutEvents', 'paymentEvents']) follow(field, null);
      });
      try {
        await Promise.race([interrupted(), failed]);
      } finally {
        client.dispose();
      }
    });

  const webhooks = program.command('webhooks').description('the webhook delivery log; send an event again');
  webhooks
    .command('deliveries')
    .description('the delivery log, newest first: on a terminal one row per delivery with its attempts; as JSON one row per attempt')
    .option('--event <id>', 'one event only', uuid('--event'))
    .option('--merchant <id>', 'one merchant only', uuid('--merchant'))
    .option('--status <status>', DELIVERY_STATUSES.join(', '), oneOf('--status', DELIVERY_STATUSES))
    .option('--limit <n>', 'at most this many (1 to 100)', whole('--limit', 1, 100), 50)
    .addOption(formatOption())
    .action(async (opts) => {
      const data = await op(
        `query($e: UUID, $m: UUID, $s: WebhookDeliveryStatus, $n: Int) { webhookDeliveries(eventId: $e, merchantId: $m, status: $s, first: $n) { ${DELIVERY} } }`,
        { e: opts.event ?? null, m: opts.merchant ?? null, s: opts.status?.toUpperCase() ?? null, n: opts.limit },
        FLAGS,
      );
      const deliveries = data.webhookDeliveries as Delivery[];
      if (wantsTable(opts.format)) process.stdout.write(deliveryTable(deliveries.map((d) => restShape(d) as Record<string, any>)) + '\n');
      else print(deliveries.flatMap(attemptRows));
    });
  webhooks
    .command('redeliver')
    .description('send an event again as a new delivery with fresh retries; a delivery of it still retrying stops')
    .argument('<event-id>', 'the event (event_id in the delivery log)', uuid('<event-id>'))
    .action(async (eventId) => {
      const data = await op(`mutation($e: UUID!) { redeliverEvent(eventId: $e) { delivery { ${DELIVERY} } } }`, { e: eventId }, { e: '<event-id>' });
      print(attemptRows(data.redeliverEvent.delivery as Delivery));
    });

  /**
   * A job runner against the database, alone in its process, until SIGINT/SIGTERM: as many as
   * you like, next to the service or instead of its own runner (RUN_DISPATCHER, RUN_RECONCILER).
   */
  const worker = async (command: string, queues: readonly string[]) => {
    // Loaded only here: these commands run the services themselves.
    const [{ boot }, { exitOnSignal }, { QUEUE }] = await Promise.all([import('../boot.ts'), import('../lifecycle.ts'), import('../domain/jobs.ts')]);
    const known = Object.values(QUEUE) as string[];
    const unknown = queues.filter((q) => !known.includes(q));
    if (unknown.length > 0) throw new CliError('VALIDATION_FAILED', `--queue: ${unknown.join(', ')} is not a queue (one of ${known.join(', ')})`);
    const { services } = await boot(`zarpay ${command}`);
    const log = (level: string, msg: string, extra: Record<string, unknown> = {}) => process.stderr.write(JSON.stringify({ level, msg, ...extra }) + '\n');
    await services.start({
      queues: queues as (typeof QUEUE)[keyof typeof QUEUE][],
      onError: (message, e) => log('warn', message, { error: String((e as Error)?.message ?? e) }),
      name: `zarpay ${command}`,
    });
    log('info', `${command} running`, { database: services.database.kind, queues: services.runner.activeQueues, providers: [...services.providers.keys()] });
    exitOnSignal(() => services.stop(), (message, e) => log('info', message, e ? { error: String(e) } : {}));
    // Runs until the signal: exitOnSignal ends the process.
    await new Promise<never>(() => {});
  };
  const collect = (value: string, previous: string[] = []) => [...previous, value];
  program
    .command('worker')
    .description('run a job runner against the database, alone in its process (as many as you like, next to the service)')
    .option('--queue <name>', 'work this queue (repeat for several); default: every queue', collect)
    .action(async (opts: { queue?: string[] }) => {
      const { QUEUE } = await import('../domain/jobs.ts');
      await worker('worker', opts.queue ?? Object.values(QUEUE));
    });
  program
    .command('dispatcher')
    .description('run only webhook deliveries and customer e-mails against the database (zarpay worker with those queues)')
    .action(async () => worker('dispatcher', (await import('../runtime.ts')).WORKER_QUEUES.dispatcher));
  program
    .command('reconciler')
    .description('run only the payment reconciler and refunds owed against the database (zarpay worker with those queues)')
    .action(async () => worker('reconciler', (await import('../runtime.ts')).WORKER_QUEUES.reconciler));

  const JOB = 'id queue key merchantId status runAt attempts lastError createdAt updatedAt';
  const jobs = program.command('jobs').description('background work: the queues in figures, failed jobs, and their retry');
  jobs
    .command('stats')
    .description('every queue: due, scheduled, running, failed, retrying after a failed try, and how long the oldest due job has waited')
    .action(async () => {
      const data = await op('{ jobQueues { name due scheduled running failed retrying oldestDueSeconds } }', {}, {});
      print(data.jobQueues.map((q: Record<string, unknown>) => restShape(q)));
    });
  jobs
    .command('list')
    .description('jobs, newest first')
    .option('--queue <name>', 'one queue only')
    .option('--status <status>', JOB_STATUSES.join(', '), oneOf('--status', JOB_STATUSES))
    .option('--limit <n>', 'at most this many (1 to 100)', whole('--limit', 1, 100), 50)
    .action(async (opts) => {
      const data = await op(
        `query($q: String, $s: JobStatus, $n: Int) { jobs(queue: $q, status: $s, first: $n) { ${JOB} } }`,
        { q: opts.queue ?? null, s: opts.status?.toUpperCase() ?? null, n: opts.limit },
        { q: '--queue', s: '--status', n: '--limit' },
      );
      print({ jobs: data.jobs.map((j: Record<string, unknown>) => restShape(j)) });
    });
  jobs
    .command('retry')
    .description('queue a failed job again, due now, with its tries counted afresh')
    .argument('<id>', 'the job (id in `zarpay jobs list`)', whole('<id>', 1, Number.MAX_SAFE_INTEGER))
    .action(async (id: number) => {
      const data = await op('mutation($id: ID!) { retryJob(id: $id) { job { ' + JOB + ' } } }', { id: String(id) }, { id: '<id>' });
      print(restShape(data.retryJob.job));
    });
}
