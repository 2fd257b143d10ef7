import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/index.ts';
import { QUEUE, type Queue } from './domain/jobs.ts';
import { createKeyring, type Keyring } from './domain/sealing.ts';
import { JobRunner } from './jobs/runner.ts';
import type { Task } from './jobs/task.ts';
import type { CounterStore } from './outside/counters.ts';
import { type MailTransport, smtpMail } from './outside/mail.ts';
import { bulkSms, type SmsGateway } from './outside/sms.ts';
import { httpTransport, type WebhookTransport } from './outside/webhook-http.ts';
import { AuditService } from './services/audit.ts';
import { BalanceService } from './services/balances.ts';
import { bankReportTask } from './tasks/bank-reports.ts';
import { customerEmailTask } from './tasks/customer-email.ts';
import { CustomerMessageService } from './services/customer-messages.ts';
import { customerSmsTask } from './tasks/customer-sms.ts';
import { DataKeyService } from './services/data-keys.ts';
import type { ServiceDeps } from './services/deps.ts';
import { EventBus } from './services/event-bus.ts';
import { EventHistoryService } from './services/events-query.ts';
import { InstanceHeartbeat } from './services/instance-heartbeat.ts';
import { JobService } from './services/jobs.ts';
import { KeyService } from './services/keys.ts';
import { purgeTask, rateLimitSweepTask } from './tasks/maintenance.ts';
import { MerchantService } from './services/merchants.ts';
import { embeddedNotifications, EVENTS_CHANNEL, postgresNotifications } from './outside/commit-notifications.ts';
import { Notifications } from './services/notifications.ts';
import { expiryTask } from './tasks/payment-expiry.ts';
import { PaymentFlow } from './services/payment-flow.ts';
import { PaymentLinks } from './services/payment-links.ts';
import { PaymentSettlement } from './services/payment-settlement.ts';
import { PaymentLinkService } from './services/links.ts';
import { PaymentRequestService } from './services/payment-requests.ts';
import { PaymentService } from './services/payments.ts';
import { PayoutBatchService } from './services/payout-batches.ts';
import { BankReportService } from './services/bank-reports.ts';
import { PasswordResetService } from './services/password-reset.ts';
import { PeopleService } from './services/people.ts';
import { ProfileService } from './services/profile.ts';
import { SecondFactors } from './services/second-factor.ts';
import { personEmailTask } from './tasks/person-email.ts';
import { paymentRequestEmailTask } from './tasks/payment-request-email.ts';
import { PayoutService } from './services/payouts.ts';
import { PayeeService } from './services/payees.ts';
import { secondFactorCheck, StepUp } from './services/step-up.ts';
import type { PaymentProvider } from './outside/providers/port.ts';
import { createProviders } from './outside/providers/registry.ts';
import { counterStoreFor, RateLimitService } from './services/rate-limits.ts';
import { reconcileTask, refundOwedTask } from './tasks/reconcile.ts';
import { RefundNotifications } from './services/refund-notifications.ts';
import { refundRequestTask } from './tasks/refund-requests.ts';
import { RefundService } from './services/refunds.ts';
import { StatementService } from './services/statements.ts';
import { StatsService } from './services/stats.ts';
import { webhookTask } from './tasks/webhook-delivery.ts';
import { WebhookDeliveryService } from './services/webhook-deliveries.ts';
import { WebhookSecretService } from './services/webhook-secrets.ts';


import type { Services } from './services/index.ts';

/**
 * zarpay's ports to outside systems other than payment providers (outside/providers/port.ts).
 * Production uses the real adapters (src/outside/); tests may put their own in.
 */
export interface Outside {
  webhooks: WebhookTransport;
  /** Null without SMTP_URL: nothing is sent. */
  mail: MailTransport | null;
  /** Null without SMS_URL: nothing is sent. */
  sms: SmsGateway | null;
  /** Where rate-limit windows are counted; null: in this process's memory (or rate limiting is off). */
  counters: CounterStore | null;
}

