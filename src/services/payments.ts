import { randomUUID } from 'node:crypto';
import * as store from '../db/payments.ts';
import type { DbOrTx, Tx } from '../db/index.ts';
import { authorize, roleOf } from '../domain/access.ts';
import { type Actor, type MerchantScope, merchantFilter, oneMerchantScope, requireMerchant, scope } from '../domain/actor.ts';
import { requestDigest } from '../domain/canonical.ts';
import { AppError, type FieldProblem } from '../domain/errors.ts';
import { isUuid } from '../domain/ids.ts';
import { type Payment, type PaymentInitiation, type PaymentLinks as Links, paymentNotFound, type PaymentStatus, type RedirectWarning } from '../domain/payment.ts';
import { paymentSearch } from '../domain/payment-search.ts';
import { outsideLimitsMessage } from '../domain/merchant.ts';
import { redirectAllowed } from '../domain/redirect.ts';
import type { PaymentLink } from '../domain/payment-link.ts';
import type { RequestPaymentInput } from '../domain/payment-request.ts';
import { type InitiatePaymentInput, type ListPaymentsQuery, PAYMENT_URL_FIELDS, withDefaults } from '../domain/payment-input.ts';
import { webhookUrlProblem } from '../domain/webhook-url.ts';
import { keyringOf, type ServiceDeps } from './deps.ts';
import type { PaymentLinks } from './payment-links.ts';
import { maskVoucherCode, revealed } from './vouchers.ts';

/** The return addresses the hosted page may send a customer to. */
const REDIRECT_FIELDS = ['successUrl', 'cancelUrl', 'failureUrl'] as const;

/** Spec: an Idempotency-Key is kept 24 hours; after that the key may be used afresh. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** Filters of the GraphQL connection beside status: REST's `merchant_order_id`, `created_from`, `created_to` (exclusive instant). */
export interface PaymentFilters {
  merchantOrderId?: string | undefined;
  createdFrom?: Date | undefined;
  createdTo?: Date | undefined;
  /** REST's `q`: an order reference, an amount in rand or a customer's e-mail (domain/payment-search.ts). */
  q?: string | undefined;
}

export interface PaymentPageRequest extends PaymentFilters {
  merchantId?: string | null;
  status?: PaymentStatus | null;
  after: number | null;
  before: number | null;
  limit: number;
  inverted: boolean;
}

/** A search looks within one merchant (its statements are planned per merchant): the operator names one. */
function searchScope(s: MerchantScope, f: PaymentFilters): MerchantScope {
  if (f.q !== undefined && merchantFilter(s) === null) throw new AppError('VALIDATION_FAILED', 'search: name the merchant (merchantId) to search within');
  return s;
}

const storeFilter = (f: PaymentFilters): store.PaymentListFilter => ({
  merchantOrderId: f.merchantOrderId,
  createdFrom: f.createdFrom,
  createdBefore: f.createdTo,
  search: f.q === undefined ? undefined : paymentSearch(f.q),
});

