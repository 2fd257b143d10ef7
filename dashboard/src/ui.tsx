import { cloneElement, type ComponentChildren, isValidElement, toChildArray, type VNode } from 'preact';
import { useState } from 'preact/hooks';
import { parseRand } from '../../src/domain/money.ts';
import type { ApiError } from './graphql.ts';
import type { Pages } from './hooks.ts';
import { hasWords, locales, t } from './i18n.ts';
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
  if (props.q.error) return <p class="error" role="alert">{t('loadFailed', { message: props.q.error.message })}</p>;
  if (props.q.data === undefined) return <p aria-busy="true">{t('loading')}</p>;
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
      {props.error.code === 'FORBIDDEN' ? t('ui.notAllowed') : ''}
      {props.error.message}
    </p>
  );
}

/**
 * A table in a focusable region (a keyboard can scroll it, should it ever be wider than the
 * screen). `columns` are its headers: `{ title, numeric }` right-aligns amounts, `false` leaves out
 * a column a role may not use. With no rows, `empty` says so in one row across them. Each cell
 * carries its column's title (`data-label`): on a phone every row stacks into a card of
 * "title value" lines (style.css), so no column, and no amount, is ever off screen.
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
  const titles = columns.map((c) => (typeof c === 'string' ? c : c.title));
  return (
    // Named by its caption, so two tables on one screen are two distinct regions.
    <div class="scroll" tabIndex={0} role="region" aria-label={t('ui.tableScrolls', { name: props.caption ?? t('ui.table') })}>
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
            props.rows.map((item) => labelled(props.row(item), titles))
          )}
        </tbody>
      </table>
    </div>
  );
}

/** A row whose cells carry their column's title, for the stacked layout of a phone. */
function labelled(row: preact.JSX.Element, titles: readonly string[]) {
  const cells = toChildArray((row.props as { children?: ComponentChildren }).children).filter(isValidElement) as VNode<Record<string, unknown>>[];
  return cloneElement(row, {}, ...cells.map((cell, i) => cloneElement(cell, { 'data-label': titles[i] })));
}

/** A secret (a key, a signing secret, an invite link) the service shows this once only. */
export function Once(props: { label: string; value: string }) {
  return (
    <div class="once" role="status">
      <p>
        {props.label} {t('ui.once')}
      </p>
      <code>{props.value}</code>
    </div>
  );
}

/**
 * An enum value the API answers (a status, a role, a statement entry's type) in words, in the
 * dashboard's language: `AWAITING_WEBHOOK` → `awaiting webhook` (`status.awaiting_webhook`),
 * `OWNER` → `owner` (`role.owner`), `PAYOUT_FEE` → `payout fee` (`entry.payout_fee`). A value it
 * has no words for yet reads as itself, in lower case.
 */
export function label(s: string): string {
  const value = s.toLowerCase();
  for (const kind of ['status', 'role', 'entry']) {
    const key = `${kind}.${value}`;
    if (hasWords(key)) return t(key);
  }
  return value.replace(/_/g, ' ');
}

/**
 * Amounts as `R 1 234.56` (cents in, rand out; a minus sign for debits). The spaces are
 * non-breaking: an amount never breaks across two lines.
 */
export function rand(cents: number | null | undefined): string {
  if (cents == null) return '—';
  const sign = cents < 0 ? '−' : '';
  const abs = Math.abs(Math.round(cents));
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
  return `${sign}R\u00a0${whole}.${String(abs % 100).padStart(2, '0')}`;
}

/** Rand typed as text (`1234.56`, `1 234,56`, `R 50`) to cents, by the API's own parser; NaN when it is not an amount. */
export const toCents = (text: string) => parseRand(text) ?? NaN;

/**
 * Times as South Africa reads them (SAST, Africa/Johannesburg), whatever the browser's own zone,
 * in the dashboard's language where the browser knows its formats (`af-ZA`: `29 Nov. 2026 06:17`),
 * else as English in South Africa writes them (`29 Nov 2026, 06:17`).
 */
const formats = new Map<string, Intl.DateTimeFormat>();
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const tags = locales();
  let f = formats.get(tags[0]!);
  if (!f) formats.set(tags[0]!, (f = new Intl.DateTimeFormat(tags, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Johannesburg' })));
  return `${f.format(new Date(iso))} SAST`;
}

/**
 * Paging for the list above it: "Next page" (`list-next`, disabled on the last page) and
 * "Previous page". `next` is the position of the page after this one, null on the last.
 */
export function Pager<P>(props: { pages: Pages<P>; next: P | null; what: string }) {
  const { pages, next } = props;
  if (pages.number === 1 && next === null) return null;
  return (
    <nav class="pager" aria-label={t('pager.of', { what: props.what })}>
      <button type="button" class="small" disabled={pages.number === 1} onClick={pages.back}>
        {t('pager.previous')}
      </button>
      <span aria-live="polite">{t('pager.page', { number: pages.number })}</span>
      <button type="button" class="small" data-testid="list-next" disabled={next === null} onClick={() => next !== null && pages.next(next)}>
        {t('pager.next')}
      </button>
    </nav>
  );
}

/**
 * An offset list asked for one row more than a page (`first: size + 1`): the rows to show, and
 * the next page's offset, null when that extra row did not come (the last page).
 */
export function offsetPage<T>(rows: readonly T[], size: number, offset: number) {
  return { rows: rows.slice(0, size), next: rows.length > size ? offset + size : null };
}

/** A connection's next position: its `endCursor` while there is a next page, else null. */
export const nextCursor = (info: { hasNextPage: boolean; endCursor?: string | null }) => (info.hasNextPage ? (info.endCursor ?? null) : null);

/** What a right password answered when it did not sign in yet: a second step (CONTRACT §11). */
export interface SecondStepAsked {
  second_factor: 'code' | 'setup';
  qr_code?: string;
  secret?: string;
}

/**
 * The second step of a sign-in: the code of the person's authenticator app (or a recovery code),
 * or, when their merchant demands a second factor they do not have yet, its set-up first.
 */
export function SecondStep(props: { asked: SecondStepAsked; busy: boolean; error: ApiError | null; onCode: (code: string) => void }) {
  const [code, setCode] = useState('');
  const setup = props.asked.second_factor === 'setup';
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        props.onCode(code);
      }}
    >
      <h2>{t(setup ? 'setup.title' : 'code.title')}</h2>
      {setup && (
        <>
          <p>{t('setup.help')}</p>
          <img data-testid="totp-qr" src={props.asked.qr_code} alt={t('setup.qr')} width={240} height={240} />
          <p>
            {t('setup.secret')} <code data-testid="totp-secret">{props.asked.secret}</code>
          </p>
        </>
      )}
      <label for="totp-code">{t('code.label')}</label>
      <input id="totp-code" data-testid="totp-code" inputMode="numeric" autocomplete="one-time-code" required value={code} onInput={(e) => setCode(e.currentTarget.value)} />
      <button data-testid="totp-submit" type="submit" disabled={props.busy}>
        {t(setup ? 'setup.submit' : 'code.submit')}
      </button>
      <Failure error={props.error} />
    </form>
  );
}

/** Recovery codes, shown once, and the way on. */
export function RecoveryCodes(props: { codes: readonly string[]; onDone?: () => void }) {
  return (
    <div class="once" role="status">
      <h2>{t('recovery.title')}</h2>
      <p>{t('recovery.help')}</p>
      <ul data-testid="recovery-codes">
        {props.codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      {props.onDone && (
        <button type="button" data-testid="recovery-done" onClick={props.onDone}>
          {t('recovery.continue')}
        </button>
      )}
    </div>
  );
}

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
