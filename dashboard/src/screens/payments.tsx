import { useState } from 'preact/hooks';
import { graphql, request } from '../graphql.ts';
import { useLive, useQuery } from '../hooks.ts';
import { label, Link, rand, Status, Table, when } from '../ui.tsx';

/** The payments, newest first, filtered by status; new ones and changes appear as they happen. */

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

export function Payments() {
  const [status, setStatus] = useState<PaymentStatus | ''>('');
  const q = useQuery(() => request(PaymentsQuery, { status: status || null }), [status]);
  useLive(PaymentEvents, {}, q.reload);
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
