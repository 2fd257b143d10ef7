import { graphql, request } from '../graphql.ts';
import { useQuery } from '../hooks.ts';
import { label, Link, rand, Status, when } from '../ui.tsx';

/** One payout: its amounts, the bank account (masked), and its history. */

const PayoutQuery = graphql(`
  query Payout($id: UUID!) {
    payout(id: $id) {
      id merchantReference description status amountCents feeCents grossAmountCents createdAt completedAt failureReason rejectionReason externalTransferId
      bankAccount { bankName branchCode accountHolder accountNumberMasked }
      events { id type createdAt }
    }
  }
`);

export function Payout(props: { id: string }) {
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
              <dt>Bank's transfer reference</dt>
              <dd data-testid="payout-transfer-reference">{p.externalTransferId ?? '—'}</dd>
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
