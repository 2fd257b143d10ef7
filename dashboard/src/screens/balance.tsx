import { graphql, request } from '../graphql.ts';
import { useQuery } from '../hooks.ts';
import { rand, Status } from '../ui.tsx';

/** What the merchant holds: available, reserved, and the totals received, charged and paid out. */

const BalanceQuery = graphql(`
  query Balance {
    balance { availableCents reservedCents balanceCents totals { grossCents feesCents withdrawalsCents } }
  }
`);

export function Balance() {
  const q = useQuery(() => request(BalanceQuery));
  return (
    <section aria-labelledby="h-balance">
      <h1 id="h-balance">Balance</h1>
      <Status q={q}>
        {({ balance: b }) => (
          <dl class="cards">
            <div>
              <dt>Available</dt>
              <dd data-testid="balance-available">{rand(b.availableCents)}</dd>
            </div>
            <div>
              <dt>Reserved</dt>
              <dd>{rand(b.reservedCents)}</dd>
            </div>
            <div>
              <dt>Balance</dt>
              <dd>{rand(b.balanceCents)}</dd>
            </div>
            <div>
              <dt>Received (gross)</dt>
              <dd>{rand(b.totals.grossCents)}</dd>
            </div>
            <div>
              <dt>Fees</dt>
              <dd>{rand(b.totals.feesCents)}</dd>
            </div>
            <div>
              <dt>Paid out</dt>
              <dd>{rand(b.totals.withdrawalsCents)}</dd>
            </div>
          </dl>
        )}
      </Status>
    </section>
  );
}