/** Payments: initiation with its idempotency rules, and reads. Transitions are in payment-flow.ts. */
export class PaymentService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly addresses: PaymentLinks,
  ) {}

  /**
   * A merchant initiates a payment. The database decides every race: the Idempotency-Key's
   * primary key makes concurrent first uses wait for the winner and then replay its payment;
   * `(merchant_id, merchant_order_id)` does the same for order ids.
   *
   * Both compare the canonical parsed input, not the bytes of a request: fields by their domain
   * name, key order ignored, null as absent, so a REST body and a GraphQL input that give the
   * same fields replay each other. An Idempotency-Key compares the request as given (CONTRACT §4
   * "equal JSON values"): same key + same input → the same payment; another → 409 CONFLICT. A
   * `merchant_order_id` compares the payment's parameters, defaults included: same → the same
   * payment; other → 409 DUPLICATE_ORDER_ID.
   */
  async init(actor: Actor, input: InitiatePaymentInput, idempotencyKey?: string): Promise<PaymentInitiation> {
    const { merchant } = requireMerchant(actor);
    authorize(actor, 'payments.create');
    this.checkAddresses(input);
    const params = withDefaults(input);
    const paramsHash = requestDigest(keyringOf(this.deps), params);
    // The allow-list as the caller step read it with the key (PATCH /api/v1/merchant forgets that copy).
    const domains = merchant.redirectDomains;
    if (idempotencyKey === undefined) return this.initiation(await this.insertOrReplay(this.deps.db, merchant.id, params, paramsHash), domains);
    const requestHash = requestDigest(keyringOf(this.deps), input);
    const result = await this.deps.db.transaction().execute(async (tx) => {
      if (!(await store.claimIdempotencyKey(tx, merchant.id, idempotencyKey, requestHash, IDEMPOTENCY_TTL_MS))) {
        const used = await store.usedIdempotencyKey(tx, oneMerchantScope(actor), idempotencyKey);
        if (!used || used.request_hash !== requestHash || used.payment_id === null) {
          throw new AppError('CONFLICT', 'Idempotency-Key was already used with a different payload');
        }
        const [payment] = await store.findPayments(tx, scope(actor), [used.payment_id]);
        if (!payment) throw new Error(`Idempotency-Key ${idempotencyKey} names a missing payment`);
        return { payment: this.reveal(payment), created: false };
      }
      const made = await this.insertOrReplay(tx, merchant.id, params, paramsHash);
      await store.bindIdempotencyKey(tx, merchant.id, idempotencyKey, made.payment.id);
      return made;
    });
    return this.initiation(result, domains);
  }

  /**
   * A payment made through a payment link (CONTRACT §11), for the link's merchant: the link's
   * description, redeemed at capture like any payment the merchant makes without saying
   * otherwise, under an order id of its own. The caller (PaymentLinkService) found the link open.
   */
  async initThroughLink(link: Pick<PaymentLink, 'id' | 'merchantId' | 'description'>, amountCents: number): Promise<Payment> {
    const params = withDefaults({ amount: amountCents, currency: 'ZAR', merchantOrderId: `link-${link.id}-${randomUUID()}`, description: link.description });
    const made = await this.insertOrReplay(this.deps.db, link.merchantId, params, requestDigest(keyringOf(this.deps), params), link.id);
    return made.payment;
  }

  /**
   * A payment a merchant asks a customer for by e-mail (CONTRACT §11, services/payment-requests.ts),
   * under the merchant's order id or one of its own: `then` runs in the transaction that writes
   * it (the e-mail's job), so the request is sent exactly when the payment exists. The same order
   * id and input again replay the payment, and `then` does not run.
   */
  async initRequest(actor: Actor, input: RequestPaymentInput, then: (tx: Tx, payment: Payment) => Promise<void>): Promise<{ payment: Payment; created: boolean }> {
    const { merchant } = requireMerchant(actor);
    authorize(actor, 'payments.request');
    const params = withDefaults({
      amount: input.amountCents,
      currency: 'ZAR',
      merchantOrderId: input.merchantOrderId ?? `request-${randomUUID()}`,
      description: input.description,
      customerInfo: { email: input.customerEmail },
    });
    const hash = requestDigest(keyringOf(this.deps), params);
    try {
      return await this.deps.db.transaction().execute(async (tx) => {
        const made = await this.insertOrReplay(tx, merchant.id, params, hash);
        if (made.created) await then(tx, made.payment);
        return made;
      });
    } catch (e) {
      // The request's field is amountCents (a payment's is amount).
      if (e instanceof AppError && e.code === 'INVALID_AMOUNT') {
        const message = e.fields?.[0]?.message ?? e.message;
        throw new AppError('INVALID_AMOUNT', `amountCents: ${message}`, { fields: [{ path: ['amountCents'], message }] });
      }
      throw e;
    }
  }

  /**
   * In `prd` every address a payment is given must be https (spec "Versioning" 3), and its own
   * `webhookUrl` passes exactly the rules of the merchant's (CONTRACT §6): refused here, not
   * found out later when every delivery is blocked at connect time and nobody hears of it.
   */
  private checkAddresses(input: InitiatePaymentInput) {
    if (this.deps.config.serviceEnv !== 'prd') return;
    const problems: FieldProblem[] = PAYMENT_URL_FIELDS.filter((f) => input[f] !== undefined && !input[f]!.startsWith('https://')).map((f) => ({
      path: [f],
      message: 'must be an https URL',
    }));
    const webhookProblem = input.webhookUrl?.startsWith('https://') ? webhookUrlProblem(input.webhookUrl, true) : null;
    if (webhookProblem) problems.push({ path: ['webhookUrl'], message: webhookProblem });
    if (problems.length > 0) {
      throw new AppError('VALIDATION_FAILED', `${problems[0]!.path[0]}: ${problems[0]!.message}`, { fields: problems });
    }
  }

  private async insertOrReplay(db: DbOrTx, merchantId: string, input: ReturnType<typeof withDefaults>, hash: string, paymentLinkId: string | null = null) {
    const outcome = await store.insertPayment(db, {
      id: randomUUID(),
      merchantId,
      merchantOrderId: input.merchantOrderId,
      intentType: input.intentType,
      amountCents: input.amount,
      includeQr: input.includeQr,
      successUrl: input.successUrl ?? null,
      cancelUrl: input.cancelUrl ?? null,
      failureUrl: input.failureUrl ?? null,
      webhookUrl: input.webhookUrl ?? null,
      customerEmail: input.customerInfo?.email ?? null,
      customerPhone: input.customerInfo?.phone ?? null,
      description: input.description ?? null,
      paramsHash: hash,
      paymentLinkId,
    });
    if (!outcome) throw new AppError('NOT_FOUND', 'merchant not found');
    if ('outsideLimits' in outcome) {
      const message = outsideLimitsMessage(outcome.outsideLimits);
      throw new AppError('INVALID_AMOUNT', `amount: ${message}`, { fields: [{ path: ['amount'], message }] });
    }
    if ('feeNotCovered' in outcome) {
      const message = `must cover the fee of ${outcome.feeNotCovered} cents`;
      throw new AppError('INVALID_AMOUNT', `amount: ${message}`, { fields: [{ path: ['amount'], message }] });
    }
    if ('existing' in outcome) {
      if (outcome.paramsHash !== hash) throw new AppError('DUPLICATE_ORDER_ID', 'this merchant order id was already used with different parameters');
      return { payment: this.reveal(outcome.existing), created: false };
    }
    return { payment: this.reveal(outcome.created), created: true };
  }

  private initiation({ payment, created }: { payment: Payment; created: boolean }, redirectDomains: readonly string[]): PaymentInitiation {
    return { payment, links: this.links(payment), created, warnings: this.redirectWarnings(payment, redirectDomains) };
  }

  /**
   * A return address the hosted page will not follow is said, not ignored: the payment is made (the
   * specification lets the page show the result instead), and the answer names each such address
   * and why, so an integration sees it at once rather than when a customer is not sent back.
   */
  private redirectWarnings(p: Payment, redirectDomains: readonly string[]): RedirectWarning[] {
    const production = this.deps.config.serviceEnv === 'prd';
    return REDIRECT_FIELDS.filter((f) => p[f] !== null && !redirectAllowed(p[f], redirectDomains, production)).map((field) => {
      const host = URL.canParse(p[field]!) ? new URL(p[field]!).hostname : p[field]!;
      const onList = redirectDomains.some((d) => d.toLowerCase() === host.toLowerCase());
      return {
        field,
        message: onList
          ? 'the customer will not be sent here: in production a return address must be https on port 443'
          : `the customer will not be sent here: ${host} is not in the merchant's allowed_redirect_domains (PATCH /api/v1/merchant); the payment page shows the result instead`,
      };
    });
  }

  /** Where a payment is paid: its hosted page, and its signed QR image when it was asked for. */
  links(payment: Pick<Payment, 'id' | 'createdAt' | 'includeQr'>): Links {
    const paymentUrl = this.addresses.paymentUrl(payment.id);
    return { paymentUrl, qrCode: payment.includeQr ? { content: paymentUrl, imageUrl: this.addresses.qrImageUrl(payment) } : null };
  }

  /** The payment page's QR code, whether or not the payment asked for one at initiation (the dashboard shows it). */
  qrCode(payment: Pick<Payment, 'id' | 'createdAt'>) {
    return { content: this.addresses.paymentUrl(payment.id), imageUrl: this.addresses.qrImageUrl(payment) };
  }

  /** One payment; outside the actor's scope, unknown or malformed: 404 PAYMENT_NOT_FOUND. */
  async get(actor: Actor, id: string): Promise<Payment> {
    const payment = isUuid(id) ? await store.findPayment(this.deps.db, scope(actor), id.toLowerCase()) : undefined;
    if (!payment) throw paymentNotFound();
    return this.reveal(payment, actor);
  }

  /** Payments by id in key order, null where missing or outside the scope (a DataLoader batch). */
  async getMany(actor: Actor, ids: readonly string[]): Promise<(Payment | null)[]> {
    const s = scope(actor);
    const found = await store.findPayments(this.deps.db, s, ids.filter(isUuid).map((id) => id.toLowerCase()));
    const byId = new Map(found.filter((p) => p !== null).map((p) => [p.id, this.reveal(p, actor)]));
    return ids.map((id) => byId.get(id.toLowerCase()) ?? null);
  }

  /**
   * The customer details each payment was given at initiation (`customer_info`), in key order (a
   * DataLoader batch): null where a payment is missing or outside the scope, or none were given.
   */
  async customers(actor: Actor, ids: readonly string[]): Promise<({ email: string | null; phone: string | null } | null)[]> {
    const found = await store.findCustomers(this.deps.db, scope(actor), ids.filter(isUuid).map((id) => id.toLowerCase()));
    return ids.map((id) => {
      const c = found.get(id.toLowerCase());
      return c && (c.email !== null || c.phone !== null) ? c : null;
    });
  }

  /** Offset listing, newest first, `total` counting every match. */
  async list(actor: Actor, query: ListPaymentsQuery & { merchantId?: string | null }): Promise<{ payments: Payment[]; total: number }> {
    const { payments, total } = await store.listPayments(this.deps.db, searchScope(scope(actor, query.merchantId), query), { ...query, ...storeFilter(query) });
    return { payments: payments.map((p) => this.reveal(p, actor)), total };
  }

  /** A keyset page, newest first unless `inverted` (GraphQL connections). */
  async page(actor: Actor, request: PaymentPageRequest) {
    const rows = await store.pagePayments(this.deps.db, searchScope(scope(actor, request.merchantId), request), request.status ?? undefined, request, storeFilter(request));
    return rows.map(({ node, seq }) => ({ node: this.reveal(node, actor), seq }));
  }

  /**
   * The voucher code is sealed at rest; whoever may read the payment reads it in the clear, but
   * for a viewer (a session or a key carrying that role), who reads it masked: a code is money.
   */
  private reveal(payment: store.StoredPayment, reader?: Actor): Payment {
    const open = revealed(keyringOf(this.deps), payment, this.deps.db);
    return reader?.kind === 'merchant' && roleOf(reader) === 'viewer' ? { ...open, voucherCode: maskVoucherCode(open.voucherCode) } : open;
  }

  count(actor: Actor, filter: { merchantId?: string | null; status?: PaymentStatus | null } & PaymentFilters): Promise<number> {
    return store.countPayments(this.deps.db, searchScope(scope(actor, filter.merchantId), filter), filter.status ?? undefined, storeFilter(filter));
  }

  /** Housekeeping: forgets Idempotency-Keys past their 24 hours (expired keys are ignored anyway). */
  purgeExpiredKeys(): Promise<number> {
    return store.purgeExpiredKeys(this.deps.db);
  }
}
