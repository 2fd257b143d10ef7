import { render, type ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, csrf, graphql, live, rand, request, type ResultOf, when, whenSignedOut } from './graphql.ts';
import { extraRoutes, PaymentRefunds } from './extras.tsx';

/**
 * The merchant dashboard (CONTRACT §10): one small Preact application over zarpay's own GraphQL
 * API. Every control a person's role may not use is absent, and the API refuses it anyway.
 */

type Role = 'OWNER' | 'DEVELOPER' | 'VIEWER';
export interface Me {
  email: string;
  role: Role;
}

// ---- Routing: plain paths under /dashboard, the History API.

function navigate(path: string) {
  history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate'));
}
function usePath() {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const on = () => setPath(location.pathname);
    addEventListener('popstate', on);
    return () => removeEventListener('popstate', on);
  }, []);
  return path;
}
function Link(props: { href: string; children: ComponentChildren; current?: boolean }) {
  return (
    <a
      href={props.href}
      aria-current={props.current ? 'page' : undefined}
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey) return;
        e.preventDefault();
        navigate(props.href);
      }}
    >
      {props.children}
    </a>
  );
}

// ---- Shared pieces: loading, errors, empty lists.

export function useQuery<R>(load: () => Promise<R>, deps: unknown[] = []) {
  const [state, setState] = useState<{ data?: R; error?: ApiError; loading: boolean }>({ loading: true });
  const reload = useCallback(() => {
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => setState({ data, loading: false }),
      (error) => setState({ error: error instanceof ApiError ? error : new ApiError('INTERNAL_ERROR', String(error)), loading: false }),
    );
  }, deps);
  useEffect(reload, [reload]);
  return { ...state, reload };
}

export function Status<R>(props: { q: { data?: R; error?: ApiError; loading: boolean }; children: (data: R) => ComponentChildren }) {
  if (props.q.error) return <p class="error" role="alert">Could not load this: {props.q.error.message}</p>;
  if (props.q.data === undefined) return <p aria-busy="true">Loading…</p>;
  return <>{props.children(props.q.data)}</>;
}

export function Failure(props: { error?: ApiError | null }) {
  if (!props.error) return null;
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
    <div class="scroll" tabIndex={0} role="region" aria-label="Table (scrolls sideways on small screens)">
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

export const label = (s: string) => s.toLowerCase().replace(/_/g, ' ');

/** Runs an action, with its error shown and a busy flag. */
export function useAction<A extends unknown[], R>(act: (...a: A) => Promise<R>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const run = async (...a: A): Promise<R | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await act(...a);
    } catch (e) {
      setError(e instanceof ApiError ? e : new ApiError('INTERNAL_ERROR', String(e)));
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error };
}

function Once(props: { label: string; value: string }) {
  return (
    <div class="once" role="status">
      <p>{props.label} It is shown only now: copy it somewhere safe.</p>
      <code>{props.value}</code>
    </div>
  );
}

// ---- Sign-in, and the password from an invite link.

async function post(path: string, body: unknown) {
  const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), credentials: 'same-origin' });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiError(json.error?.code ?? 'INTERNAL_ERROR', json.error?.message ?? `failed (${res.status})`, res.status);
  return json;
}

function Login() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const a = useAction(async () => {
    await post('/dashboard/login', { email, password });
    navigate('/dashboard');
  });
  return (
    <main id="main" class="narrow">
      <h1>Sign in to zarpay</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void a.run();
        }}
      >
        <label for="login-email">E-mail address</label>
        <input id="login-email" data-testid="login-email" type="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <label for="login-password">Password</label>
        <input id="login-password" data-testid="login-password" type="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        <button data-testid="login-submit" type="submit" disabled={a.busy}>
          Sign in
        </button>
        <Failure error={a.error} />
      </form>
    </main>
  );
}

