import type { ColumnType, Generated, Selectable } from 'kysely';

/** bigint cents: read as number (normalised in db/index.ts), written as number. */
type Cents = ColumnType<number, number, number>;
type CentsDefault = ColumnType<number, number | undefined, number>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T = unknown> = ColumnType<T, string, string>;

export interface MerchantsTable {
  id: string;
  name: string;
  webhook_url: string | null;
  payment_fee_bps: ColumnType<number, number | undefined, number>;
  payment_fee_fixed_cents: CentsDefault;
  payout_fee_cents: CentsDefault;
  auto_topup: ColumnType<boolean, boolean | undefined, boolean>;
  redirect_domains: ColumnType<string[], string[] | undefined, string[]>;
  support_contact: ColumnType<string | null, string | null | undefined, string | null>;
  payment_methods: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  support_email: ColumnType<string | null, string | null | undefined, string | null>;
  support_phone: ColumnType<string | null, string | null | undefined, string | null>;
  /** The merchant's payment limits in cents (CONTRACT §11); 5500 and 300000 unless set. */
  payment_min_cents: ColumnType<number, number | undefined, number>;
  payment_max_cents: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  merchant_id: string;
  kid: string;
  env: string;
  type: ColumnType<string, string | undefined, string>;
  status: 'active' | 'revoked' | 'expired';
  secret_hash: Buffer;
  checksum: string;
  created_at: Timestamp;
  revoked_at: Date | null;
  expires_at: Date | null;
  issued_by: ColumnType<'merchant' | 'operator' | 'person', 'merchant' | 'operator' | 'person' | undefined, 'merchant' | 'operator' | 'person'>;
  issued_by_person_id: string | null;
  role: ColumnType<'owner' | 'developer' | 'viewer', 'owner' | 'developer' | 'viewer' | undefined, 'owner' | 'developer' | 'viewer'>;
}

export interface BalancesTable {
  merchant_id: string;
  balance_cents: CentsDefault;
  reserved_cents: CentsDefault;
  gross_cents: CentsDefault;
  fees_cents: CentsDefault;
  withdrawals_cents: CentsDefault;
  refunds_cents: CentsDefault;
  returned_cents: CentsDefault;
  updated_at: Timestamp;
}

import type { LedgerAccount } from '../domain/ledger.ts';

export interface LedgerTransactionsTable {
  id: string;
  merchant_id: string;
  kind: string;
  payout_id: string | null;
  payment_id: string | null;
  refund_id: ColumnType<string | null, string | null | undefined, string | null>;
  memo: string | null;
  created_at: Timestamp;
}

export interface LedgerEntriesTable {
  id: Generated<number>;
  transaction_id: string;
  merchant_id: string;
  account: LedgerAccount;
  amount_cents: Cents;
  created_at: Timestamp;
}

export interface PayoutsTable {
  id: string;
  seq: Generated<number>;
  merchant_id: string;
  amount_cents: Cents;
  fee_cents: Cents;
  gross_amount_cents: Cents;
  currency: ColumnType<string, string | undefined, string>;
  status: string;
  payout_method: string;
  /** The EFT details, sealed (domain/sealing.ts): never stored in the clear. */
  payment_details_sealed: Buffer;
  merchant_reference: string | null;
  description: string | null;
  metadata: Json<Record<string, unknown> | null> | null;
  request_hash: string;
  external_transfer_id: string | null;
  failure_reason: string | null;
  rejection_reason: string | null;
  returned_at: Date | null;
  return_reason: string | null;
  /** The bank its branch code belongs to (domain/za-banks.ts); null for payouts older than the list. */
  bank: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  completed_at: Date | null;
}

export interface EventsTable {
  id: string;
  seq: Generated<number>;
  merchant_id: string;
  type: string;
  payout_id: string | null;
  payment_id: string | null;
  data: Json<Record<string, unknown>>;
  webhook_url: string | null;
  created_at: Timestamp;
  /** The writing transaction's id (xid8, as text): the event's position in the log. Null before migration 0005. */
  xact_id: Generated<string | null>;
}

export interface Database {
  merchants: MerchantsTable;
  api_keys: ApiKeysTable;
  balances: BalancesTable;
  ledger_transactions: LedgerTransactionsTable;
  ledger_entries: LedgerEntriesTable;
  payouts: PayoutsTable;
  events: EventsTable;
  webhook_secrets: WebhookSecretsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}

export type MerchantRow = Selectable<MerchantsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type BalanceRow = Selectable<BalancesTable>;
export type PayoutRow = Selectable<PayoutsTable>;
export type EventRow = Selectable<EventsTable>;

export interface PaymentsTable {
  id: string;
  seq: Generated<number>;
  merchant_id: string;
  merchant_order_id: string;
  intent_type: 'purchase' | 'purchase_and_redeem';
  amount_cents: Cents;
  currency: ColumnType<string, string | undefined, string>;
  fee_cents: Cents;
  net_amount_cents: Cents;
  status: string;
  include_qr: ColumnType<boolean, boolean | undefined, boolean>;
  success_url: string | null;
  cancel_url: string | null;
  failure_url: string | null;
  webhook_url: string | null;
  customer_email: string | null;
  customer_phone: string | null;
  description: ColumnType<string | null, string | null | undefined, string | null>;
  /** Why a failed payment failed, when zarpay knows more than the provider said: `expired`. */
  failure_reason: ColumnType<string | null, string | null | undefined, string | null>;
  params_hash: string;
  /** The payment link it was made through (CONTRACT §11); null otherwise. */
  payment_link_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  completed_at: Date | null;
}

