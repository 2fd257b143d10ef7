import type { Command } from 'commander';
import { print } from './output.ts';

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
    .option('--dry-run', 'only count what each key seals')
    .action(async (opts: { dryRun?: boolean }) => {
      const { OPERATOR_NAME } = await import('../domain/actor.ts');
      const { services } = await bootHere('zarpay rotate-data-key');
      // Run where the settings are, so the operator is whoever runs it (audited by name).
      const name = (process.env.ZARPAY_OPERATOR || process.env.USER || '').trim();
      const operator = OPERATOR_NAME.test(name) ? ({ kind: 'operator', name } as const) : ({ kind: 'operator' } as const);
      try {
        const before = await services.dataKeys.inventory(operator);
        if (opts.dryRun) {
          print({ ok: true, current_kid: before.currentKid, payout_details: before.payoutDetails, voucher_codes: before.voucherCodes, payout_batch_files: before.payoutBatchFiles });
          return;
        }
        const done = await services.dataKeys.rotate(operator);
        const after = await services.dataKeys.inventory(operator);
        print({
          ok: true,
          current_kid: done.kid,
          resealed: { payout_details: done.payoutDetails, voucher_codes: done.voucherCodes, payout_batch_files: done.payoutBatchFiles },
          payout_details: after.payoutDetails,
          voucher_codes: after.voucherCodes,
          payout_batch_files: after.payoutBatchFiles,
        });
      } finally {
        await services.stop();
      }
    });
}