function Invite() {
  const token = location.hash.slice(1);
  const [password, setPassword] = useState('');
  const a = useAction(async () => {
    await post('/dashboard/invite', { token, password });
    history.replaceState(null, '', '/dashboard');
    navigate('/dashboard');
  });
  return (
    <main id="main" class="narrow">
      <h1>Set your password</h1>
      <p>You were invited to a merchant's zarpay dashboard. Choose a password of at least 12 characters.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void a.run();
        }}
      >
        <label for="set-password">New password</label>
        <input id="set-password" data-testid="set-password" type="password" autocomplete="new-password" minLength={12} required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        <button data-testid="set-password-submit" type="submit" disabled={a.busy}>
          Set password and sign in
        </button>
        <Failure error={a.error} />
      </form>
    </main>
  );
}

// ---- Balance.

const BalanceQuery = graphql(`
  query Balance {
    balance { availableCents reservedCents balanceCents totals { grossCents feesCents withdrawalsCents } }
  }
`);

function Balance() {
  const q = useQuery(() => request(BalanceQuery));
  return (
    <section aria-labelledby="h-balance">
      <h1 id="h-balance">Balance</h1>
      <Status q={q}>
        {({ balance: b }) => (
          <dl class="cards">
            <div>
              <dt>Available</dt>
              <dd data-testid="balance-available">{rand(b.availableCents)}</dd>
            </div>
            <div>
              <dt>Reserved</dt>
              <dd>{rand(b.reservedCents)}</dd>
            </div>
            <div>
              <dt>Balance</dt>
              <dd>{rand(b.balanceCents)}</dd>
            </div>
            <div>
              <dt>Received (gross)</dt>
              <dd>{rand(b.totals.grossCents)}</dd>
            </div>
            <div>
              <dt>Fees</dt>
              <dd>{rand(b.totals.feesCents)}</dd>
            </div>
            <div>
              <dt>Paid out</dt>
              <dd>{rand(b.totals.withdrawalsCents)}</dd>
            </div>
          </dl>
        )}
      </Status>
    </section>
  );
}

// ---- Payments.

const PAYMENT_STATUSES = ['CREATED', 'INITIATED', 'AWAITING_WEBHOOK', 'CAPTURED', 'FAILED', 'CANCELLED'] as const;
type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

const PaymentsQuery = graphql(`
  query Payments($status: PaymentStatus, $after: String) {
    payments(first: 25, after: $after, status: $status) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { id merchantOrderId description status amount createdAt } }
    }
  }
`);
const PaymentEvents = graphql(`
  subscription PaymentEvents { paymentEvents { id type } }
`);
const PayoutEvents = graphql(`
  subscription PayoutEvents { payoutEvents { id type } }
`);

function Payments() {
  const [status, setStatus] = useState<PaymentStatus | ''>('');
  const q = useQuery(() => request(PaymentsQuery, { status: status || null }), [status]);
  const reload = useRef(q.reload);
  reload.current = q.reload;
  useEffect(() => live(PaymentEvents, {}, () => reload.current()), []);
  return (
    <section aria-labelledby="h-payments">
      <h1 id="h-payments">Payments</h1>
      <label for="payment-status">Status</label>
      <select id="payment-status" value={status} onChange={(e) => setStatus(e.currentTarget.value as PaymentStatus | '')}>
        <option value="">All</option>
        {PAYMENT_STATUSES.map((s) => (
          <option value={s}>{label(s)}</option>
        ))}
      </select>
      <Status q={q}>
        {({ payments }) => (
          <Table
            testid="payments-table"
            caption={`${payments.totalCount} payments, newest first`}
            columns={['Order', 'Status', { title: 'Amount', numeric: true }, 'Created']}
            rows={payments.edges}
            empty={`No payments${status ? ` that are ${label(status)}` : ' yet'}.`}
            row={({ node: p }) => (
              <tr data-testid="payment-row" key={p.id}>
                <td>
                  <Link href={`/dashboard/payments/${p.id}`}>{p.merchantOrderId}</Link>
                </td>
                <td>{label(p.status)}</td>
                <td class="num">{rand(p.amount)}</td>
                <td>{when(p.createdAt)}</td>
              </tr>
            )}
          />
        )}
      </Status>
    </section>
  );
}

