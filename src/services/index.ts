import type { AuditService } from './audit.ts';
import type { BalanceService } from './balances.ts';
import type { CustomerMessageService } from './customer-messages.ts';
import type { DataKeyService } from './data-keys.ts';
import type { EventBus } from './event-bus.ts';
import type { EventHistoryService } from './events-query.ts';
import type { JobService } from './jobs.ts';
import type { KeyService } from './keys.ts';
import type { MerchantService } from './merchants.ts';
import type { PaymentFlow } from './payment-flow.ts';
import type { PaymentLinkService } from './links.ts';
import type { PaymentRequestService } from './payment-requests.ts';
import type { PaymentLinks } from './payment-links.ts';
import type { PaymentProvider } from '../outside/providers/port.ts';
import type { PaymentService } from './payments.ts';
import type { PayoutBatchService } from './payout-batches.ts';
import type { PayoutService } from './payouts.ts';
import type { PayeeService } from './payees.ts';
import type { BankReportService } from './bank-reports.ts';
import type { PasswordResetService } from './password-reset.ts';
import type { PeopleService } from './people.ts';
import type { ProfileService } from './profile.ts';
import type { RateLimitService } from './rate-limits.ts';
import type { RefundService } from './refunds.ts';
import type { StatementService } from './statements.ts';
import type { StatsService } from './stats.ts';
import type { WebhookDeliveryService } from './webhook-deliveries.ts';
import type { WebhookSecretService } from './webhook-secrets.ts';

/**
 * Every use case of zarpay, built once per process over one database, in the groups an adapter
 * reaches for. Each method takes the Actor first; none knows HTTP or GraphQL.
 */
export interface Services {
  // Merchants and their credentials.
  merchants: MerchantService;
  keys: KeyService;
  /** The dashboard's people: invites, sign-in, sessions (CONTRACT §10). */
  people: PeopleService;
  /** A signed-in person's own settings: language, second factor (CONTRACT §11). */
  profile: ProfileService;
  /** A forgotten password, reset by e-mail (CONTRACT §11). */
  passwordReset: PasswordResetService;
  webhookSecrets: WebhookSecretService;

  // Money in: payments, the hosted page's state machine, its links.
  payments: PaymentService;
  /** The payment state machine: the hosted page's buttons, provider notifications, operator settlement and reconciliation. */
  paymentFlow: PaymentFlow;
  /** The hosted page's address, its signed QR links and form tokens. */
  paymentLinks: PaymentLinks;
  /** Payment links a merchant shares (CONTRACT §11), and the payments customers make through them. */
  links: PaymentLinkService;
  /** One-off payment requests e-mailed to a customer (CONTRACT §11). */
  paymentRequests: PaymentRequestService;
  /** Every payment provider of this environment, by name (a notification is verified by its own). */
  providers: ReadonlyMap<string, PaymentProvider>;
  /** Money back: refunds of captured payments, and their outcomes. */
  refunds: RefundService;

  // Money out: payouts and the balance they draw on.
  payouts: PayoutService;
  /** Saved payees: bank accounts an owner added once, with the password re-entered, and paid by id. */
  payees: PayeeService;
  /** Bank files: approved payouts out as pain.001, the bank's camt.054/053 reports in. */
  payoutBatches: PayoutBatchService;
  /** The bank's reports on those files, applied by a job (CONTRACT §11). */
  bankReports: BankReportService;
  balances: BalanceService;
  /** Statements: the balance's movements over SAST days, JSON or CSV, read from the ledger in batches. */
  statements: StatementService;

  // What happened: events live and stored, and their webhook deliveries.
  /** Committed events, live (subscriptions). */
  events: EventBus;
  /** Reads of the event outbox (a payout's history). */
  eventHistory: EventHistoryService;
  webhookDeliveries: WebhookDeliveryService;

  // The operator's desk.
  /** Who did what to payments and payouts. */
  audit: AuditService;
  stats: StatsService;
  /** Rotation of the key that seals bank details and voucher codes. */
  dataKeys: DataKeyService;
  /** Background work: the queues in figures, failed jobs and their retry. */
  jobs: JobService;
  /** Customers' payment confirmations (e-mail, SMS), sent again on the operator's word. */
  customerMessages: CustomerMessageService;

  // Limits.
  rateLimits: RateLimitService;
}
