import {
  defaultFieldResolver,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  GraphQLError,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { type Action, refusal } from '../domain/access.ts';
import type { Actor } from '../domain/actor.ts';
import type { GraphQLContext } from './builder.ts';

/**
 * Who may run which root field, by the one access table (src/domain/access.ts): the action each
 * mutation takes for a merchant's caller, `operator` where only the operator may run it at all
 * (its `authScopes` refuse everyone else). Every mutation of the schema must be named here:
 * `guardMutations` refuses to build a schema with one that is not, so none is ever open by default.
 */
export const MUTATION_ACCESS: Readonly<Record<string, Action | 'operator'>> = {
  initiatePayment: 'payments.create',
  createPaymentLink: 'payments.create',
  updatePaymentLink: 'payments.create',
  requestPayment: 'payments.request',
  refundPayment: 'refunds.create',
  createPayout: 'payouts.create',
  issueApiKey: 'keys.manage',
  revokeApiKey: 'keys.manage',
  regenerateSecretKey: 'keys.manage',
  createWebhookSecret: 'webhooks.manage',
  rotateWebhookSecret: 'webhooks.manage',
  updateWebhookUrl: 'webhooks.manage',
  redeliverEvent: 'webhooks.manage',
  // The least it may need: a change of the webhook URL alone is a developer's (the service decides the rest).
  updateMerchantSettings: 'webhooks.manage',
  invitePerson: 'people.manage',
  removePerson: 'people.manage',
  changePersonRole: 'people.manage',
  requireSecondFactor: 'people.manage',
  setLanguage: 'profile.update',
  beginSecondFactorSetup: 'profile.update',
  confirmSecondFactorSetup: 'profile.update',
  removeSecondFactor: 'profile.update',
  createPayee: 'payees.manage',
  removePayee: 'payees.manage',
  approvePayout: 'operator',
  cancelPayout: 'operator',
  completePayout: 'operator',
  createMerchant: 'operator',
  creditBalance: 'operator',
  expireApiKey: 'operator',
  exportPayoutBatch: 'operator',
  failPayout: 'operator',
  importBankReport: 'operator',
  notifyPayment: 'operator',
  reconcilePayment: 'operator',
  reissuePayoutBatchFile: 'operator',
  rejectPayout: 'operator',
  resolveRefund: 'operator',
  retryJob: 'operator',
  returnPayout: 'operator',
  revealPayoutBankAccount: 'operator',
  settlePayment: 'operator',
  settleRefund: 'operator',
  startPayoutTransfer: 'operator',
  updateMerchant: 'operator',
};

/** Queries that take more than reading; every other query and subscription field is `read`. */
const QUERY_ACCESS: Readonly<Record<string, Action>> = { auditLog: 'audit.read' };

/** The action a root field takes, by operation type. */
function actionOf(operation: OperationDefinitionNode['operation'], field: string): Action | 'operator' {
  if (operation === 'mutation') return MUTATION_ACCESS[field] ?? 'people.manage';
  return (operation === 'query' && QUERY_ACCESS[field]) || 'read';
}

/** The names of an operation's root fields, through fragments and inline fragments. */
function rootFields(document: DocumentNode, selectionSet: SelectionSetNode, into = new Set<string>()): Set<string> {
  for (const s of selectionSet.selections) {
    if (s.kind === Kind.FIELD) into.add((s as FieldNode).name.value);
    else if (s.kind === Kind.INLINE_FRAGMENT) rootFields(document, s.selectionSet, into);
    else {
      const fragment = document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === s.name.value);
      if (fragment?.kind === Kind.FRAGMENT_DEFINITION) rootFields(document, fragment.selectionSet, into);
    }
  }
  return into;
}

/**
 * The refusal of an operation that asks for something the caller's role (a session's person, or
 * what a key carries) may not do: FORBIDDEN before anything of it runs, and before it is counted
 * against the merchant's budgets, so a viewer's refused mutations cannot use up what the owner
 * needs. The use cases check the same table again when they run.
 */
export function accessRefusal(actor: Actor | undefined, document: DocumentNode, operation: OperationDefinitionNode): ExecutionResult | undefined {
  if (actor?.kind !== 'merchant') return undefined;
  for (const field of rootFields(document, operation.selectionSet)) {
    const action = actionOf(operation.operation, field);
    const why = action === 'operator' ? undefined : refusal(actor, action);
    if (why) return { errors: [new GraphQLError(why, { extensions: { code: 'FORBIDDEN', http: { status: 403 } } })] };
  }
  return undefined;
}

/**
 * Wraps every mutation of the schema so that a change a person makes in the dashboard is written
 * to the audit log with who they are. Refuses to build a schema with a mutation the access table
 * does not name.
 */
export function guardMutations(schema: GraphQLSchema): GraphQLSchema {
  const mutation = schema.getMutationType();
  if (!mutation) return schema;
  for (const field of Object.values(mutation.getFields())) {
    if (!(field.name in MUTATION_ACCESS)) throw new Error(`Mutation.${field.name} is not in MUTATION_ACCESS (src/graphql/roles.ts): name who may run it`);
    const resolve = field.resolve ?? defaultFieldResolver;
    field.resolve = async (source, args, ctx: GraphQLContext, info) => {
      const actor = ctx.actor;
      if (actor?.kind !== 'merchant' || !actor.person) return resolve(source, args, ctx, info);
      const result = await resolve(source, args, ctx, info);
      await ctx.services.audit.recordPersonAction(actor, field.name, ...auditTarget(result, args));
      return result;
    };
  }
  return schema;
}

/**
 * What a person's mutation touched, for the audit log's words: the payout, payment or refund its
 * result carries (and the refund's amount), the webhook URL or invited address its arguments give.
 * Never a secret: results carrying keys or signing secrets are not read.
 */
function auditTarget(result: unknown, args: Record<string, unknown>): [Record<string, unknown>, { paymentId?: string | null; payoutId?: string | null }] {
  const r = (result ?? {}) as Record<string, { id?: unknown; paymentId?: unknown; amountCents?: unknown } | undefined>;
  const detail: Record<string, unknown> = {};
  const target: { paymentId?: string | null; payoutId?: string | null } = {};
  if (typeof r.payout?.id === 'string') target.payoutId = r.payout.id;
  if (typeof r.payment?.id === 'string') target.paymentId = r.payment.id;
  if (typeof r.refund?.paymentId === 'string') {
    target.paymentId = r.refund.paymentId;
    detail.refund_id = r.refund.id;
    detail.amount_cents = r.refund.amountCents;
  }
  if ('url' in args) detail.url = args.url ?? null;
  if (typeof args.email === 'string') detail.invited = args.email;
  if (typeof args.eventId === 'string') detail.event_id = args.eventId;
  return [detail, target];
}