const PaymentQuery = graphql(`
  query Payment($id: UUID!) {
    payment(id: $id) {
      id merchantOrderId description status amount feeCents netAmountCents currency voucherCode voucherRedeemed paymentUrl createdAt completedAt
      latestAttempt { provider status providerRef createdAt }
    }
  }
`);
export type PaymentDetail = NonNullable<ResultOf<typeof PaymentQuery>['payment']>;

function Payment(props: { id: string; me: Me }) {
  const q = useQuery(() => request(PaymentQuery, { id: props.id }), [props.id]);
  return (
    <section aria-labelledby="h-payment">
      <p>
        <Link href="/dashboard/payments">← Payments</Link>
      </p>
      <h1 id="h-payment">Payment</h1>
      <Status q={q}>
        {({ payment: p }) => (
          <>
            <dl class="details">
              <dt>Order</dt>
              <dd>{p.merchantOrderId}</dd>
              <dt>Status</dt>
              <dd>{label(p.status)}</dd>
              <dt>Amount</dt>
              <dd>{rand(p.amount)}</dd>
              <dt>Fee</dt>
              <dd>{rand(p.feeCents)}</dd>
              <dt>Net</dt>
              <dd>{rand(p.netAmountCents)}</dd>
              <dt>Description</dt>
              <dd>{p.description ?? '—'}</dd>
              <dt>Voucher</dt>
              <dd>{p.voucherCode ? `${p.voucherCode}${p.voucherRedeemed ? ' (redeemed)' : ''}` : '—'}</dd>
              <dt>Created</dt>
              <dd>{when(p.createdAt)}</dd>
              <dt>Completed</dt>
              <dd>{when(p.completedAt)}</dd>
            </dl>
            <h2>Attempts</h2>
            <Table
              columns={['Provider', 'Status', 'Reference', 'Started']}
              rows={p.latestAttempt ? [p.latestAttempt] : []}
              empty="The customer has not started paying."
              row={(a) => (
                <tr>
                  <td>{a.provider}</td>
                  <td>{a.status}</td>
                  <td>{a.providerRef ?? '—'}</td>
                  <td>{when(a.createdAt)}</td>
                </tr>
              )}
            />
            <PaymentRefunds payment={p} me={props.me} />
          </>
        )}
      </Status>
    </section>
  );
}

// ---- Payouts.

const PayoutsQuery = graphql(`
  query Payouts($after: String) {
    payouts(first: 25, after: $after) {
      totalCount
      edges { node { id merchantReference status amountCents feeCents createdAt bankAccount { bankName accountNumberMasked } } }
    }
  }
`);
const CreatePayout = graphql(`
  mutation CreatePayout($input: CreatePayoutInput!) {
    createPayout(input: $input) { payout { id status amountCents } }
  }
`);

function Payouts(props: { me: Me }) {
  const q = useQuery(() => request(PayoutsQuery, {}));
  const reload = useRef(q.reload);
  reload.current = q.reload;
  useEffect(() => live(PayoutEvents, {}, () => reload.current()), []);
  return (
    <section aria-labelledby="h-payouts">
      <h1 id="h-payouts">Payouts</h1>
      {props.me.role === 'OWNER' && <NewPayout done={q.reload} />}
      <Status q={q}>
        {({ payouts }) => (
          <Table
            testid="payouts-table"
            caption={`${payouts.totalCount} payouts, newest first`}
            columns={['Reference', 'Status', { title: 'Amount', numeric: true }, 'Account', 'Created']}
            rows={payouts.edges}
            empty="No payouts yet."
            row={({ node: p }) => (
              <tr data-testid="payout-row" key={p.id}>
                <td>
                  <Link href={`/dashboard/payouts/${p.id}`}>{p.merchantReference ?? p.id.slice(0, 8)}</Link>
                </td>
                <td>{label(p.status)}</td>
                <td class="num">{rand(p.amountCents)}</td>
                <td>{p.bankAccount ? `${p.bankAccount.bankName} ${p.bankAccount.accountNumberMasked}` : '—'}</td>
                <td>{when(p.createdAt)}</td>
              </tr>
            )}
          />
        )}
      </Status>
    </section>
  );
}

