import type { Command } from 'commander';
import { print } from './output.ts';
import type { PerKind, RunningInstance, UnreadableValues } from '../services/data-keys.ts';

/** Boots zarpay in this process (loaded only here: the other commands go through the running service). */
async function bootHere(command: string) {
  const { boot } = await import('../boot.ts');
  return boot(command);
}

/** Commands that work on the database directly rather than through the running service. */
export function localCommands(program: Command) {
  program
    .command('migrate')
    .description('bring the database schema up to date (the service also does this at start-up)')
    .action(async () => {
      const { services, migrated } = await bootHere('zarpay migrate');
      try {
        print({ ok: true, applied: migrated, database: services.database.kind });
      } finally {
        await services.stop();
      }
    });

  program
    .command('rotate-data-key')
    .description('seal every bank account, voucher code and payout batch file again under the current data key (the first of DATA_KEY); run with the service\'s settings')
    .option('--dry-run', 'only count what each key seals, and list the running instances with the keys they hold')
    .option('--force', 'seal again even while a running instance lacks the new key (one known to be gone whose heartbeat is not a minute old yet)')
    .action(async (opts: { dryRun?: boolean; force?: boolean }) => {
      const { OPERATOR_NAME } = await import('../domain/actor.ts');
      const { services } = await bootHere('zarpay rotate-data-key');
      // Run where the settings are, so the operator is whoever runs it (audited by name).
      const name = (process.env.ZARPAY_OPERATOR || process.env.USER || '').trim();
      const operator = OPERATOR_NAME.test(name) ? ({ kind: 'operator', name } as const) : ({ kind: 'operator' } as const);
      try {
        const before = await services.dataKeys.inventory(operator);
        // Both open every value: what will not open under any key is listed, never counted as fine.
        if (opts.dryRun) {
          const scan = await services.dataKeys.scan(operator);
          const instances = await services.dataKeys.instances(operator);
          print({
            ok: unreadableCount(scan.unreadable) === 0,
            current_kid: before.currentKid,
            ...snakeCased(withoutKid(before)),
            to_reseal: snakeCased(scan.toReseal),
            unreadable: unreadableReport(scan.unreadable),
            instances: instances.map(instanceReport),
          });
          return;
        }
        // Refused (CONFLICT, naming them) while a running instance lacks the key, unless forced.
        const done = await services.dataKeys.rotate(operator, { force: opts.force === true });
        const after = await services.dataKeys.inventory(operator);
        const skipped = unreadableCount(done.unreadable);
        print({
          ok: skipped === 0,
          current_kid: done.kid,
          resealed: snakeCased(Object.fromEntries(Object.keys(done.unreadable).map((k) => [k, done[k as keyof PerKind<number>]])) as PerKind<number>),
          ...snakeCased(withoutKid(after)),
          unreadable: unreadableReport(done.unreadable),
          instances: done.instances.map(instanceReport),
          ...(done.forced && { forced: true }),
        });
        if (done.forced) {
          const lacking = done.instances.filter((i) => !i.holdsCurrentKid).map((i) => `${i.command} ${i.id} on ${i.host}`);
          process.stderr.write(`zarpay: --force: sealed under ${done.kid} although ${lacking.join(', ')} did not hold it\n`);
        }
        if (skipped > 0) {
          process.stderr.write(`zarpay: ${skipped} sealed value(s) will not open under any key of DATA_KEY and were left as they are (listed under "unreadable"); everything else is under ${done.kid}\n`);
          process.exitCode = 1;
        }
      } finally {
        await services.stop();
      }
    });
}

/** A running instance as the CLI prints it. */
function instanceReport(i: RunningInstance) {
  return {
    instance_id: i.id,
    command: i.command,
    host: i.host,
    pid: i.pid,
    kids: i.kids,
    holds_current_kid: i.holdsCurrentKid,
    started_at: i.startedAt.toISOString(),
    seconds_since_seen: Math.round(i.secondsSinceSeen),
  };
}

/** One field per kind of sealed value, named in snake_case (`payoutDetails` → `payout_details`). */
function snakeCased<T>(per: PerKind<T>): Record<string, T> {
  return Object.fromEntries(Object.entries(per).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v as T]));
}

/** The inventory's counts, without its current kid. */
function withoutKid<T>({ currentKid: _, ...counts }: { currentKid: string } & PerKind<T>): PerKind<T> {
  return counts as PerKind<T>;
}

/** Values that will not open, by kind: how many, and (up to 100) which. */
function unreadableReport(u: UnreadableValues) {
  return snakeCased(Object.fromEntries(Object.entries(u).map(([k, ids]) => [k, { count: ids.length, ids: ids.slice(0, 100) }])) as PerKind<{ count: number; ids: string[] }>);
}

function unreadableCount(u: UnreadableValues): number {
  return Object.values(u).reduce((n, ids) => n + ids.length, 0);
}
