import { useState } from 'preact/hooks';
import { t } from '../i18n.ts';
import { graphql, request } from '../graphql.ts';
import { useLive, usePages, useQuery } from '../hooks.ts';
import { label, Link, nextCursor, Pager, rand, Status, Table, when } from '../ui.tsx';

/**
 * Every refund of the merchant, of all its payments, newest first, a page at a time, filtered by
 * status; each links to its payment. A refund's outcome shows as it comes (the payment events).
 */

const REFUND_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
type RefundStatus = (typeof REFUND_STATUSES)[number];

const RefundsQuery = graphql(`
  query Refunds($status: RefundStatus, $after: String) {
    viewer {
      id
      refunds(first: 25, after: $after, status: $status) {
        totalCount
        pageInfo { hasNextPage endCursor }
        edges { node { id status amountCents reason failureReason createdAt paymentId payment { merchantOrderId } } }
      }
    }
  }
`);
const PaymentEvents = graphql(`
  subscription RefundPaymentEvents { paymentEvents { id type } }
`);

export function Refunds() {
  const [status, setStatus] = useState<RefundStatus | ''>('');
  const pages = usePages<string>([status]);
  const q = useQuery(() => request(RefundsQuery, { status: status || null, after: pages.at }), [status, pages.at]);
  useLive(PaymentEvents, {}, q.reload);
  return (
    <section aria-labelledby="h-refunds">
      <h1 id="h-refunds">{t('nav.refunds')}</h1>
      <div class="filters">
        <span>
          <label for="refund-status">{t('payments.status')}</label>
          <select id="refund-status" value={status} onChange={(e) => setStatus(e.currentTarget.value as RefundStatus | '')}>
            <option value="">{t('payments.all')}</option>
            {REFUND_STATUSES.map((s) => (
              <option value={s}>{label(s)}</option>
            ))}
          </select>
        </span>
      </div>
      <Status q={q}>
        {({ viewer: { refunds } }) => (
          <>
            <Table
              testid="refunds-table"
              caption={t('refunds.count', { count: refunds.totalCount })}
              columns={[t('refunds.col.payment'), t('payments.status'), { title: t('payments.amount'), numeric: true }, t('refunds.col.reason'), t('refunds.col.asked')]}
              rows={refunds.edges}
              empty={status ? t('refunds.noneIn', { status: label(status) }) : t('refunds.none')}
              row={({ node: r }) => (
                <tr data-testid="refund-row" key={r.id}>
                  <td translate={false}>
                    <Link href={`/dashboard/payments/${r.paymentId}`}>{r.payment.merchantOrderId}</Link>
                  </td>
                  <td>
                    {label(r.status)}
                    {r.failureReason && <span translate={false}>: {r.failureReason}</span>}
                  </td>
                  <td class="num">{rand(r.amountCents)}</td>
                  <td translate={false}>{r.reason ?? '—'}</td>
                  <td>{when(r.createdAt)}</td>
                </tr>
              )}
            />
            <Pager pages={pages} next={nextCursor(refunds.pageInfo)} what={t('nav.refunds')} />
          </>
        )}
      </Status>
    </section>
  );
}
