import { randomUUID } from 'node:crypto';
import { findMerchants } from '../db/merchants.ts';
import * as store from '../db/payment-links.ts';
import { authorize } from '../domain/access.ts';
import { type Actor, requireMerchant, scope } from '../domain/actor.ts';
import { AppError } from '../domain/errors.ts';
import { isUuid } from '../domain/ids.ts';
import { outsideLimitsMessage, type PaymentLimits } from '../domain/merchant.ts';
import type { Payment } from '../domain/payment.ts';
import type { CreatePaymentLinkInput, ListPaymentLinksQuery, PaymentLink, PaymentLinkAddresses, UpdatePaymentLinkInput } from '../domain/payment-link.ts';
import type { ServiceDeps } from './deps.ts';
import type { PaymentLinks } from './payment-links.ts';
import type { PaymentService } from './payments.ts';
import type { RateLimitDecision, RateLimitService } from './rate-limits.ts';

const notFound = () => new AppError('NOT_FOUND', 'payment link not found');

/** A link as its public page shows it. */
export interface PublicLink {
  link: PaymentLink;
  merchantName: string;
  /** The merchant's payment limits, for the page to say when a typed amount is outside them. */
  limits: PaymentLimits;
  /** Switched off, or single-use and already paid: the page takes no payment. */
  closed: boolean;
}

/** What a customer's press of the link page's button came to. */
export type LinkPayment =
  | { kind: 'created'; payment: Payment; paymentUrl: string }
  | { kind: 'closed' }
  | { kind: 'outsideLimits'; limits: PaymentLimits }
  | { kind: 'limited'; decision: RateLimitDecision };

/**
 * Payment links (CONTRACT §11): the merchant creates, lists and switches them off; a customer
 * holding a link's address opens its page and makes a payment of the link's merchant through it.
 * Making payments is `payments.create` (docs/access.md); reading links is `read`.
 */
export class PaymentLinkService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly addressesOf: PaymentLinks,
    private readonly payments: PaymentService,
    private readonly rateLimits: RateLimitService,
  ) {}

  async create(actor: Actor, input: CreatePaymentLinkInput): Promise<PaymentLink> {
    const { merchant } = requireMerchant(actor);
    authorize(actor, 'payments.create');
    if (input.amountCents !== undefined) {
      // A fixed amount outside the merchant's limits could never be paid: refused now, as a payment's would be.
      const [fresh] = await findMerchants(this.deps.db, [merchant.id]);
      const limits = fresh?.paymentLimits ?? merchant.paymentLimits;
      if (input.amountCents < limits.minCents || input.amountCents > limits.maxCents) {
        const message = outsideLimitsMessage(limits);
        throw new AppError('INVALID_AMOUNT', `amountCents: ${message}`, { fields: [{ path: ['amountCents'], message }] });
      }
    }
    return store.insertPaymentLink(this.deps.db, {
      id: randomUUID(),
      merchantId: merchant.id,
      description: input.description,
      amountCents: input.amountCents ?? null,
      merchantReference: input.merchantReference ?? null,
      singleUse: input.singleUse ?? false,
    });
  }

  /** One link; unknown, malformed or another merchant's: 404 NOT_FOUND. */
  async get(actor: Actor, id: string): Promise<PaymentLink> {
    authorize(actor, 'read');
    const link = isUuid(id) ? await store.findPaymentLink(this.deps.db, scope(actor), id.toLowerCase()) : undefined;
    if (!link) throw notFound();
    return link;
  }

  /** Links by id in key order, null where missing or outside the scope (a DataLoader batch). */
  async getMany(actor: Actor, ids: readonly string[]): Promise<(PaymentLink | null)[]> {
    const s = scope(actor);
    return Promise.all(ids.map(async (id) => (isUuid(id) ? ((await store.findPaymentLink(this.deps.db, s, id.toLowerCase())) ?? null) : null)));
  }

  /** Opens (`active: true`) or closes a link. */
  async update(actor: Actor, id: string, input: UpdatePaymentLinkInput): Promise<PaymentLink> {
    authorize(actor, 'payments.create');
    if (!isUuid(id) || !(await store.setPaymentLinkActive(this.deps.db, scope(actor), id.toLowerCase(), input.active))) throw notFound();
    return this.get(actor, id);
  }

  /** Offset listing, newest first, beside the number of links. */
  list(actor: Actor, query: ListPaymentLinksQuery & { merchantId?: string | null }) {
    authorize(actor, 'read');
    return store.listPaymentLinks(this.deps.db, scope(actor, query.merchantId), query);
  }

  /** A keyset page, newest first unless `inverted` (GraphQL connections). */
  page(actor: Actor, request: { merchantId?: string | null; after: number | null; before: number | null; limit: number; inverted: boolean }) {
    authorize(actor, 'read');
    return store.pagePaymentLinks(this.deps.db, scope(actor, request.merchantId), request);
  }

  count(actor: Actor, merchantId?: string | null) {
    return store.countPaymentLinks(this.deps.db, scope(actor, merchantId));
  }

  /** Where a link is opened, and its QR code. */
  addresses(link: Pick<PaymentLink, 'id'>): PaymentLinkAddresses {
    const url = this.addressesOf.linkUrl(link.id);
    return { url, qrCode: { content: url, imageUrl: this.addressesOf.linkQrImageUrl(link.id) } };
  }

  /** The link behind a public page: anyone holding its address may read this much. */
  async open(id: string): Promise<PublicLink> {
    const found = isUuid(id) ? await store.findPublicPaymentLink(this.deps.db, id.toLowerCase()) : undefined;
    if (!found) throw notFound();
    const [merchant] = await findMerchants(this.deps.db, [found.link.merchantId]);
    if (!merchant) throw notFound();
    return { link: found.link, merchantName: found.merchantName, limits: merchant.paymentLimits, closed: !found.link.active || (found.link.singleUse && found.paid) };
  }

  /**
   * A customer pays through a link: one payment of the link's merchant, for the link's amount or
   * `typedCents`. Nothing is made for a closed link or an amount outside the merchant's limits.
   * What an anonymous caller can make is bounded: each link's presses count against the
   * `payment_init` budget of that link (beside the address's `anonymous` budget the page's gate
   * spends), and a payment left unpaid expires (PAYMENT_EXPIRES_AFTER_MS).
   */
  async pay(id: string, typedCents: number | null): Promise<LinkPayment> {
    const opened = await this.open(id);
    if (opened.closed) return { kind: 'closed' };
    const amount = opened.link.amountCents ?? typedCents;
    const { minCents, maxCents } = opened.limits;
    if (amount === null || amount < minCents || amount > maxCents) return { kind: 'outsideLimits', limits: opened.limits };
    const decision = await this.rateLimits.consume(`link:${opened.link.id}`, 'payment_init');
    if (decision && !decision.allowed) return { kind: 'limited', decision };
    try {
      const payment = await this.payments.initThroughLink(opened.link, amount);
      return { kind: 'created', payment, paymentUrl: this.addressesOf.paymentUrl(payment.id) };
    } catch (e) {
      // The limits changed between the read and the write: the write's own check is the one that holds.
      if (e instanceof AppError && e.code === 'INVALID_AMOUNT') return { kind: 'outsideLimits', limits: (await this.open(id)).limits };
      throw e;
    }
  }
}
