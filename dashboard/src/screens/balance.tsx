import { graphql, request } from '../graphql.ts';
import { useQuery } from '../hooks.ts';
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
      <h1 id="h-balance">Balance</h1>
      <Status q={q}>
        {({ balance: b }) => {
          const d = b.breakdown;
          return (
            <>
              <dl class="cards">
                <Card title="Available" testid="balance-available" cents={b.availableCents} why="What you can pay out or refund now: the balance less what is reserved." />
                <Card title="Reserved" cents={b.reservedCents} why="Held for payouts not yet paid and refunds not yet done; still part of the balance." />
                <Card title="Balance" testid="balance-total" cents={b.balanceCents} why="Everything below added up: available plus reserved." />
              </dl>
              <h2>How the balance adds up</h2>
              <dl class="cards" data-testid="balance-breakdown">
                <Card sign="+" title="Payments in" cents={d.paymentsCents} why="Customers' captured payments, at their full amount." />
                <Card sign="−" title="Payment fees" cents={d.paymentFeesCents} why="zarpay's fees on those payments." />
                <Card sign="+" title="Top-ups" cents={d.creditsCents} why="Money your account manager put in: not a sale." />
                <Card sign="−" title="Refunds" cents={d.refundsCents} why="Given back to customers (refunds that went through)." />
                <Card sign="−" title="Paid out" cents={d.payoutsCents} why="Sent to your bank account by completed payouts." />
                <Card sign="−" title="Payout fees" cents={d.payoutFeesCents} why="The fee of each completed payout." />
                <Card sign="+" title="Returned by the bank" cents={d.returnsCents} why="Payouts the bank sent back, credited again." />
              </dl>
            </>
          );
        }}
      </Status>
    </section>
  );
}
