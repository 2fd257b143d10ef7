import { loadConfig } from './config.ts';
import { openConfiguredDatabase } from './db/index.ts';
import { migrateToLatest } from './db/migrate.ts';
import { proveDataKeys } from './services/data-keys.ts';
import { createServices, type ServiceRuntime } from './services/index.ts';

export interface Booted {
  services: ServiceRuntime;
  /** The migrations this boot applied (none when the schema was up to date). */
  migrated: string[];
}

/**
 * The one way a zarpay process comes up: settings, then the database (`DATABASE_URL`, or the
 * embedded one under DATA_DIR, which one process at a time may open: `command` names this one
 * to a second opener), then the migrations (sealed with the service's data key), the data keys'
 * proof (each kid's check value against the stored one), then the services. `npm start`, the CLI's local commands and every worker process boot here; what each
 * then starts (an HTTP server, a job runner's queues, one command) is its own business. Nothing
 * runs in the background until the caller calls `start`.
 */
export async function boot(command: string, env: NodeJS.ProcessEnv = process.env): Promise<Booted> {
  const config = loadConfig(env);
  const database = await openConfiguredDatabase(config, command);
  let services: ServiceRuntime | undefined;
  try {
    services = createServices(config, database);
    // The data key seals what a migration takes out of the clear (bank details, voucher codes).
    const migrated = await migrateToLatest(database.db, { sealer: services.keyring });
    // Other material under a kid this database knows would seal what no other instance opens.
    await proveDataKeys(database.db, services.keyring);
    return { services, migrated };
  } catch (e) {
    await (services ? services.stop() : database.close()).catch(() => {});
    throw e;
  }
}