/** Rand typed as text (`1234.56`) to cents; NaN when it is not an amount. */
export const toCents = (text: string) => (/^\d+(\.\d{1,2})?$/.test(text.trim()) ? Math.round(Number(text.trim()) * 100) : NaN);

function NewPayout(props: { done: () => void }) {
  const [f, setF] = useState({ amount: '', bankName: '', branchCode: '', accountNumber: '', accountHolder: '', reference: '' });
  const [created, setCreated] = useState<string | null>(null);
  const set = (k: keyof typeof f) => (e: { currentTarget: HTMLInputElement }) => setF({ ...f, [k]: e.currentTarget.value });
  const a = useAction(async () => {
    const cents = toCents(f.amount);
    if (!Number.isFinite(cents)) throw new ApiError('VALIDATION_FAILED', 'Amount: write it in rand, such as 150.00');
    const r = await request(CreatePayout, {
      input: {
        amountCents: cents,
        currency: 'ZAR',
        payoutMethod: 'EFT',
        merchantReference: f.reference || null,
        paymentDetails: { bankName: f.bankName, branchCode: f.branchCode, accountNumber: f.accountNumber, accountHolder: f.accountHolder },
      },
    });
    setCreated(`Payout of ${rand(r.createPayout.payout.amountCents)} created: ${label(r.createPayout.payout.status)}.`);
    props.done();
  });
  const field = (k: keyof typeof f, text: string, extra: Record<string, unknown> = {}) => (
    <>
      <label for={`payout-${k}`}>{text}</label>
      <input id={`payout-${k}`} value={f[k]} onInput={set(k)} {...extra} />
    </>
  );
  return (
    <details class="panel">
      <summary>New payout</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void a.run();
        }}
      >
        {field('amount', 'Amount (rand)', { inputMode: 'decimal', required: true, 'data-testid': 'payout-amount' })}
        {field('bankName', 'Bank', { required: true, 'data-testid': 'payout-bank' })}
        {field('branchCode', 'Branch code (6 digits)', { inputMode: 'numeric', pattern: '\\d{6}', required: true, 'data-testid': 'payout-branch' })}
        {field('accountNumber', 'Account number', { inputMode: 'numeric', required: true, autocomplete: 'off', 'data-testid': 'payout-account' })}
        {field('accountHolder', 'Account holder', { required: true, 'data-testid': 'payout-holder' })}
        {field('reference', 'Your reference (optional)', { 'data-testid': 'payout-reference' })}
        <button type="submit" data-testid="payout-create" disabled={a.busy}>
          Create payout
        </button>
        <Failure error={a.error} />
        {created && <p role="status">{created}</p>}
      </form>
    </details>
  );
}

const PayoutQuery = graphql(`
  query Payout($id: UUID!) {
    payout(id: $id) {
      id merchantReference description status amountCents feeCents grossAmountCents createdAt completedAt failureReason rejectionReason externalTransferId
      bankAccount { bankName branchCode accountHolder accountNumberMasked }
      events { id type createdAt }
    }
  }
`);

