import { ConfigError, loadConfig } from './config.ts';
import { openConfiguredDatabase } from './db/index.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createApp } from './server.ts';

/** `npm start`: settings, database, migrations, then the HTTP server until SIGTERM/SIGINT. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`zarpay: ${e.message}`);
      process.exit(1);
    }
    throw e;
  }
  const database = await openConfiguredDatabase(config);
  await migrateToLatest(database.db);
  const service = createApp(config, database);
  const url = await service.start();
  service.app.log.info({ url, env: config.serviceEnv, database: database.kind }, 'zarpay listening');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    service.app.log.info({ signal }, 'draining in-flight requests');
    try {
      await service.stop();
      await database.close();
      process.exit(0);
    } catch (e) {
      service.app.log.error({ err: e }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

await main();
