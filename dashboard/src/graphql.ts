import { initGraphQLTada, type ResultOf, type TadaDocumentNode, type VariablesOf } from 'gql.tada';
import { print } from '@0no-co/graphql.web';
import { createClient, type Client } from 'graphql-sse';
import type { introspection } from './graphql-env.d.ts';
import { t } from './i18n.ts';

/**
 * The dashboard's GraphQL: documents typed from schema.graphql (gql.tada), sent to zarpay's own
 * `/graphql` with the session cookie and its CSRF token, like any other client of the API; and
 * the three plain POSTs that make or end that cookie.
 */
export const graphql = initGraphQLTada<{
  introspection: introspection;
  scalars: { DateTime: string; UUID: string; Money: number; JSON: unknown };
}>();
export type { ResultOf, VariablesOf };

/** The session's CSRF token, from the cookie sign-in set (readable by this origin only). */
export function csrf(): string {
  const found = document.cookie.split('; ').find((c) => c.startsWith('zarpay_csrf='));
  return found ? decodeURIComponent(found.slice('zarpay_csrf='.length)) : '';
}

/** A refusal as the API words it: its code (FORBIDDEN, VALIDATION_FAILED, …) and message. */
/** One problem of a refused input, named by its field (`input.paymentDetails.branchCode`). */
export interface ProblemDetail {
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 200,
    /** Every problem of a refused input, by field: a form shows each beside its field. */
    readonly details: readonly ProblemDetail[] = [],
  ) {
    super(message);
  }

  /** What is wrong with the field whose name ends with `field` (`branchCode`, `paymentDetails.accountNumber`), if anything. */
  about(field: string): string | undefined {
    return this.details.find((d) => d.field === field || d.field.endsWith(`.${field}`))?.message;
  }
}

/** Sends one operation; throws ApiError on any error (UNAUTHORIZED: the session has ended). */
export async function request<R, V>(doc: TadaDocumentNode<R, V>, variables?: V): Promise<R> {
  const res = await fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', 'x-csrf-token': csrf() },
    body: JSON.stringify({ query: print(doc), variables: variables ?? {} }),
    credentials: 'same-origin',
  });
  let body: { data?: R; errors?: { message: string; extensions?: { code?: string; details?: ProblemDetail[] } }[] };
  try {
    body = await res.json();
  } catch {
    throw new ApiError('INTERNAL_ERROR', t('ui.serviceAnswered', { status: res.status }), res.status);
  }
  const first = body.errors?.[0];
  if (first) {
    const code = first.extensions?.code ?? (res.status === 401 ? 'UNAUTHORIZED' : 'INTERNAL_ERROR');
    if (code === 'UNAUTHORIZED') onSignedOut();
    throw new ApiError(code, first.message, res.status, first.extensions?.details ?? []);
  }
  return body.data as R;
}

/**
 * Sign-in and the password from an invite link: plain POSTs, not GraphQL, because they make the
 * session cookie itself. Throws ApiError as `request` does.
 */
export async function post(path: string, body: unknown) {
  const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), credentials: 'same-origin' });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiError(json.error?.code ?? 'INTERNAL_ERROR', json.error?.message ?? t('ui.failedWith', { status: res.status }), res.status);
  return json;
}

/** Sign-out, the third such POST: it ends the session cookie, whatever it answers. */
export async function signOut() {
  await fetch('/dashboard/logout', { method: 'POST', headers: { 'x-csrf-token': csrf() }, credentials: 'same-origin' });
}

let signedOut = () => {};
function onSignedOut() {
  signedOut();
}
/** What happens when the API says the session has ended: back to sign-in. */
export function whenSignedOut(f: () => void) {
  signedOut = f;
}

let sse: Client<true> | undefined;
/** The live event stream (graphql-sse), one connection for the page. */
export function events(): Client<true> {
  sse ??= createClient({ url: '/graphql/stream', singleConnection: true, headers: () => ({ 'x-csrf-token': csrf() }), retryAttempts: 5 });
  return sse;
}

/** Subscribes with a typed document; returns how to stop. */
export function live<R, V>(doc: TadaDocumentNode<R, V>, variables: V, next: (r: R) => void): () => void {
  return events().subscribe<R>({ query: print(doc), variables: variables as Record<string, unknown> }, {
    next: (r) => r.data && next(r.data as R),
    error: () => {},
    complete: () => {},
  });
}