function Payout(props: { id: string }) {
  const q = useQuery(() => request(PayoutQuery, { id: props.id }), [props.id]);
  return (
    <section aria-labelledby="h-payout">
      <p>
        <Link href="/dashboard/payouts">← Payouts</Link>
      </p>
      <h1 id="h-payout">Payout</h1>
      <Status q={q}>
        {({ payout: p }) => (
          <>
            <dl class="details">
              <dt>Reference</dt>
              <dd>{p.merchantReference ?? '—'}</dd>
              <dt>Status</dt>
              <dd>{label(p.status)}</dd>
              <dt>Amount</dt>
              <dd>{rand(p.amountCents)}</dd>
              <dt>Fee</dt>
              <dd>{rand(p.feeCents)}</dd>
              <dt>Reserved (gross)</dt>
              <dd>{rand(p.grossAmountCents)}</dd>
              <dt>Bank account</dt>
              <dd data-testid="payout-bank-account">
                {p.bankAccount ? `${p.bankAccount.accountHolder}, ${p.bankAccount.bankName} ${p.bankAccount.branchCode}, ${p.bankAccount.accountNumberMasked}` : '—'}
              </dd>
              <dt>Created</dt>
              <dd>{when(p.createdAt)}</dd>
              <dt>Completed</dt>
              <dd>{when(p.completedAt)}</dd>
              {(p.failureReason || p.rejectionReason) && (
                <>
                  <dt>Why</dt>
                  <dd>{p.failureReason ?? p.rejectionReason}</dd>
                </>
              )}
            </dl>
            <h2>History</h2>
            <ol>
              {p.events.map((e) => (
                <li key={e.id}>
                  {e.type} — {when(e.createdAt)}
                </li>
              ))}
            </ol>
          </>
        )}
      </Status>
    </section>
  );
}

// ---- Webhooks.

const WebhooksQuery = graphql(`
  query Webhooks {
    viewer { id webhookUrl webhookSecrets { kid status createdAt rotatingUntil } }
    webhookDeliveries(first: 25) { id eventId eventType url status attempts lastStatusCode lastError createdAt }
  }
`);
const SaveUrl = graphql(`
  mutation SaveWebhookUrl($url: String) { updateWebhookUrl(url: $url) { merchant { webhookUrl } } }
`);
const RotateSecret = graphql(`
  mutation RotateWebhookSecret { rotateWebhookSecret { webhookSecret { kid secret } rotatingKid } }
`);
const Redeliver = graphql(`
  mutation Redeliver($eventId: UUID!) { redeliverEvent(eventId: $eventId) { delivery { id } } }
`);

function Webhooks(props: { me: Me }) {
  const q = useQuery(() => request(WebhooksQuery));
  const may = props.me.role !== 'VIEWER';
  const [url, setUrl] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    await request(SaveUrl, { url: (url ?? '').trim() || null });
    setSaved(true);
    q.reload();
  });
  const rotate = useAction(async () => {
    const r = await request(RotateSecret);
    setSecret(r.rotateWebhookSecret.webhookSecret.secret ?? null);
    q.reload();
  });
  const redeliver = useAction(async (eventId: string) => {
    await request(Redeliver, { eventId });
    q.reload();
  });
  return (
    <section aria-labelledby="h-webhooks">
      <h1 id="h-webhooks">Webhooks</h1>
      <Status q={q}>
        {(d) => (
          <>
            <form
              class="panel"
              onSubmit={(e) => {
                e.preventDefault();
                void save.run();
              }}
            >
              <label for="webhook-url">Where events are sent</label>
              <input
                id="webhook-url"
                data-testid="webhook-url"
                type="url"
                placeholder="https://example.com/zarpay"
                readOnly={!may}
                value={url ?? d.viewer.webhookUrl ?? ''}
                onInput={(e) => {
                  setUrl(e.currentTarget.value);
                  setSaved(false);
                }}
              />
              {may && (
                <button type="submit" data-testid="webhook-url-save" disabled={save.busy}>
                  Save URL
                </button>
              )}
              <Failure error={save.error} />
              {saved && <p role="status">Saved.</p>}
            </form>
            <h2>Signing secrets</h2>
            {d.viewer.webhookSecrets.length === 0 ? (
              <p class="empty">No secret yet: deliveries go out unsigned.</p>
            ) : (
              <ul>
                {d.viewer.webhookSecrets.map((s) => (
                  <li key={s.kid}>
                    <code>{s.kid}</code> {label(s.status)}
                    {s.rotatingUntil ? `, signs until ${when(s.rotatingUntil)}` : ''}
                  </li>
                ))}
              </ul>
            )}
            {may && (
              <button type="button" onClick={() => void rotate.run()} disabled={rotate.busy}>
                {d.viewer.webhookSecrets.some((s) => s.status === 'ACTIVE') ? 'Rotate secret' : 'Create secret'}
              </button>
            )}
            <Failure error={rotate.error} />
            {secret && <Once label="The new signing secret." value={secret} />}
            <h2>Deliveries</h2>
            <Failure error={redeliver.error} />
            <Table
              columns={['Event', 'Status', 'Attempts', 'Last answer', 'Queued', may && 'Action']}
              rows={d.webhookDeliveries}
              empty="Nothing delivered yet."
              row={(w) => (
                <tr key={w.id}>
                  <td>{w.eventType}</td>
                  <td>{label(w.status)}</td>
                  <td>{w.attempts}</td>
                  <td>{w.lastStatusCode ?? w.lastError ?? '—'}</td>
                  <td>{when(w.createdAt)}</td>
                  {may && (
                    <td>
                      <button type="button" class="small" onClick={() => void redeliver.run(w.eventId)}>
                        Redeliver
                      </button>
                    </td>
                  )}
                </tr>
              )}
            />
          </>
        )}
      </Status>
    </section>
  );
}

