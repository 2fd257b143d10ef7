import type { Command } from 'commander';
import { print } from './output.ts';
import type { RunningInstance, UnreadableValues } from '../services/data-keys.ts';

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
            payout_details: before.payoutDetails,
            voucher_codes: before.voucherCodes,
            payout_batch_files: before.payoutBatchFiles,
            payee_details: before.payeeDetails,
            to_reseal: {
              payout_details: scan.toReseal.payoutDetails,
              voucher_codes: scan.toReseal.voucherCodes,
              payout_batch_files: scan.toReseal.payoutBatchFiles,
              payee_details: scan.toReseal.payeeDetails,
            },
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
          resealed: { payout_details: done.payoutDetails, voucher_codes: done.voucherCodes, payout_batch_files: done.payoutBatchFiles, payee_details: done.payeeDetails },
          payout_details: after.payoutDetails,
          voucher_codes: after.voucherCodes,
          payout_batch_files: after.payoutBatchFiles,
          payee_details: after.payeeDetails,
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

/** Values that will not open, by kind: how many, and (up to 100) which. */
function unreadableReport(u: UnreadableValues) {
  const of = (ids: string[]) => ({ count: ids.length, ids: ids.slice(0, 100) });
  return { payout_details: of(u.payoutDetails), voucher_codes: of(u.voucherCodes), payout_batch_files: of(u.payoutBatchFiles), payee_details: of(u.payeeDetails) };
}

function unreadableCount(u: UnreadableValues): number {
  return u.payoutDetails.length + u.voucherCodes.length + u.payoutBatchFiles.length + u.payeeDetails.length;
}
