import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/index.ts';
import { createKeyring, type Keyring } from '../domain/sealing.ts';
import { AuditService } from './audit.ts';
import { BalanceService } from './balances.ts';
import { CustomerMailer } from './customer-mail.ts';
import { DataKeyService } from './data-keys.ts';
import type { ServiceDeps } from './deps.ts';
import { Dispatcher } from './dispatcher.ts';
import { EventBus } from './event-bus.ts';
import { EventHistoryService } from './events-query.ts';
import { KeyService } from './keys.ts';
import { MerchantService } from './merchants.ts';
import { embeddedNotifications, Notifications, postgresNotifications } from './notifications.ts';
import { PaymentFlow } from './payment-flow.ts';
import { PaymentLinks } from './payment-links.ts';
import { PaymentSettlement } from './payment-settlement.ts';
import { PaymentService } from './payments.ts';
import { PayoutService } from './payouts.ts';
import type { PaymentProvider } from './providers/port.ts';
import { createProviders } from './providers/registry.ts';
import { RateLimitService } from './rate-limits.ts';
import { Reconciler } from './reconciler.ts';
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
  /** The payment state machine: the hosted page's buttons, provider notifications, operator settlement and reconciliation. */
  paymentFlow: PaymentFlow;
  /** Asks providers about attempts whose notification is late (RECONCILE_AFTER_MS) and finishes them. */
  reconciler: Reconciler;
  /** Customer confirmations by e-mail; null without SMTP_URL. */
  mailer: CustomerMailer | null;
  /** Who did what to payments and payouts. */
  audit: AuditService;
  /** Rotation of the key that seals bank details and voucher codes. */
  dataKeys: DataKeyService;
  keyring: Keyring;
  /** The hosted page's address, its signed QR links and form tokens. */
  paymentLinks: PaymentLinks;
  providers: ReadonlyMap<string, PaymentProvider>;
  /** Where new attempts go (Yoco when configured, else the sandbox). */
  provider: PaymentProvider;
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
  /** Deliver webhooks and customer e-mails from this process (the service: RUN_DISPATCHER; `zarpay dispatcher`: always). */
  dispatcher: boolean;
  /** Reconcile late attempts from this process (the service: RUN_RECONCILER; `zarpay reconciler`: always). */
  reconciler?: boolean;
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
  const keyring = createKeyring(config.serviceSecret, config.dataKeys);
  let mailer: CustomerMailer | null = null;
  const deps: ServiceDeps = {
    db: database.db,
    config,
    keyring,
    eventsCommitted: () => {
      events.committed();
      // A capture may have queued a customer e-mail.
      mailer?.wake();
    },
  };
  const keys = new KeyService(deps, notifications);
  // A merchant's streams end with its key.
  const events = new EventBus(database.db, notifications, config.eventReplayWindowMs, keys.watch);
  const webhookSecrets = new WebhookSecretService(deps);
  const paymentLinks = new PaymentLinks(config);
  mailer = config.smtp ? new CustomerMailer(deps, config.smtp) : null;

  let callbackBase: string | undefined;
  let onError: StartOptions['onError'] = () => {};
  const providers = createProviders(config, database.db, {
    // The sandbox notifies the HTTP server of its own process (it never runs in prd).
    callbackBase: () => callbackBase,
    onError: (message, err) => onError?.(message, err),
  });
  const settlement = new PaymentSettlement(deps);

  const services: Services = {
    keys,
    merchants: new MerchantService(deps, keys),
    balances: new BalanceService(deps),
    payouts: new PayoutService(deps),
    payments: new PaymentService(deps, paymentLinks),
    paymentFlow: new PaymentFlow(deps, providers.all, providers.primary, paymentLinks, settlement),
    reconciler: new Reconciler(deps, providers.all, settlement),
    mailer,
    audit: new AuditService(deps),
    dataKeys: new DataKeyService(deps),
    keyring,
    paymentLinks,
    providers: providers.all,
    provider: providers.primary,
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
      if (options.dispatcher) {
        services.dispatcher.start((e) => onError?.('webhook dispatcher', e));
        mailer?.start((message, err) => onError?.(message, err));
      }
      if (options.reconciler) services.reconciler.start((message, err) => onError?.(message, err));
      providers.sandbox?.start();
      purgeTimer ??= setInterval(() => void services.payments.purgeExpiredKeys().catch(() => {}), PURGE_EVERY_MS).unref();
    },
    listeningAt(url) {
      callbackBase = url.replace('//0.0.0.0', '//127.0.0.1').replace('//[::]', '//[::1]');
    },
    stop({ graceMs = 3000 } = {}) {
      stopped ??= (async () => {
        clearInterval(purgeTimer);
        // Deliveries under way get the grace to finish; the rest are released for another try.
        await Promise.all([services.dispatcher.stop(graceMs), mailer?.stop(graceMs), services.reconciler.stop(), providers.sandbox?.stop()]);
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
