import { graphql, request } from '../graphql.ts';
import { useQuery } from '../hooks.ts';
import { t } from '../i18n.ts';
import { rand, Status } from '../ui.tsx';

/**
 * What the merchant holds, and what made it, card by card, each with one line that says what it
 * counts, so that a bookkeeper can add them up: payments in less their fees, plus top-ups, less
 * payouts, payout fees and refunds, plus returns, is the balance (`Balance.breakdown`).
 */

const BalanceQuery = graphql(`
  query Balance {
    balance {
      availableCents reservedCents balanceCents
      breakdown { paymentsCents paymentFeesCents creditsCents payoutsCents payoutFeesCents refundsCents returnsCents }
    }
  }
`);

function Card(props: { title: string; cents: number; why: string; testid?: string; sign?: '+' | '−' }) {
  return (
    <div>
      <dt>
        {props.sign && <span aria-hidden="true">{props.sign} </span>}
        {props.title}
      </dt>
      <dd data-testid={props.testid}>{rand(props.cents)}</dd>
      <dd class="why">{props.why}</dd>
    </div>
  );
}

export function Balance() {
  const q = useQuery(() => request(BalanceQuery));
  return (
    <section aria-labelledby="h-balance">
      <h1 id="h-balance">{t('nav.balance')}</h1>
      <Status q={q}>
        {({ balance: b }) => {
          const d = b.breakdown;
          return (
            <>
              <dl class="cards">
                <Card title={t('balance.available')} testid="balance-available" cents={b.availableCents} why={t('balance.availableWhy')} />
                <Card title={t('balance.reserved')} cents={b.reservedCents} why={t('balance.reservedWhy')} />
                <Card title={t('balance.total')} testid="balance-total" cents={b.balanceCents} why={t('balance.totalWhy')} />
              </dl>
              <h2>{t('balance.addsUp')}</h2>
              <dl class="cards" data-testid="balance-breakdown">
                <Card sign="+" title={t('balance.payments')} cents={d.paymentsCents} why={t('balance.paymentsWhy')} />
                <Card sign="−" title={t('balance.paymentFees')} cents={d.paymentFeesCents} why={t('balance.paymentFeesWhy')} />
                <Card sign="+" title={t('balance.credits')} cents={d.creditsCents} why={t('balance.creditsWhy')} />
                <Card sign="−" title={t('balance.refunds')} cents={d.refundsCents} why={t('balance.refundsWhy')} />
                <Card sign="−" title={t('balance.payouts')} cents={d.payoutsCents} why={t('balance.payoutsWhy')} />
                <Card sign="−" title={t('balance.payoutFees')} cents={d.payoutFeesCents} why={t('balance.payoutFeesWhy')} />
                <Card sign="+" title={t('balance.returns')} cents={d.returnsCents} why={t('balance.returnsWhy')} />
              </dl>
            </>
          );
        }}
      </Status>
    </section>
  );
}
