import { useState } from 'preact/hooks';
import { graphql, request } from '../graphql.ts';
import { useLive, usePages, useQuery, useSettled } from '../hooks.ts';
import { type MessageKey, t } from '../i18n.ts';
import { Link, nextCursor, Pager, rand, Status, Table, when } from '../ui.tsx';

/**
 * The payments, newest first, a page at a time, filtered by status and found by a search (order
 * reference, amount in rand, customer e-mail); new ones and changes appear as they happen.
 */

const PAYMENT_STATUSES = ['CREATED', 'INITIATED', 'AWAITING_WEBHOOK', 'CAPTURED', 'FAILED', 'CANCELLED'] as const;
type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
/** A status in words, in the dashboard's language. */
const statusWords = (s: PaymentStatus) => t(`status.${s.toLowerCase()}` as MessageKey);

const PaymentsQuery = graphql(`
  query Payments($status: PaymentStatus, $after: String, $search: String) {
    payments(first: 25, after: $after, status: $status, search: $search) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { id merchantOrderId description status amount createdAt } }
    }
  }
`);
const PaymentEvents = graphql(`
  subscription PaymentEvents { paymentEvents { id type } }
`);

export function Payments() {
  const [status, setStatus] = useState<PaymentStatus | ''>('');
  const [text, setText] = useState('');
  const search = useSettled(text.trim());
  const pages = usePages<string>([status, search]);
  const q = useQuery(() => request(PaymentsQuery, { status: status || null, search: search || null, after: pages.at }), [status, search, pages.at]);
  useLive(PaymentEvents, {}, q.reload);
  return (
    <section aria-labelledby="h-payments">
      <h1 id="h-payments">{t('nav.payments')}</h1>
      <div class="filters" role="search">
        <span>
          <label for="payments-search">{t('payments.find')}</label>
          <input
            id="payments-search"
            data-testid="payments-search"
            type="search"
            value={text}
            placeholder={t('payments.placeholder')}
            onInput={(e) => setText(e.currentTarget.value)}
          />
        </span>
        <span>
          <label for="payment-status">{t('payments.status')}</label>
          <select id="payment-status" value={status} onChange={(e) => setStatus(e.currentTarget.value as PaymentStatus | '')}>
            <option value="">{t('payments.all')}</option>
            {PAYMENT_STATUSES.map((s) => (
              <option value={s}>{statusWords(s)}</option>
            ))}
          </select>
        </span>
      </div>
      <Status q={q}>
        {({ payments }) => (
          <>
          <Table
            testid="payments-table"
            caption={search ? t('payments.found', { count: payments.totalCount, search }) : t('payments.count', { count: payments.totalCount })}
            columns={[t('payments.order'), t('payments.status'), { title: t('payments.amount'), numeric: true }, t('payments.created')]}
            rows={payments.edges}
            empty={search ? t('payments.notFound', { search }) : status ? t('payments.noneIn', { status: statusWords(status) }) : t('payments.none')}
            row={({ node: p }) => (
              <tr data-testid="payment-row" key={p.id}>
                <td>
                  <Link href={`/dashboard/payments/${p.id}`}>{p.merchantOrderId}</Link>
                </td>
                <td>{statusWords(p.status)}</td>
                <td class="num">{rand(p.amount)}</td>
                <td>{when(p.createdAt)}</td>
              </tr>
            )}
          />
          <Pager pages={pages} next={nextCursor(payments.pageInfo)} what={t('nav.payments')} />
          </>
        )}
      </Status>
    </section>
  );
}
