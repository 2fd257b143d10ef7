import { BalanceService } from './balances.ts';
import type { ServiceDeps } from './deps.ts';
import { EventHistoryService } from './events-query.ts';
import { KeyService } from './keys.ts';
import { MerchantService } from './merchants.ts';
import { PaymentService } from './payments.ts';
import { PayoutService } from './payouts.ts';
import { StatsService } from './stats.ts';
import { RateLimitService } from './rate-limits.ts';
import { Dispatcher } from './dispatcher.ts';
import { EventBus } from './event-bus.ts';
import { embeddedNotifications, Notifications, postgresNotifications } from './notifications.ts';
import { WebhookDeliveryService } from './webhook-deliveries.ts';
import { WebhookSecretService } from './webhook-secrets.ts';

/** Every use case of zarpay, built once per process over one database. */
export interface Services {
  keys: KeyService;
  merchants: MerchantService;
  balances: BalanceService;
  payouts: PayoutService;
  stats: StatsService;
  payments: PaymentService;
  rateLimits: RateLimitService;
  /** Reads of the event outbox (a payout's history); live events are another service. */
  eventHistory: EventHistoryService;
  webhookSecrets: WebhookSecretService;
  webhookDeliveries: WebhookDeliveryService;
  /** This process's view of commits made anywhere (LISTEN/NOTIFY); started by the app. */
  notifications: Notifications;
  /** Committed events, live (subscriptions, the dispatcher's wake-up). */
  events: EventBus;
  /** Webhook delivery; started by the app when RUN_DISPATCHER is not false. */
  dispatcher: Dispatcher;
}

export function createServices(base: ServiceDeps): Services {
  const notifications = new Notifications(notificationSource(base));
  const events = new EventBus(base.db, notifications);
  const deps: ServiceDeps = { ...base, eventsCommitted: () => events.committed() };
  const keys = new KeyService(deps, notifications);
  const webhookSecrets = new WebhookSecretService(deps);
  return {
    keys,
    merchants: new MerchantService(deps, keys),
    balances: new BalanceService(deps),
    payouts: new PayoutService(deps),
    stats: new StatsService(deps),
    payments: new PaymentService(deps),
    rateLimits: new RateLimitService(deps),
    eventHistory: new EventHistoryService(deps),
    webhookSecrets,
    webhookDeliveries: new WebhookDeliveryService(deps),
    notifications,
    events,
    dispatcher: new Dispatcher(deps, webhookSecrets, events),
  };
}

function notificationSource({ database, config }: ServiceDeps) {
  if (database?.kind === 'postgres' && config.databaseUrl) return postgresNotifications(config.databaseUrl);
  if (database?.pglite) return embeddedNotifications(database.pglite);
  return undefined;
}
