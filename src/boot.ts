import { type Config, loadConfig } from './config.ts';
import { type DatabaseHandle, openConfiguredDatabase } from './db/index.ts';
import { migrateToLatest } from './db/migrate.ts';
import { proveDataKeys } from './services/data-keys.ts';
import { createServices, type Outside, type ServiceRuntime } from './runtime.ts';

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
  return bootOn(config, await openConfiguredDatabase(config, command));
}

/**
 * The part of `boot` after the database is open: the services over it, the migrations sealed
 * with their data key, the data keys' proof. Tests and the benchmarks come up through here too
 * (over a database they made), so what they run is the start-up production runs. On failure the
 * database is closed.
 */
export async function bootOn(config: Config, database: DatabaseHandle, outside?: Partial<Outside>): Promise<Booted> {
  let services: ServiceRuntime | undefined;
  try {
    services = createServices(config, database, outside);
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
