import type { Command } from 'commander';

/** Commands that work on the database directly rather than through the running service. */
export function localCommands(program: Command) {
  program
    .command('migrate')
    .description('bring the database schema up to date (the service also does this at start-up)')
    .action(async () => {
      // Loaded only here: the other commands never open the database.
      const [{ loadConfig }, { openConfiguredDatabase }, { migrateToLatest }] = await Promise.all([
        import('../config.ts'),
        import('../db/index.ts'),
        import('../db/migrate.ts'),
      ]);
      const config = loadConfig();
      const database = await openConfiguredDatabase(config);
      try {
        const applied = await migrateToLatest(database.db);
        process.stdout.write(JSON.stringify({ ok: true, applied, database: database.kind }, null, 2) + '\n');
      } finally {
        await database.close();
      }
    });
}
