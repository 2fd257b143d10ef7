import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/index.ts';
import { deriveKey } from '../domain/signing.ts';
import { BalanceService } from './balances.ts';
import type { ServiceDeps } from './deps.ts';
import { Dispatcher } from './dispatcher.ts';
import { EventBus } from './event-bus.ts';
import { EventHistoryService } from './events-query.ts';
import { KeyService } from './keys.ts';
import { MerchantService } from './merchants.ts';
import { embeddedNotifications, Notifications, postgresNotifications } from './notifications.ts';
import { PaymentFlow } from './payment-flow.ts';
import { PaymentLinks } from './payment-links.ts';
import { PaymentService } from './payments.ts';
import { PayoutService } from './payouts.ts';
import type { PaymentProvider } from './providers/provider.ts';
import { SandboxProvider } from './providers/sandbox.ts';
import { RateLimitService } from './rate-limits.ts';
import { StatsService } from './stats.ts';
import { WebhookDeliveryService } from './webhook-deliveries.ts';
import { WebhookSecretService } from './webhook-secrets.ts';

const PURGE_EVERY_MS = 60 * 60 * 1000;

/** Every use case of zarpay, built once per process over one database. */
export interface Services {
  keys: KeyService;
  merchants: MerchantService;
  balances: BalanceService;
  payouts: PayoutService;
  payments: PaymentService;
  /** The payment state machine: the hosted page's buttons, provider confirmations, operator settlement. */
  paymentFlow: PaymentFlow;
  /** The hosted page's address, its signed QR links and form tokens. */
  paymentLinks: PaymentLinks;
  providers: ReadonlyMap<string, PaymentProvider>;
  stats: StatsService;
  rateLimits: RateLimitService;
  /** Reads of the event outbox (a payout's history); live events are the bus. */
  eventHistory: EventHistoryService;
  webhookSecrets: WebhookSecretService;
  webhookDeliveries: WebhookDeliveryService;
  /** This process's view of commits made anywhere (LISTEN/NOTIFY). */
  notifications: Notifications;
  /** Committed events, live (subscriptions, the dispatcher's wake-up). */
  events: EventBus;
  /** Webhook delivery. */
  dispatcher: Dispatcher;
}

export interface StartOptions {
  /** Deliver webhooks from this process (the service: RUN_DISPATCHER; `zarpay dispatcher`: always). */
  dispatcher: boolean;
  /** Hears about failures that background work survives (database down, a provider's callback refused). */
  onError?: (message: string, err?: unknown) => void;
}

/**
 * The services with their lifecycle. They own every connection of the process: the database
 * (pool or embedded), the LISTEN connection, the rate-limit store (Redis or its own pool), the
 * dispatcher's deliveries. `start` begins background work; `stop` ends all of it within
 * `graceMs` and closes every connection, the database last.
 */
export interface ServiceRuntime extends Services {
  readonly config: Config;
  readonly database: DatabaseHandle;
  start(options: StartOptions): Promise<void>;
  /** Where this process's HTTP server listens: the sandbox provider calls back there. */
  listeningAt(url: string): void;
  stop(options?: { graceMs?: number }): Promise<void>;
}

export function createServices(config: Config, database: DatabaseHandle): ServiceRuntime {
  const notifications = new Notifications(notificationSource(config, database));
  const events = new EventBus(database.db, notifications);
  const deps: ServiceDeps = { db: database.db, config, eventsCommitted: () => events.committed() };
  const keys = new KeyService(deps, notifications);
  const webhookSecrets = new WebhookSecretService(deps);
  const paymentLinks = new PaymentLinks(config);

  let callbackBase: string | undefined;
  let onError: StartOptions['onError'] = () => {};
  const sandbox = new SandboxProvider({
    key: deriveKey(config.serviceSecret, 'sandbox-provider-callback'),
    delayMs: config.sandboxConfirmDelayMs,
    // In prd the service only answers HTTPS, so the callback goes through the public address.
    callbackBase: () => (config.serviceEnv === 'prd' ? config.publicBaseUrl : callbackBase),
    onError: (message, err) => onError?.(message, err),
  });
  const providers = new Map<string, PaymentProvider>([[sandbox.name, sandbox]]);

  const services: Services = {
    keys,
    merchants: new MerchantService(deps, keys),
    balances: new BalanceService(deps),
    payouts: new PayoutService(deps),
    payments: new PaymentService(deps, paymentLinks),
    paymentFlow: new PaymentFlow(deps, providers, sandbox),
    paymentLinks,
    providers,
    stats: new StatsService(deps),
    rateLimits: new RateLimitService(deps),
    eventHistory: new EventHistoryService(deps),
    webhookSecrets,
    webhookDeliveries: new WebhookDeliveryService(deps),
    notifications,
    events,
    dispatcher: new Dispatcher(deps, webhookSecrets, events),
  };

  let purgeTimer: NodeJS.Timeout | undefined;
  let stopped: Promise<void> | undefined;
  return {
    ...services,
    config,
    database,
    async start(options) {
      onError = options.onError;
      await notifications.start();
      await events.start();
      if (options.dispatcher) services.dispatcher.start((e) => onError?.('webhook dispatcher', e));
      purgeTimer ??= setInterval(() => void services.payments.purgeExpiredKeys().catch(() => {}), PURGE_EVERY_MS).unref();
    },
    listeningAt(url) {
      callbackBase = url.replace('//0.0.0.0', '//127.0.0.1').replace('//[::]', '//[::1]');
    },
    stop({ graceMs = 3000 } = {}) {
      stopped ??= (async () => {
        clearInterval(purgeTimer);
        // Deliveries under way get the grace to finish; the rest are released for another try.
        await services.dispatcher.stop(graceMs);
        await Promise.all([...providers.values()].map((p) => p.stop()));
        await events.stop();
        await notifications.stop();
        await services.rateLimits.close();
        await database.close();
      })();
      return stopped;
    },
  };
}

function notificationSource(config: Config, database: DatabaseHandle) {
  if (database.kind === 'postgres' && config.databaseUrl) return postgresNotifications(config.databaseUrl);
  if (database.pglite) return embeddedNotifications(database.pglite);
  return undefined;
}
