import { graphql, request } from '../graphql.ts';
import { useQuery } from '../hooks.ts';
import { t } from '../i18n.ts';
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
        <Link href="/dashboard/payouts">← {t('nav.payouts')}</Link>
      </p>
      <h1 id="h-payout">{t('payout.title')}</h1>
      <Status q={q}>
        {({ payout: p }) => (
          <>
            <dl class="details">
              <dt>{t('payout.reference')}</dt>
              <dd translate={false}>{p.merchantReference ?? '—'}</dd>
              <dt>{t('payments.status')}</dt>
              <dd>{label(p.status)}</dd>
              <dt>{t('payments.amount')}</dt>
              <dd>{rand(p.amountCents)}</dd>
              <dt>{t('payment.fee')}</dt>
              <dd>{rand(p.feeCents)}</dd>
              <dt>{t('payout.gross')}</dt>
              <dd>{rand(p.grossAmountCents)}</dd>
              <dt>{t('payout.bankAccount')}</dt>
              <dd data-testid="payout-bank-account" translate={false}>
                {p.bankAccount ? `${p.bankAccount.accountHolder}, ${p.bankAccount.bankName} ${p.bankAccount.branchCode}, ${p.bankAccount.accountNumberMasked}` : '—'}
              </dd>
              <dt>{t('payout.transferReference')}</dt>
              <dd data-testid="payout-transfer-reference" translate={false}>
                {p.externalTransferId ?? '—'}
              </dd>
              <dt>{t('payments.created')}</dt>
              <dd>{when(p.createdAt)}</dd>
              <dt>{t('payment.completed')}</dt>
              <dd>{when(p.completedAt)}</dd>
              {(p.failureReason || p.rejectionReason) && (
                <>
                  <dt>{t('payout.why')}</dt>
                  <dd translate={false}>{p.failureReason ?? p.rejectionReason}</dd>
                </>
              )}
            </dl>
            <h2>{t('payout.history')}</h2>
            <ol>
              {p.events.map((e) => (
                <li key={e.id}>
                  <span translate={false}>{e.type}</span> — {when(e.createdAt)}
                </li>
              ))}
            </ol>
          </>
        )}
      </Status>
    </section>
  );
}
