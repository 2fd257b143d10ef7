import { useState } from 'preact/hooks';
import { ApiError, graphql, request, type ResultOf } from '../graphql.ts';
import { type Me, useAction, useQuery } from '../hooks.ts';
import { Failure, label, Link, rand, Status, Table, toCents, when } from '../ui.tsx';

/**
 * One payment: its amounts, the customer's attempt, and its refunds (`refundPayment`,
 * `Payment.refunds`, `Payment.refundedCents`), with the refund form for owners.
 */

const PaymentQuery = graphql(`
  query Payment($id: UUID!) {
    payment(id: $id) {
      id merchantOrderId description status amount feeCents netAmountCents currency voucherCode voucherRedeemed paymentUrl createdAt completedAt
      latestAttempt { provider status providerRef createdAt }
      customer { email phone }
    }
  }
`);
type PaymentDetail = NonNullable<ResultOf<typeof PaymentQuery>['payment']>;

export function Payment(props: { id: string; me: Me }) {
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
              <dt>Customer</dt>
              <dd data-testid="payment-customer">{p.customer ? [p.customer.email, p.customer.phone].filter(Boolean).join(', ') : '—'}</dd>
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

const RefundsQuery = graphql(`
  query PaymentRefunds($id: UUID!) {
    payment(id: $id) { id status amount refundedCents refunds { id status amountCents reason failureReason createdAt completedAt } }
  }
`);
const RefundPayment = graphql(`
  mutation RefundPayment($input: RefundPaymentInput!) { refundPayment(input: $input) { refund { id status amountCents } } }
`);

/** The payment's refunds, and (owners, captured payments) the refund form. */
function PaymentRefunds(props: { payment: PaymentDetail; me: Me }) {
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
