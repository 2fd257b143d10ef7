import { AppError } from './errors.ts';
import type { ApiKeyRecord } from './api-key.ts';
import type { Merchant } from './merchant.ts';

/**
 * Who is asking. Every use case that reads or changes merchant data takes an actor first, and
 * `scope` alone decides what that actor may see: a read can never forget whose data it is.
 *
 * - `merchant`: authenticated by its secret API key (REST, GraphQL, streams).
 * - `operator`: authenticated by the operator token (GraphQL, the CLI through it).
 * - `customer`: whoever holds a payment's hosted-page address (the unguessable id is the
 *   capability); may see and act on that one payment only.
 * - `provider`: a payment provider's notification, authenticated by the provider's signature.
 * - `system`: zarpay's own background work (webhook delivery, reconciliation), never an adapter's.
 */
export type Actor =
  | { readonly kind: 'merchant'; readonly merchant: Merchant; readonly key: ApiKeyRecord }
  /** `name`: who at the console, as the CLI reports it (`X-Operator-Name`), for the audit log. */
  | { readonly kind: 'operator'; readonly name?: string }
  | { readonly kind: 'customer'; readonly paymentId: string }
  | { readonly kind: 'provider'; readonly provider: string }
  | { readonly kind: 'system'; readonly task: string };

export type MerchantActor = Extract<Actor, { kind: 'merchant' }>;

export const OPERATOR: Actor = Object.freeze({ kind: 'operator' });

/** The merchants a read covers: one, or (operator and system only) all of them. */
export type MerchantScope = { readonly merchantId: string } | { readonly all: true };

const notYours = () => new AppError('FORBIDDEN', 'merchantId: a merchant may only name itself');

/**
 * The tenant rule, for the whole service: a merchant sees only itself, and naming another
 * merchant is FORBIDDEN wherever a merchant can be named; the operator (and zarpay's own
 * background work) sees the merchant it names, or every merchant when it names none. Nobody
 * else reads by merchant.
 */
export function scope(actor: Actor, requested?: string | null): MerchantScope {
  switch (actor.kind) {
    case 'merchant':
      if (requested != null && requested.toLowerCase() !== actor.merchant.id) throw notYours();
      return { merchantId: actor.merchant.id };
    case 'operator':
    case 'system':
      return requested != null ? { merchantId: requested.toLowerCase() } : { all: true };
    default:
      throw new AppError('FORBIDDEN', 'not allowed for this caller');
  }
}

/** The one merchant a use case acts for: the merchant itself, or the one the operator names (required). */
export function oneMerchant(actor: Actor, requested?: string | null): string {
  const s = scope(actor, requested);
  if ('all' in s) throw new AppError('VALIDATION_FAILED', 'merchantId: required for the operator');
  return s.merchantId;
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
      return `merchant:${actor.merchant.id}`;
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
