import type { ComponentChildren } from 'preact';
import type { ApiError } from './graphql.ts';
import { follow } from './router.ts';

/** The widgets and formats every screen shares: links, loading, errors, tables, amounts. */

export function Link(props: { href: string; children: ComponentChildren; current?: boolean }) {
  return (
    <a href={props.href} aria-current={props.current ? 'page' : undefined} onClick={follow(props.href)}>
      {props.children}
    </a>
  );
}

/** A query's data once it is there; until then, that it is loading, or why it failed. */
export function Status<R>(props: { q: { data?: R; error?: ApiError; loading: boolean }; children: (data: R) => ComponentChildren }) {
  if (props.q.error) return <p class="error" role="alert">Could not load this: {props.q.error.message}</p>;
  if (props.q.data === undefined) return <p aria-busy="true">Loading…</p>;
  return <>{props.children(props.q.data)}</>;
}

/**
 * A form's refusal: what is wrong with fields shown beside them (`FieldProblem`) is left out
 * here, so each problem is said once, where it is.
 */
export function Failure(props: { error?: ApiError | null; shownBeside?: readonly string[] }) {
  if (!props.error) return null;
  const beside = props.shownBeside ?? [];
  if (beside.length > 0 && props.error.details.length > 0 && props.error.details.every((d) => beside.some((f) => d.field === f || d.field.endsWith(`.${f}`)))) return null;
  return (
    <p class="error" role="alert">
      {props.error.code === 'FORBIDDEN' ? 'Not allowed: ' : ''}
      {props.error.message}
    </p>
  );
}

/**
 * A table in a region that scrolls sideways on small screens (focusable, so that a keyboard can
 * scroll it too). `columns` are its headers: `{ title, numeric }` right-aligns amounts, `false`
 * leaves out a column a role may not use. With no rows, `empty` says so in one row across them.
 */
export function Table<T>(props: {
  columns: readonly (string | { title: string; numeric: true } | false)[];
  rows: readonly T[];
  row: (item: T) => preact.JSX.Element;
  empty: string;
  caption?: string;
  testid?: string;
}) {
  const columns = props.columns.filter((c) => c !== false);
  return (
    // Named by its caption, so two tables on one screen are two distinct regions.
    <div class="scroll" tabIndex={0} role="region" aria-label={`${props.caption ?? 'Table'} (scrolls sideways on small screens)`}>
      <table data-testid={props.testid}>
        {props.caption !== undefined && <caption>{props.caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) =>
              typeof c === 'string' ? (
                <th scope="col">{c}</th>
              ) : (
                <th scope="col" class="num">
                  {c.title}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>
          {props.rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} class="empty">
                {props.empty}
              </td>
            </tr>
          ) : (
            props.rows.map(props.row)
          )}
        </tbody>
      </table>
    </div>
  );
}

/** A secret (a key, a signing secret, an invite link) the service shows this once only. */
export function Once(props: { label: string; value: string }) {
  return (
    <div class="once" role="status">
      <p>{props.label} It is shown only now: copy it somewhere safe.</p>
      <code>{props.value}</code>
    </div>
  );
}

/** An enum value as words: `AWAITING_WEBHOOK` → `awaiting webhook`. */
export const label = (s: string) => s.toLowerCase().replace(/_/g, ' ');

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

/** Rand typed as text (`1234.56`) to cents; NaN when it is not an amount. */
export const toCents = (text: string) => (/^\d+(\.\d{1,2})?$/.test(text.trim()) ? Math.round(Number(text.trim()) * 100) : NaN);

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString('en-ZA', { dateStyle: 'medium', timeStyle: 'short' }) : '—');

/** What is wrong with one field, in words, beside it (the field names it with aria-describedby). */
export function FieldProblem(props: { id: string; error?: ApiError | null; field: string }) {
  const problem = props.error?.about(props.field);
  if (!problem) return null;
  return (
    <p class="error field-error" id={props.id} data-testid={`error-${props.field}`}>
      {problem.charAt(0).toUpperCase() + problem.slice(1)}
    </p>
  );
}
