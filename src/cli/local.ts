import type { Command } from 'commander';
import { print } from './output.ts';

/** Commands that work on the database directly rather than through the running service. */
export function localCommands(program: Command) {
  program
    .command('migrate')
    .description('bring the database schema up to date (the service also does this at start-up)')
    .action(async () => {
      // Loaded only here: the other commands never open the database.
      const [{ loadConfig }, { openConfiguredDatabase }, { migrateToLatest }, { createKeyring }] = await Promise.all([
        import('../config.ts'),
        import('../db/index.ts'),
        import('../db/migrate.ts'),
        import('../domain/sealing.ts'),
      ]);
      const config = loadConfig();
      const database = await openConfiguredDatabase(config, 'zarpay migrate');
      try {
        // The data key seals what a migration takes out of the clear (bank details, voucher codes).
        const applied = await migrateToLatest(database.db, { sealer: createKeyring(config.serviceSecret, config.dataKeys) });
        print({ ok: true, applied, database: database.kind });
      } finally {
        await database.close();
      }
    });

  program
    .command('rotate-data-key')
    .description('seal every bank account and voucher code again under the current data key (the first of DATA_KEY); run with the service\'s settings')
    .option('--dry-run', 'only count what each key seals')
    .action(async (opts: { dryRun?: boolean }) => {
      const [{ loadConfig }, { openConfiguredDatabase }, { migrateToLatest }, { OPERATOR_NAME }, { createServices }] = await Promise.all([
        import('../config.ts'),
        import('../db/index.ts'),
        import('../db/migrate.ts'),
        import('../domain/actor.ts'),
        import('../services/index.ts'),
      ]);
      const config = loadConfig();
      const database = await openConfiguredDatabase(config, 'zarpay rotate-data-key');
      const services = createServices(config, database);
      // Run where the settings are, so the operator is whoever runs it (audited by name).
      const name = (process.env.ZARPAY_OPERATOR || process.env.USER || '').trim();
      const operator = OPERATOR_NAME.test(name) ? ({ kind: 'operator', name } as const) : ({ kind: 'operator' } as const);
      try {
        await migrateToLatest(database.db, { sealer: services.keyring });
        const before = await services.dataKeys.inventory(operator);
        if (opts.dryRun) {
          print({ ok: true, current_kid: before.currentKid, payout_details: before.payoutDetails, voucher_codes: before.voucherCodes });
          return;
        }
        const done = await services.dataKeys.rotate(operator);
        const after = await services.dataKeys.inventory(operator);
        print({
          ok: true,
          current_kid: done.kid,
          resealed: { payout_details: done.payoutDetails, voucher_codes: done.voucherCodes },
          payout_details: after.payoutDetails,
          voucher_codes: after.voucherCodes,
        });
      } finally {
        await services.stop();
      }
    });
}