export interface PaymentLinksTable {
  id: string;
  seq: Generated<number>;
  merchant_id: string;
  description: string;
  amount_cents: number | null;
  merchant_reference: string | null;
  single_use: ColumnType<boolean, boolean | undefined, boolean>;
  active: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PaymentAttemptsTable {
  id: string;
  seq: Generated<number>;
  payment_id: string;
  provider: string;
  provider_ref: string | null;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled' | 'expired';
  failure_reason: string | null;
  redirect_url: ColumnType<string | null, string | null | undefined, string | null>;
  payment_ref: ColumnType<string | null, string | null | undefined, string | null>;
  /** Money owed back for late money: `pending` (to ask), `requested` (the provider accepted it), then how it went. */
  refund_status: ColumnType<'pending' | 'requested' | 'succeeded' | 'failed' | null, 'pending' | null | undefined, 'pending' | 'requested' | 'succeeded' | 'failed' | null>;
  refund_ref: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the refund of money owed was first sent to the provider. */
  refund_submitted_at: NullableTimestamp;
  /** What the provider said it took, when that is not the payment's amount (a notification that did not match). */
  refund_amount_cents: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface VouchersTable {
  payment_id: string;
  /** The code, sealed; `code_digest` (a keyed digest) keeps codes unique without showing them. */
  code_sealed: Buffer;
  code_digest: Buffer;
  issued_at: Timestamp;
  redeemed_at: Date | null;
}

export interface IdempotencyKeysTable {
  merchant_id: string;
  key: string;
  request_hash: string;
  payment_id: string | null;
  refund_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  expires_at: Date | string;
}

/** The sandbox provider's books, in a schema of their own (only tst/dev write them). */
export interface SandboxCheckoutsTable {
  ref: string;
  attempt_id: string;
  outcome: 'succeeded' | 'failed';
  reason: string | null;
  confirm_at: Timestamp;
  event_id: string;
  refunded_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: Timestamp;
  actor: string;
  action: string;
  merchant_id: string | null;
  payment_id: string | null;
  payout_id: string | null;
  detail: Json<Record<string, unknown>>;
}

export interface CustomerEmailsTable {
  id: string;
  payment_id: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: ColumnType<number, number | undefined, number>;
  /** Times an operator asked for it again (`zarpay payment notify`). */
  resends: ColumnType<number, number | undefined, number>;
  last_error: string | null;
  created_at: Timestamp;
  sent_at: NullableTimestamp;
}

/** A payment's confirmation by SMS: one row per payment, as customer_emails. */
export interface CustomerSmsTable {
  id: string;
  payment_id: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: ColumnType<number, number | undefined, number>;
  resends: ColumnType<number, number | undefined, number>;
  last_error: string | null;
  /** The gateway's id of the message it accepted. */
  gateway_message_id: string | null;
  created_at: Timestamp;
  sent_at: NullableTimestamp;
}

export interface RefundsTable {
  id: string;
  seq: Generated<number>;
  merchant_id: string;
  payment_id: string;
  attempt_id: string;
  provider: string;
  status: 'pending' | 'succeeded' | 'failed';
  amount_cents: Cents;
  currency: ColumnType<string, string | undefined, string>;
  reason: string | null;
  merchant_reference: string | null;
  provider_key: string;
  provider_refund_ref: string | null;
  failure_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  completed_at: NullableTimestamp;
  /** When its request was first sent to the provider (under the current key). */
  submitted_at: NullableTimestamp;
}

export interface PaymentTables {
  refunds: RefundsTable;
  payments: PaymentsTable;
  payment_links: PaymentLinksTable;
  payment_attempts: PaymentAttemptsTable;
  vouchers: VouchersTable;
  idempotency_keys: IdempotencyKeysTable;
  'sandbox.checkouts': SandboxCheckoutsTable;
  audit_log: AuditLogTable;
  customer_emails: CustomerEmailsTable;
  customer_sms: CustomerSmsTable;
}

export type PaymentRow = Selectable<PaymentsTable>;
export type PaymentAttemptRow = Selectable<PaymentAttemptsTable>;

// Declaration merging: the payment tables join Database without editing its declaration above.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Database extends PaymentTables {}
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface WebhookSecretsTable {
  id: string;
  merchant_id: string;
  kid: string;
  status: 'active' | 'rotating' | 'disabled';
  secret_enc: Buffer;
  created_at: Timestamp;
  rotating_until: NullableTimestamp;
  disabled_at: NullableTimestamp;
}

export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  merchant_id: string;
  url: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  completed_at: NullableTimestamp;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  attempt: number;
  attempted_at: Timestamp;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  succeeded: boolean;
}

/** Background work (src/jobs/): one row a job, deleted when done, kept `failed` when it gave up. */
export interface JobsTable {
  id: Generated<number>;
  queue: string;
  key: string;
  merchant_id: string | null;
  payload: Json<Record<string, unknown>>;
  status: ColumnType<'queued' | 'failed', 'queued' | 'failed' | undefined, 'queued' | 'failed'>;
  run_at: Timestamp;
  attempts: ColumnType<number, number | undefined, number>;
  locked_by: string | null;
  locked_until: NullableTimestamp;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Database extends JobTables {}
interface JobTables {
  jobs: JobsTable;
}
