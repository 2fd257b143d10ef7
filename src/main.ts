import { join } from 'node:path';
import { boot } from './boot.ts';
import { type Config, OPERATOR_TOKEN_FILE } from './config.ts';
import { exitOnSignal } from './lifecycle.ts';
import { smtpTarget } from './outside/mail.ts';
import { smsTarget } from './outside/sms.ts';
import { createApp } from './server.ts';
import type { ServiceRuntime } from './runtime.ts';
import { dataDir } from './paths.ts';
import { startupFailure } from './startup.ts';

/**
 * `npm start`: settings, database, migrations, then the whole service until SIGTERM/SIGINT.
 * Start-up either ends in one human line saying where everything is, or in one line saying what
 * is wrong and a non-zero exit.
 */
async function main() {
  let config: Config | undefined;
  let close: (() => Promise<void>) | undefined;
  try {
    const { services } = await boot('the service');
    config = services.config;
    close = () => services.stop();
    const service = createApp(services);
    close = () => service.stop();
    const url = await service.start();
    service.app.log.info({ url, env: config.serviceEnv, database: services.database.kind, jobs: services.runner.activeQueues }, 'zarpay listening');
    logPayments(config, services, service.app.log);
    process.stderr.write(banner(config, url) + '\n');
    exitOnSignal(() => service.stop(), (message, err) => service.app.log.info({ err }, message));
  } catch (error) {
    const env = process.env;
    const where = config ?? { host: env.HOST || '127.0.0.1', port: Number(env.PORT || 8080), databaseUrl: env.DATABASE_URL, dataDir: dataDir(env) };
    process.stderr.write(`zarpay: ${startupFailure(error, where)}\n`);
    if (env.LOG_LEVEL === 'debug' || env.LOG_LEVEL === 'trace') console.error(error);
    await close?.().catch(() => {});
    process.exit(1);
  }
}

/** The one line a person starting zarpay reads (on stderr: stdout carries the JSON log). */
function banner(config: Config, listening: string): string {
  const base = config.publicBaseUrl.startsWith(`http://localhost:${config.port}`) ? listening.replace('127.0.0.1', 'localhost') : config.publicBaseUrl;
  const token = process.env.OPERATOR_TOKEN ? 'operator token: from OPERATOR_TOKEN' : `operator token: ${join(config.dataDir, OPERATOR_TOKEN_FILE)}`;
  return `zarpay (${config.serviceEnv}) on ${base}: dashboard ${base}/dashboard, API ${base}/api/v1, reference ${base}/docs, GraphQL ${base}/graphql, health ${base}/healthz; ${token}`;
}

/** What takes payments and what reaches customers, in the JSON log (never a key or a password). */
function logPayments(config: Config, services: ServiceRuntime, log: { info(o: object, m?: string): void; warn(m: string): void }) {
  log.info(
    { provider: services.provider.name, providers: [...services.providers.keys()], reconciler: config.runReconciler ? `after ${config.reconcileAfterMs} ms` : 'off (RUN_RECONCILER=false)' },
    'payments',
  );
  if (config.yoco?.secretKey.startsWith('sk_test_') && config.serviceEnv === 'prd') log.warn('YOCO_SECRET_KEY is a test key: no real money moves');
  log.info({ data_key: services.keyring.currentKid }, 'bank details and voucher codes sealed at rest');
  if (config.smtp) log.info({ smtp: smtpTarget(config.smtp.url), from: config.smtp.from }, 'customer e-mail confirmations: on');
  else log.info({}, 'customer e-mail confirmations: off (SMTP_URL is not set), nothing is sent');
  if (config.sms) log.info({ sms: smsTarget(config.sms.url) }, 'customer SMS confirmations: on');
  else log.info({}, 'customer SMS confirmations: off (SMS_URL is not set), nothing is sent');
}

await main();
