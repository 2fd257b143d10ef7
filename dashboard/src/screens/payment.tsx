import { useEffect, useState } from 'preact/hooks';
import { parseRand } from '../../../src/domain/money.ts';
import { graphql, request, type ResultOf } from '../graphql.ts';
import { type Me, useAction, useQuery } from '../hooks.ts';
import { t, tNodes } from '../i18n.ts';
import { Share } from '../share.tsx';
import { Failure, label, Link, rand, Status, Table, when } from '../ui.tsx';

/**
 * One payment: its amounts, the customer's attempt, and its refunds (`refundPayment`,
 * `Payment.refunds`, `Payment.refundedCents`), with the refund form for owners.
 */

const PaymentQuery = graphql(`
  query Payment($id: UUID!) {
    payment(id: $id) {
      id merchantOrderId description status amount feeCents netAmountCents currency voucherCode voucherRedeemed paymentUrl qrCode { imageUrl } createdAt completedAt
      latestAttempt { provider status providerRef createdAt }
      customer { email phone }
    }
  }
`);
/** A payment the customer can still pay: its page is worth sharing. */
const UNPAID: readonly string[] = ['CREATED', 'INITIATED', 'AWAITING_WEBHOOK'];
type PaymentDetail = NonNullable<ResultOf<typeof PaymentQuery>['payment']>;

