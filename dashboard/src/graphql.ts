import { initGraphQLTada, type ResultOf, type TadaDocumentNode, type VariablesOf } from 'gql.tada';
import { print } from '@0no-co/graphql.web';
import { createClient, type Client } from 'graphql-sse';
import type { introspection } from './graphql-env.d.ts';

/**
 * The dashboard's GraphQL: documents typed from schema.graphql (gql.tada), sent to zarpay's own
 * `/graphql` with the session cookie and its CSRF token, like any other client of the API.
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
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 200,
  ) {
    super(message);
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
  let body: { data?: R; errors?: { message: string; extensions?: { code?: string } }[] };
  try {
    body = await res.json();
  } catch {
    throw new ApiError('INTERNAL_ERROR', `the service answered ${res.status}`, res.status);
  }
  const first = body.errors?.[0];
  if (first) {
    const code = first.extensions?.code ?? (res.status === 401 ? 'UNAUTHORIZED' : 'INTERNAL_ERROR');
    if (code === 'UNAUTHORIZED') onSignedOut();
    throw new ApiError(code, first.message, res.status);
  }
  return body.data as R;
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

/** Amounts as `R 1 234.56` (cents in, rand out; a minus sign for debits). */
export function rand(cents: number | null | undefined): string {
  if (cents == null) return '—';
  const sign = cents < 0 ? '−' : '';
  const abs = Math.abs(Math.round(cents));
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return `${sign}R ${whole}.${String(abs % 100).padStart(2, '0')}`;
}

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString('en-ZA', { dateStyle: 'medium', timeStyle: 'short' }) : '—');