// ---- API keys.

const KeysQuery = graphql(`
  query Keys { viewer { id apiKeys { kid status displayMask createdAt revokedAt } } }
`);
const IssueKey = graphql(`
  mutation IssueKey { issueApiKey { fullKey apiKey { kid } } }
`);
const RevokeKey = graphql(`
  mutation RevokeKey($kid: String!) { revokeApiKey(kid: $kid) { apiKey { kid status } } }
`);
const RegenerateKey = graphql(`
  mutation RegenerateKey($kid: String) { regenerateSecretKey(kid: $kid) { fullKey apiKey { kid } } }
`);

function Keys(props: { me: Me }) {
  const q = useQuery(() => request(KeysQuery));
  const may = props.me.role !== 'VIEWER';
  const [shown, setShown] = useState<string | null>(null);
  const act = useAction(async (what: 'issue' | 'revoke' | 'regenerate', kid?: string) => {
    if (what === 'issue') setShown((await request(IssueKey)).issueApiKey.fullKey);
    if (what === 'regenerate') setShown((await request(RegenerateKey, { kid: kid! })).regenerateSecretKey.fullKey);
    if (what === 'revoke') await request(RevokeKey, { kid: kid! });
    q.reload();
  });
  return (
    <section aria-labelledby="h-keys">
      <h1 id="h-keys">API keys</h1>
      {may && (
        <button type="button" onClick={() => void act.run('issue')} disabled={act.busy}>
          Issue a new key
        </button>
      )}
      <Failure error={act.error} />
      {shown && <Once label="The new secret key." value={shown} />}
      <Status q={q}>
        {({ viewer }) => (
          <Table
            columns={['Key', 'Status', 'Issued', may && 'Actions']}
            rows={viewer.apiKeys}
            empty="No keys."
            row={(k) => (
              <tr key={k.kid}>
                <td>
                  <code>{k.displayMask}</code>
                </td>
                <td>{label(k.status)}</td>
                <td>{when(k.createdAt)}</td>
                {may && (
                  <td>
                    {k.status === 'ACTIVE' && (
                      <>
                        <button type="button" class="small" onClick={() => void act.run('regenerate', k.kid)}>
                          Regenerate
                        </button>{' '}
                        <button type="button" class="small danger" onClick={() => confirm(`Revoke ${k.displayMask}? Requests with it will be refused.`) && void act.run('revoke', k.kid)}>
                          Revoke
                        </button>
                      </>
                    )}
                  </td>
                )}
              </tr>
            )}
          />
        )}
      </Status>
    </section>
  );
}

// ---- People.