export function Payment(props: { id: string; me: Me }) {
  const q = useQuery(() => request(PaymentQuery, { id: props.id }), [props.id]);
  return (
    <section aria-labelledby="h-payment">
      <p>
        <Link href="/dashboard/payments">← {t('nav.payments')}</Link>
      </p>
      <h1 id="h-payment">{t('payment.title')}</h1>
      <Status q={q}>
        {({ payment: p }) => (
          <>
            <dl class="details">
              <dt>{t('payments.order')}</dt>
              <dd translate={false}>{p.merchantOrderId}</dd>
              <dt>{t('payments.status')}</dt>
              <dd>{label(p.status)}</dd>
              <dt>{t('payments.amount')}</dt>
              <dd>{rand(p.amount)}</dd>
              <dt>{t('payment.fee')}</dt>
              <dd>{rand(p.feeCents)}</dd>
              <dt>{t('payment.net')}</dt>
              <dd>{rand(p.netAmountCents)}</dd>
              <dt>{t('payment.description')}</dt>
              <dd translate={false}>{p.description ?? '—'}</dd>
              <dt>{t('payment.customer')}</dt>
              <dd data-testid="payment-customer" translate={false}>
                {p.customer ? [p.customer.email, p.customer.phone].filter(Boolean).join(', ') : '—'}
              </dd>
              <dt>{t('payment.voucher')}</dt>
              <dd>{p.voucherCode ? (p.voucherRedeemed ? t('payment.redeemed', { code: p.voucherCode }) : p.voucherCode) : '—'}</dd>
              <dt>{t('payments.created')}</dt>
              <dd>{when(p.createdAt)}</dd>
              <dt>{t('payment.completed')}</dt>
              <dd>{when(p.completedAt)}</dd>
            </dl>
            {UNPAID.includes(p.status) && (
              <section aria-labelledby="h-pay-link" data-testid="payment-share">
                <h2 id="h-pay-link">{t('payment.payHere')}</h2>
                <p>{t('payment.notPaid')}</p>
                <Share url={p.paymentUrl} qrImageUrl={p.qrCode.imageUrl} text={t('links.payText', { description: p.description ?? p.merchantOrderId })} testid="payment-link" title={t('request.page')} />
              </section>
            )}
            <h2>{t('payment.attempts')}</h2>
            <Table
              columns={[t('payment.provider'), t('payments.status'), t('payment.reference'), t('payment.started')]}
              rows={p.latestAttempt ? [p.latestAttempt] : []}
              empty={t('payment.noAttempt')}
              row={(a) => (
                <tr>
                  <td translate={false}>{a.provider}</td>
                  <td>{label(a.status)}</td>
                  <td translate={false}>{a.providerRef ?? '—'}</td>
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

/** How often a payment with a pending refund is read again, until the refund is decided. */
const PENDING_POLL_MS = 1500;

/**
 * The payment's refunds, and (owners, captured payments) the refund form in two steps: the amount
 * (rand with a comma or a dot; empty is everything still refundable, and the second step says so),
 * then `refund-confirm` stating the amount before any money moves. A pending refund is read again
 * until it is decided, so `succeeded` shows without a reload.
 */
function PaymentRefunds(props: { payment: PaymentDetail; me: Me }) {
  const q = useQuery(() => request(RefundsQuery, { id: props.payment.id }), [props.payment.id]);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [done, setDone] = useState<string | null>(null);
  // The amount the owner is asked to confirm: cents, null for "all that is left".
  const [review, setReview] = useState<{ cents: number | null } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // One key per form: pressing twice (or a retry after a lost answer) refunds once.
  const [key, setKey] = useState(() => crypto.randomUUID());
  const pending = q.data?.payment.refunds.some((r) => r.status === 'PENDING') ?? false;
  useEffect(() => {
    if (!pending || q.loading) return;
    const timer = setTimeout(q.reload, PENDING_POLL_MS);
    return () => clearTimeout(timer);
  }, [pending, q.loading, q.data]);
  const refund = useAction(async (cents: number | null) => {
    // Left out, not null, for "all that is left": the API refuses a null amount.
    const r = await request(RefundPayment, { input: { paymentId: props.payment.id, ...(cents !== null && { amountCents: cents }), reason: reason || null, idempotencyKey: key } });
    setDone(t('payment.refundMade', { amount: rand(r.refundPayment.refund.amountCents) }));
    setKey(crypto.randomUUID());
    setAmount('');
    setReview(null);
    q.reload();
  });
  const ask = (remaining: number) => {
    setDone(null);
    const text = amount.trim();
    const cents = text === '' ? null : parseRand(text);
    if (cents === null && text !== '') return setProblem(t('payment.refundBadAmount'));
    if (cents !== null && (cents < 1 || cents > remaining)) return setProblem(t('payment.refundOutside', { max: rand(remaining) }));
    setProblem(null);
    setReview({ cents });
  };
  return (
    <>
      <h2>{t('nav.refunds')}</h2>
      <Status q={q}>
        {({ payment }) => {
          const refunding = payment.refunds.filter((r) => r.status === 'PENDING').reduce((sum, r) => sum + r.amountCents, 0);
          const remaining = payment.amount - payment.refundedCents - refunding;
          return (
          <>
            <p>
              {tNodes(refunding > 0 ? 'payment.refundedPending' : 'payment.refunded', {
                refunded: <span class="money">{rand(payment.refundedCents)}</span>,
                pending: <span class="money">{rand(refunding)}</span>,
                left: <span class="money">{rand(remaining)}</span>,
              })}
            </p>
            {payment.refunds.length === 0 ? (
              <p class="empty">{t('payment.noRefunds')}</p>
            ) : (
              <ul data-testid="refunds">
                {payment.refunds.map((r) => (
                  <li key={r.id} data-testid="refund-row">
                    <span class="money">{rand(r.amountCents)}</span> — <span data-testid="refund-status">{label(r.status)}</span>
                    {r.reason && <span translate={false}> ({r.reason})</span>} — {when(r.createdAt)}
                    {r.failureReason && <span translate={false}>: {r.failureReason}</span>}
                  </li>
                ))}
              </ul>
            )}
            {props.me.role === 'OWNER' && payment.status === 'CAPTURED' && remaining > 0 && (
              <form
                class="panel"
                onSubmit={(e) => {
                  e.preventDefault();
                  ask(remaining);
                }}
              >
                <label for="refund-amount">{t('payment.refundAmount')}</label>
                <input
                  id="refund-amount"
                  data-testid="refund-amount"
                  inputMode="decimal"
                  value={amount}
                  onInput={(e) => {
                    setAmount(e.currentTarget.value);
                    setReview(null);
                  }}
                />
                <label for="refund-reason">{t('payment.refundReason')}</label>
                <input id="refund-reason" maxLength={200} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
                <button type="submit" data-testid="refund-submit" disabled={refund.busy || review !== null}>
                  {t('payment.refundSubmit')}
                </button>
                {problem && (
                  <p class="error" role="alert">
                    {problem}
                  </p>
                )}
                {review && (
                  <div class="confirm" role="alertdialog" aria-labelledby="refund-question">
                    <p id="refund-question">
                      {review.cents === null
                        ? tNodes('payment.refundAll', { amount: <span class="money">{rand(remaining)}</span> })
                        : tNodes('payment.refundPart', { amount: <span class="money">{rand(review.cents)}</span>, total: <span class="money">{rand(payment.amount)}</span> })}{' '}
                      {t('payment.refundNote')}
                    </p>
                    <button type="button" data-testid="refund-confirm" disabled={refund.busy} onClick={() => void refund.run(review.cents)}>
                      {t('payment.refundYes', { amount: rand(review.cents ?? remaining) })}
                    </button>{' '}
                    <button type="button" class="small" onClick={() => setReview(null)}>
                      {t('payment.refundNo')}
                    </button>
                  </div>
                )}
              </form>
            )}
            {/* Outside the form: a refund of all that was left takes the form away, not its answer. */}
            <Failure error={refund.error} />
            {done && <p role="status">{done}</p>}
          </>
          );
        }}
      </Status>
    </>
  );
}
