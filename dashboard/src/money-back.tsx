import { useState } from 'preact/hooks';
import { ApiError, graphql, rand, request, when } from './graphql.ts';
import { Failure, label, type Me, type PaymentDetail, Status, Table, toCents, useAction, useQuery } from './main.tsx';

/**
 * Refunds and statements (CONTRACT §10), on `refundPayment`, `Payment.refunds`,
 * `Payment.refundedCents` and `statement(from, to)`. Enabled by extras.tsx re-exporting this file
 * once those fields are in schema.graphql (the typed documents below are checked against it).
 */

const RefundsQuery = graphql(`
  query PaymentRefunds($id: UUID!) {
    payment(id: $id) { id status amount refundedCents refunds { id status amountCents reason failureReason createdAt completedAt } }
  }
`);
const RefundPayment = graphql(`
  mutation RefundPayment($input: RefundPaymentInput!) { refundPayment(input: $input) { refund { id status amountCents } } }
`);

/** The payment's refunds, and (owners, captured payments) the refund form. */
export function PaymentRefunds(props: { payment: PaymentDetail; me: Me }) {
  const q = useQuery(() => request(RefundsQuery, { id: props.payment.id }), [props.payment.id]);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [done, setDone] = useState<string | null>(null);
  // One key per form: pressing twice (or a retry after a lost answer) refunds once.
  const [key, setKey] = useState(() => crypto.randomUUID());
  const refund = useAction(async () => {
    const cents = amount.trim() === '' ? null : toCents(amount);
    if (cents !== null && !Number.isFinite(cents)) throw new ApiError('VALIDATION_FAILED', 'Amount: write it in rand, such as 50.00, or leave it empty for all that is left');
    // Left out, not null, for "all that is left": the API refuses a null amount.
    const r = await request(RefundPayment, { input: { paymentId: props.payment.id, ...(cents !== null && { amountCents: cents }), reason: reason || null, idempotencyKey: key } });
    setDone(`Refund of ${rand(r.refundPayment.refund.amountCents)}: ${label(r.refundPayment.refund.status)}.`);
    setKey(crypto.randomUUID());
    setAmount('');
    q.reload();
  });
  return (
    <>
      <h2>Refunds</h2>
      <Status q={q}>
        {({ payment }) => (
          <>
            <p>Refunded so far: {rand(payment.refundedCents)}</p>
            {payment.refunds.length === 0 ? (
              <p class="empty">No refunds.</p>
            ) : (
              <ul>
                {payment.refunds.map((r) => (
                  <li key={r.id}>
                    {rand(r.amountCents)} — {label(r.status)}
                    {r.reason ? ` (${r.reason})` : ''} — {when(r.createdAt)}
                    {r.failureReason ? `: ${r.failureReason}` : ''}
                  </li>
                ))}
              </ul>
            )}
            {props.me.role === 'OWNER' && payment.status === 'CAPTURED' && (
              <form
                class="panel"
                onSubmit={(e) => {
                  e.preventDefault();
                  void refund.run();
                }}
              >
                <label for="refund-amount">Amount to refund (rand; empty: all that is left)</label>
                <input id="refund-amount" data-testid="refund-amount" inputMode="decimal" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} />
                <label for="refund-reason">Reason (optional)</label>
                <input id="refund-reason" maxLength={200} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
                <button type="submit" data-testid="refund-submit" disabled={refund.busy}>
                  Refund
                </button>
                <Failure error={refund.error} />
                {done && <p role="status">{done}</p>}
              </form>
            )}
          </>
        )}
      </Status>
    </>
  );
}

const StatementQuery = graphql(`
  query Statement($from: String!, $to: String!) {
    statement(from: $from, to: $to) {
      from to openingBalanceCents closingBalanceCents total
      entries { entryId postedAt type reference amountCents balanceAfterCents description }
    }
  }
`);

/** Today in Africa/Johannesburg, as YYYY-MM-DD. */
const today = () => new Date(Date.now() + 2 * 3600_000).toISOString().slice(0, 10);
const monthStart = () => `${today().slice(0, 8)}01`;

/** A CSV field, quoted when it must be (RFC 4180). */
const cell = (v: unknown) => {
  const s = v == null ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

function Statements(_props: { me: Me }) {
  const [from, setFrom] = useState(monthStart());
  const [to, setTo] = useState(today());
  const [asked, setAsked] = useState({ from: monthStart(), to: today() });
  const q = useQuery(() => request(StatementQuery, asked), [asked.from, asked.to]);
  const download = useAction(async () => {
    const { statement: s } = await request(StatementQuery, { from, to });
    // The same columns as REST's `GET /api/v1/statements?format=csv`.
    const lines = ['posted_at,type,reference,amount_cents,balance_after_cents,description'];
    for (const e of s.entries) lines.push([e.postedAt, e.type.toLowerCase(), e.reference, e.amountCents, e.balanceAfterCents, e.description].map(cell).join(','));
    const url = URL.createObjectURL(new Blob([lines.join('\r\n') + '\r\n'], { type: 'text/csv' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `statement-${s.from}-${s.to}.csv`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  });
  return (
    <section aria-labelledby="h-statements">
      <h1 id="h-statements">Statements</h1>
      <form
        class="panel"
        onSubmit={(e) => {
          e.preventDefault();
          setAsked({ from, to });
        }}
      >
        <label for="statement-from">From (first day)</label>
        <input id="statement-from" data-testid="statement-from" type="date" required value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
        <label for="statement-to">To (last day)</label>
        <input id="statement-to" data-testid="statement-to" type="date" required value={to} onInput={(e) => setTo(e.currentTarget.value)} />
        <button type="submit">Show</button>{' '}
        <button type="button" data-testid="statement-csv" onClick={() => void download.run()} disabled={download.busy}>
          Download CSV
        </button>
        <Failure error={download.error} />
      </form>
      <Status q={q}>
        {({ statement: s }) => (
          <>
            <p>
              Opening balance {rand(s.openingBalanceCents)}, closing balance {rand(s.closingBalanceCents)}, {s.total} entries.
            </p>
            <Table
              columns={['Posted', 'Type', 'Description', { title: 'Amount', numeric: true }, { title: 'Balance', numeric: true }]}
              rows={s.entries}
              empty="Nothing moved in these days."
              row={(e) => (
                <tr key={e.entryId}>
                  <td>{when(e.postedAt)}</td>
                  <td>{label(e.type)}</td>
                  <td>{e.description}</td>
                  <td class="num">{rand(e.amountCents)}</td>
                  <td class="num">{rand(e.balanceAfterCents)}</td>
                </tr>
              )}
            />
          </>
        )}
      </Status>
    </section>
  );
}

export const extraRoutes: { path: string; label: string; Screen: (props: { me: Me }) => preact.JSX.Element }[] = [{ path: '/dashboard/statements', label: 'Statements', Screen: Statements }];