export interface StartOptions {
  /** The queues this process's job runner works (the service: RUN_DISPATCHER/RUN_RECONCILER; a worker: its own). */
  queues: readonly Queue[];
  /** Hears about failures that background work survives (database down, a provider's callback refused). */
  onError?: (message: string, err?: unknown) => void;
  /** What this process runs, in its heartbeat (`zarpay rotate-data-key` names it): default `the service`. */
  name?: string;
}

/**
 * The services with their lifecycle. They own every connection of the process: the database
 * (pool or embedded), the LISTEN connection, the rate-limit store (Redis or its own pool), the
 * job runner's work. `start` begins background work; `stop` ends all of it within `graceMs` and
 * closes every connection, the database last.
 */
export interface ServiceRuntime extends Services {
  readonly config: Config;
  readonly database: DatabaseHandle;
  readonly keyring: Keyring;
  /** This process's view of commits made anywhere (LISTEN/NOTIFY). */
  readonly notifications: Notifications;
  /** Where new attempts go (Yoco when configured, else the sandbox). */
  readonly provider: PaymentProvider;
  /** The one runner of background work; `runner.runDue(queues)` runs what is due now. */
  readonly runner: JobRunner;
  /** This process's id in `instance_heartbeats` while it runs (services/instance-heartbeat.ts). */
  readonly instanceId: string;
  start(options: StartOptions): Promise<void>;
  /** Where this process's HTTP server listens: the sandbox provider calls back there. */
  listeningAt(url: string): void;
  stop(options?: { graceMs?: number }): Promise<void>;
}

/** The queues a service process works, by its settings: every one, less what RUN_DISPATCHER/RUN_RECONCILER turn off. */
export function serviceQueues(config: Config): Queue[] {
  const off = new Set<Queue>([
    ...(config.runDispatcher ? [] : WORKER_QUEUES.dispatcher),
    ...(config.runReconciler ? [] : WORKER_QUEUES.reconciler),
  ]);
  return Object.values(QUEUE).filter((q) => !off.has(q));
}

/** What `zarpay dispatcher` and `zarpay reconciler` work, beside the service or instead of it. */
export const WORKER_QUEUES: Record<'dispatcher' | 'reconciler', readonly Queue[]> = {
  dispatcher: [QUEUE.webhook, QUEUE.customerEmail, QUEUE.customerSms, QUEUE.personEmail, QUEUE.paymentRequestEmail],
  reconciler: [QUEUE.reconcile, QUEUE.refundOwed, QUEUE.refund, QUEUE.expire],
};