const PeopleQuery = graphql(`
  query People { people { id email role active createdAt issuedKeys { kid displayMask } } }
`);
const InvitePerson = graphql(`
  mutation InvitePerson($email: String!, $role: PersonRole!) { invitePerson(email: $email, role: $role) { inviteUrl expiresAt emailed } }
`);
const RemovePerson = graphql(`
  mutation RemovePerson($id: UUID!) { removePerson(id: $id) { person { id } } }
`);
const ChangePersonRole = graphql(`
  mutation ChangePersonRole($id: UUID!, $role: PersonRole!) { changePersonRole(id: $id, role: $role) { person { id role } } }
`);
const AuditQuery = graphql(`
  query Audit { auditLog(first: 50) { id at actor action } }
`);

function People(props: { me: Me }) {
  const q = useQuery(() => request(PeopleQuery));
  const owner = props.me.role === 'OWNER';
  const audit = useQuery(() => (owner ? request(AuditQuery) : Promise.resolve({ auditLog: [] })), [owner]);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('VIEWER');
  const [link, setLink] = useState<string | null>(null);
  const invite = useAction(async () => {
    const r = await request(InvitePerson, { email, role });
    setLink(r.invitePerson.inviteUrl);
    setEmail('');
    q.reload();
  });
  const remove = useAction(async (id: string) => {
    await request(RemovePerson, { id });
    q.reload();
  });
  const changeRole = useAction(async (id: string, to: Role) => {
    await request(ChangePersonRole, { id, role: to });
    q.reload();
  });
  /** What removing a person ends, said before it happens: their sessions, and every key they issued. */
  const removal = (p: { email: string; issuedKeys: readonly { displayMask: string }[] }) =>
    `Remove ${p.email}? They are signed out at once.` +
    (p.issuedKeys.length === 0
      ? ''
      : ` The ${p.issuedKeys.length === 1 ? 'API key' : `${p.issuedKeys.length} API keys`} they issued stop${p.issuedKeys.length === 1 ? 's' : ''} working too: ${p.issuedKeys.map((k) => k.displayMask).join(', ')}.`);
  const names = new Map((q.data?.people ?? []).map((p) => [p.id, p.email]));
  return (
    <section aria-labelledby="h-people">
      <h1 id="h-people">People</h1>
      {owner && (
        <form
          class="panel"
          onSubmit={(e) => {
            e.preventDefault();
            void invite.run();
          }}
        >
          <label for="invite-email">Invite by e-mail address</label>
          <input id="invite-email" type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          <label for="invite-role">Role</label>
          <select id="invite-role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
            <option value="VIEWER">viewer: reads everything</option>
            <option value="DEVELOPER">developer: also keys and webhooks</option>
            <option value="OWNER">owner: everything</option>
          </select>
          <button type="submit" disabled={invite.busy}>
            Invite
          </button>
          <Failure error={invite.error} />
          {link && <Once label="The invite link (valid 72 hours, once)." value={link} />}
        </form>
      )}
      <Failure error={remove.error ?? changeRole.error} />
      <Status q={q}>
        {({ people }) => (
          <ul class="people">
            {people.map((p) => (
              <li key={p.id}>
                {p.email} — {label(p.role)}
                {p.active ? '' : ' (invited)'}
                {p.issuedKeys.length > 0 && ` · issued ${p.issuedKeys.length} active API key${p.issuedKeys.length === 1 ? '' : 's'}`}{' '}
                {owner && p.email !== props.me.email && (
                  <>
                    <label class="visually-hidden" for={`role-${p.id}`}>
                      Role of {p.email}
                    </label>
                    <select id={`role-${p.id}`} value={p.role} disabled={changeRole.busy} onChange={(e) => void changeRole.run(p.id, e.currentTarget.value as Role)}>
                      <option value="VIEWER">viewer</option>
                      <option value="DEVELOPER">developer</option>
                      <option value="OWNER">owner</option>
                    </select>{' '}
                    <button type="button" class="small danger" onClick={() => confirm(removal(p)) && void remove.run(p.id)}>
                      Remove
                    </button>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
      </Status>
      {owner && (
        <>
          <h2>Who did what</h2>
          <Status q={audit}>
            {({ auditLog }) =>
              auditLog.length === 0 ? (
                <p class="empty">Nothing yet.</p>
              ) : (
                <ul>
                  {auditLog.map((e) => {
                    const person = /person:([0-9a-f-]{36})/.exec(e.actor)?.[1];
                    return (
                      <li key={e.id}>
                        {when(e.at)}: {person ? (names.get(person) ?? 'a removed person') : e.actor} — {e.action}
                      </li>
                    );
                  })}
                </ul>
              )
            }
          </Status>
        </>
      )}
    </section>
  );
}

// ---- The frame: navigation, who is signed in, sign-out.

const MeQuery = graphql(`
  query Me { signedInPerson { email role } viewer { id name } }
`);

const NAV: [string, string][] = [
  ['/dashboard', 'Balance'],
  ['/dashboard/payments', 'Payments'],
  ['/dashboard/payouts', 'Payouts'],
  ['/dashboard/webhooks', 'Webhooks'],
  ['/dashboard/keys', 'API keys'],
  ...extraRoutes.map((r) => [r.path, r.label] as [string, string]),
  ['/dashboard/people', 'People'],
];

function App() {
  const path = usePath();
  const [me, setMe] = useState<(Me & { merchant: string }) | null | undefined>(undefined);
  useEffect(() => {
    whenSignedOut(() => {
      setMe(null);
      if (!location.pathname.startsWith('/dashboard/login')) navigate('/dashboard/login');
    });
  }, []);
  useEffect(() => {
    if (path === '/dashboard/login' || path === '/dashboard/invite') return;
    if (me) return;
    request(MeQuery).then(
      (r) => r.signedInPerson && setMe({ ...r.signedInPerson, merchant: r.viewer.name }),
      () => {},
    );
  }, [path]);
  useEffect(() => {
    const h = document.querySelector('main h1') as HTMLElement | null;
    if (h) {
      h.tabIndex = -1;
      h.focus();
    }
    document.title = `${h?.textContent ?? 'Dashboard'} · zarpay`;
  }, [path, me]);

  if (path === '/dashboard/login') return <Login />;
  if (path === '/dashboard/invite') return <Invite />;
  if (!me) return <main id="main"><p aria-busy="true">Loading…</p></main>;

  const signOut = async () => {
    await fetch('/dashboard/logout', { method: 'POST', headers: { 'x-csrf-token': csrf() }, credentials: 'same-origin' });
    setMe(null);
    navigate('/dashboard/login');
  };
  const [, , section, id] = path.split('/');
  const extra = extraRoutes.find((r) => r.path === path);
  const page = extra ? (
    <extra.Screen me={me} />
  ) : section === 'payments' && id ? (
    <Payment id={id} me={me} />
  ) : section === 'payments' ? (
    <Payments />
  ) : section === 'payouts' && id ? (
    <Payout id={id} />
  ) : section === 'payouts' ? (
    <Payouts me={me} />
  ) : section === 'webhooks' ? (
    <Webhooks me={me} />
  ) : section === 'keys' ? (
    <Keys me={me} />
  ) : section === 'people' ? (
    <People me={me} />
  ) : (
    <Balance />
  );
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <p class="brand">
          zarpay <span>{me.merchant}</span>
        </p>
        <nav aria-label="Dashboard">
          <ul>
            {NAV.map(([href, text]) => (
              <li key={href}>
                <Link href={href} current={href === '/dashboard' ? path === '/dashboard' || path === '/dashboard/' : path.startsWith(href)}>
                  {text}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <p class="who">
          {me.email} ({label(me.role)}){' '}
          <button type="button" class="small" data-testid="signout" onClick={() => void signOut()}>
            Sign out
          </button>
        </p>
      </header>
      <main id="main">{page}</main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
