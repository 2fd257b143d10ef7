import { ConfigError, loadConfig } from './config.ts';
import { openConfiguredDatabase } from './db/index.ts';
import { migrateToLatest } from './db/migrate.ts';
import { exitOnSignal } from './lifecycle.ts';
import { createApp } from './server.ts';
import { createServices } from './services/index.ts';

/** `npm start`: settings, database, migrations, then the whole service until SIGTERM/SIGINT. */
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
  const service = createApp(createServices(config, database));
  const url = await service.start();
  service.app.log.info({ url, env: config.serviceEnv, database: database.kind }, 'zarpay listening');
  exitOnSignal(() => service.stop(), (message, err) => service.app.log.info({ err }, message));
}

await main();
