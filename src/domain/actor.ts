import { AppError } from './errors.ts';
import type { ApiKeyRecord } from './api-key.ts';
import type { Merchant } from './merchant.ts';
import type { Role, SessionPerson } from './people.ts';
import { isUuid } from './ids.ts';
import { paymentNotFound } from './payment.ts';
import type { ProviderNotification } from './provider-notification.ts';

/**
 * Who is asking. Every use case that reads or changes merchant data takes an actor first, and
 * this module alone decides what that actor may see (`scope`, `paymentScope`): every read of the
 * data layer takes the scope it decided, so a read can never forget whose data it is.
 *
 * An adapter never makes one up: the caller step (src/http/caller.ts) mints each from a
 * credential it has checked, once per request, and the customer and provider kinds exist only
 * once their proof has.
 *
 * - `merchant`: authenticated by its secret API key (REST, GraphQL, streams); sees itself.
 * - `operator`: authenticated by the operator token (GraphQL, the CLI through it); sees the
 *   merchant it names, or every merchant.
 * - `customer`: whoever holds a payment's hosted-page address (the unguessable id is the
 *   capability; a form post must also carry the page's token, a QR image its signed link);
 *   may see and act on that one payment only.
 * - `provider`: a payment provider, authenticated by its signature over one notification,
 *   which comes with it (null: a verified event zarpay has no use for); reaches the payments it
 *   was asked to take (those with an attempt of its own), nothing else.
 * - `system`: zarpay's own background work (webhook delivery, reconciliation), never an adapter's;
 *   sees every merchant.
 */
export type Actor =
  /**
   * A merchant, by one of its secret keys (`key`), or by one of its people signed in to the
   * dashboard (`person`: their session and role; CONTRACT §10). Exactly one of the two is set.
   */
  | { readonly kind: 'merchant'; readonly merchant: Merchant; readonly key: ApiKeyRecord; readonly person?: undefined }
  | { readonly kind: 'merchant'; readonly merchant: Merchant; readonly key?: undefined; readonly person: SessionPerson }
  /** `name`: who at the console, as the CLI reports it (`X-Operator-Name`), for the audit log. */
  | { readonly kind: 'operator'; readonly name?: string }
  | { readonly kind: 'customer'; readonly paymentId: string }
  | { readonly kind: 'provider'; readonly provider: string; readonly notification: ProviderNotification | null }
  | { readonly kind: 'system'; readonly task: string };

export type MerchantActor = Extract<Actor, { kind: 'merchant' }>;
/** A merchant by one of its secret keys. */
export type KeyActor = Extract<MerchantActor, { key: ApiKeyRecord }>;

export const OPERATOR: Actor = Object.freeze({ kind: 'operator' });

/**
 * Only this module makes scopes: the brand exists in the types alone, so a service can neither
 * write a scope by hand (`{ all: true }`) nor pass some other object that has a `merchantId`.
 */
declare const decided: unique symbol;
type Decided<T> = T & { readonly [decided]: true };
const decide = <T>(s: T) => s as Decided<T>;

/** The merchants a read covers: one, or (operator and system only) all of them. */
export type MerchantScope = Decided<{ readonly merchantId: string }> | Decided<{ readonly all: true }>;

/** Exactly one merchant: what a read of one merchant's own record (its balance, a reference) takes. */
export type OneMerchantScope = Extract<MerchantScope, { readonly merchantId: string }>;

/**
 * The payments (and their attempts and vouchers) a read covers: a merchant scope, or what a
 * capability reaches. A customer holds one payment's hosted-page address and reaches that payment
 * only; a provider's signed notification reaches the payments it was asked to take, through its
 * own attempts. Neither reaches anything by merchant.
 */
export type PaymentScope = MerchantScope | Decided<{ readonly paymentId: string }> | Decided<{ readonly provider: string }>;

const notYours = () => new AppError('FORBIDDEN', 'merchantId: a merchant may only name itself');

/**
 * The tenant rule, for the whole service: a merchant sees only itself, and naming another
 * merchant is FORBIDDEN wherever a merchant can be named; the operator (and zarpay's own
 * background work) sees the merchant it names, or every merchant when it names none. Nobody
 * else reads by merchant (a customer or a provider reaches payments only: `paymentScope`).
 */
export function scope(actor: Actor, requested?: string | null): MerchantScope {
  switch (actor.kind) {
    case 'merchant':
      if (requested != null && requested.toLowerCase() !== actor.merchant.id) throw notYours();
      return decide({ merchantId: actor.merchant.id });
    case 'operator':
    case 'system':
      return requested != null ? decide({ merchantId: requested.toLowerCase() }) : decide({ all: true as const });
    default:
      throw new AppError('FORBIDDEN', 'not allowed for this caller');
  }
}

/** The one merchant a use case acts for, as a scope: the merchant itself, or the one the operator names (required). */
export function oneMerchantScope(actor: Actor, requested?: string | null): OneMerchantScope {
  const s = scope(actor, requested);
  if ('all' in s) throw new AppError('VALIDATION_FAILED', 'merchantId: required for the operator');
  return s;
}

/** The one merchant a use case acts for: the merchant itself, or the one the operator names (required). */
export const oneMerchant = (actor: Actor, requested?: string | null): string => oneMerchantScope(actor, requested).merchantId;

/**
 * The payments an actor reaches: a customer the one payment its hosted-page address names (an id
 * that is no payment's reaches none: PAYMENT_NOT_FOUND), a provider the payments with an attempt
 * of its own, anyone else its merchant scope.
 */
export function paymentScope(actor: Actor): PaymentScope {
  switch (actor.kind) {
    case 'customer':
      if (!isUuid(actor.paymentId)) throw paymentNotFound();
      return decide({ paymentId: actor.paymentId.toLowerCase() });
    case 'provider':
      return decide({ provider: actor.provider });
    default:
      return scope(actor);
  }
}

/** The merchant column value a statement filters on: the one merchant, or null for all. */
export const merchantFilter = (s: MerchantScope): string | null => ('all' in s ? null : s.merchantId);

/** Whether `merchantId`'s data is within `s`. */
export const covers = (s: MerchantScope, merchantId: string) => 'all' in s || s.merchantId === merchantId;

/** Use cases only a merchant performs (it is their money): anyone else is FORBIDDEN. */
export function requireMerchant(actor: Actor): MerchantActor {
  if (actor.kind !== 'merchant') throw new AppError('FORBIDDEN', 'only a merchant may do this');
  return actor;
}

/** How the audit log names an actor: `operator:thandi`, `system:reconciler`, `provider:yoco`. */
export function actorLabel(actor: Actor): string {
  switch (actor.kind) {
    case 'operator':
      return actor.name ? `operator:${actor.name}` : 'operator';
    case 'merchant':
      return actor.person ? `merchant:${actor.merchant.id}/person:${actor.person.personId}` : `merchant:${actor.merchant.id}`;
    case 'customer':
      return 'customer';
    case 'provider':
      return `provider:${actor.provider}`;
    case 'system':
      return `system:${actor.task}`;
  }
}

/** An operator's self-declared name (`X-Operator-Name`): short, printable, or nothing. */
export const OPERATOR_NAME = /^[A-Za-z0-9._@+ -]{1,64}$/;

/** Use cases only the operator performs (approvals, credits, keys). */
export function requireOperator(actor: Actor): void {
  if (actor.kind !== 'operator') throw new AppError('FORBIDDEN', 'only the operator may do this');
}
