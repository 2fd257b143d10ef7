import type { Command } from 'commander';
import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';

/** Commands that work on the database directly rather than through the running service. */
export function localCommands(program: Command) {
  program
    .command('migrate')
    .description('bring the database schema up to date (the service also does this at start-up)')
    .action(async () => {
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