export function createServices(config: Config, database: DatabaseHandle, outside: Partial<Outside> = {}): ServiceRuntime {
  const ports: Outside = {
    webhooks: outside.webhooks ?? httpTransport,
    mail: outside.mail !== undefined ? outside.mail : config.smtp ? smtpMail(config.smtp) : null,
    sms: outside.sms !== undefined ? outside.sms : config.sms ? bulkSms(config.sms) : null,
    counters: outside.counters !== undefined ? outside.counters : counterStoreFor(config),
  };
  const notifications = new Notifications(notificationSource(config, database));
  const keyring = createKeyring(config.serviceSecret, config.dataKeys);
  let onError: (message: string, err?: unknown) => void = () => {};
  const reportError = (message: string, err?: unknown) => onError(message, err);
  // Built below; the deps reach it only once a transaction has committed.
  let runner: JobRunner | undefined;
  const deps: ServiceDeps = {
    db: database.db,
    config,
    keyring,
    committed: () => {
      // Live subscribers hear of new events, and other processes are poked (NOTIFY) to look.
      events.committed();
      runner?.nudge();
    },
  };
  const keys = new KeyService(deps, notifications);
  const people = new PeopleService(deps, ports.mail, keys, notifications);
  // A merchant caller's streams end with its key, or its person's session.
  const events = new EventBus(database.db, notifications, config.eventReplayWindowMs, people.watchCaller);
  const webhookSecrets = new WebhookSecretService(deps);
  const paymentLinks = new PaymentLinks(config);

  let callbackBase: string | undefined;
  const providers = createProviders(config, database.db, {
    // The sandbox notifies zarpay where it listens: this process's server, or else the public address.
    callbackBase: () => callbackBase ?? config.publicBaseUrl,
    dueIn: (ms) => runner?.wakeIn(ms),
  });
  const settlement = new PaymentSettlement(deps);
  const payments = new PaymentService(deps, paymentLinks);
  const rateLimits = new RateLimitService(deps, ports.counters);
  const refunds = new RefundService(deps);
  // The step-up asks for the person's second factor, when they have one, after the password.
  const stepUp = new StepUp(deps, [secondFactorCheck(people)]);
  const payees = new PayeeService(deps, stepUp);

  const payoutBatches = new PayoutBatchService(deps);
  const bankReports = new BankReportService(deps);

  const tasks: Task<any, any>[] = [
    webhookTask(deps, webhookSecrets, ports.webhooks),
    bankReportTask(bankReports, reportError),
    reconcileTask(deps, providers.all, settlement, reportError),
    refundOwedTask(deps, providers.all, reportError),
    refundRequestTask(deps, providers.all, refunds, reportError),
    expiryTask(deps, providers.all, settlement, reportError),
    purgeTask(payments),
    ...providers.tasks,
  ];
  if (ports.mail && config.smtp) {
    tasks.push(customerEmailTask(deps, config.smtp, ports.mail), personEmailTask(deps, config.smtp, ports.mail), paymentRequestEmailTask(deps, config.smtp, ports.mail, paymentLinks));
  }
  if (ports.sms && config.sms) tasks.push(customerSmsTask(deps, ports.sms));
  if (rateLimits.needsSweeping) tasks.push(rateLimitSweepTask(rateLimits));
  runner = new JobRunner({ db: database.db, tasks, onError: reportError });
  // Another process committed (events, jobs): its work may be ours to run.
  notifications.on(EVENTS_CHANNEL, () => runner?.nudge());

  const services: Services = {
    merchants: new MerchantService(deps, keys),
    keys,
    people,
    profile: new ProfileService(deps, new SecondFactors(deps), people),
    passwordReset: new PasswordResetService(deps, ports.mail, (ids) => people.endSessions(ids)),
    webhookSecrets,
    payments,
    paymentFlow: new PaymentFlow(deps, providers.all, providers.methods, providers.simulators, paymentLinks, settlement, new RefundNotifications(deps, refunds)),
    paymentLinks,
    links: new PaymentLinkService(deps, paymentLinks, payments, rateLimits),
    paymentRequests: new PaymentRequestService(deps, payments),
    providers: providers.all,
    refunds,
    payouts: new PayoutService(deps, payees, stepUp),
    payees,
    payoutBatches,
    bankReports,
    balances: new BalanceService(deps),
    statements: new StatementService(deps),
    events,
    eventHistory: new EventHistoryService(deps),
    webhookDeliveries: new WebhookDeliveryService(deps),
    audit: new AuditService(deps),
    stats: new StatsService(deps),
    dataKeys: new DataKeyService(deps),
    jobs: new JobService(deps, runner),
    customerMessages: new CustomerMessageService(deps),
    rateLimits,
  };

  const heartbeat = new InstanceHeartbeat(database.db, keyring);
  let stopped: Promise<void> | undefined;
  return {
    ...services,
    config,
    database,
    keyring,
    notifications,
    provider: providers.primary,
    runner,
    instanceId: heartbeat.id,
    async start(options) {
      if (options.onError) onError = options.onError;
      await notifications.start();
      await events.start();
      // The recurring jobs queued, and one that had failed for good queued again.
      await runner!.arm(options.queues);
      // Before any work: from now on this process may open and seal data, so it says which keys it holds.
      await heartbeat.start(options.name ?? 'the service', reportError);
      runner!.start(options.queues);
    },
    listeningAt(url) {
      callbackBase = url.replace('//0.0.0.0', '//127.0.0.1').replace('//[::]', '//[::1]');
    },
    stop({ graceMs = 3000 } = {}) {
      stopped ??= (async () => {
        // Jobs under way get the grace to finish; the rest are given back for another runner.
        await runner!.stop(graceMs);
        await heartbeat.stop();
        await events.stop();
        keys.stop();
        people.stop();
        await notifications.stop();
        await rateLimits.close();
        ports.mail?.close();
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
