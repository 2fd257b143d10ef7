import { useState } from 'preact/hooks';
import { ApiError, graphql, request } from '../graphql.ts';
import { type Me, useAction, useLive, usePages, useQuery } from '../hooks.ts';
import { Failure, label, Link, nextCursor, Pager, rand, Status, Table, toCents, when } from '../ui.tsx';

/** The payouts, newest first, updated as they move; owners create one here. */

const PayoutsQuery = graphql(`
  query Payouts($after: String) {
    payouts(first: 25, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { id merchantReference status amountCents feeCents createdAt bankAccount { bankName accountNumberMasked } } }
    }
  }
`);
const CreatePayout = graphql(`
  mutation CreatePayout($input: CreatePayoutInput!) {
    createPayout(input: $input) { payout { id status amountCents } }
  }
`);
const PayoutEvents = graphql(`
  subscription PayoutEvents { payoutEvents { id type } }
`);

export function Payouts(props: { me: Me }) {
  const pages = usePages<string>([]);
  const q = useQuery(() => request(PayoutsQuery, { after: pages.at }), [pages.at]);
  useLive(PayoutEvents, {}, q.reload);
  return (
    <section aria-labelledby="h-payouts">
      <h1 id="h-payouts">Payouts</h1>
      {props.me.role === 'OWNER' && <NewPayout done={q.reload} />}
      <Status q={q}>
        {({ payouts }) => (
          <>
          <Table
            testid="payouts-table"
            caption={`${payouts.totalCount} payouts, newest first`}
            columns={['Reference', 'Status', { title: 'Amount', numeric: true }, 'Account', 'Created']}
            rows={payouts.edges}
            empty="No payouts yet."
            row={({ node: p }) => (
              <tr data-testid="payout-row" key={p.id}>
                <td>
                  <Link href={`/dashboard/payouts/${p.id}`}>{p.merchantReference ?? p.id.slice(0, 8)}</Link>
                </td>
                <td>{label(p.status)}</td>
                <td class="num">{rand(p.amountCents)}</td>
                <td>{p.bankAccount ? `${p.bankAccount.bankName} ${p.bankAccount.accountNumberMasked}` : '—'}</td>
                <td>{when(p.createdAt)}</td>
              </tr>
            )}
          />
          <Pager pages={pages} next={nextCursor(payouts.pageInfo)} what="payouts" />
          </>
        )}
      </Status>
    </section>
  );
}

function NewPayout(props: { done: () => void }) {
  const [f, setF] = useState({ amount: '', bankName: '', branchCode: '', accountNumber: '', accountHolder: '', reference: '' });
  const [created, setCreated] = useState<string | null>(null);
  const set = (k: keyof typeof f) => (e: { currentTarget: HTMLInputElement }) => setF({ ...f, [k]: e.currentTarget.value });
  const a = useAction(async () => {
    const cents = toCents(f.amount);
    if (!Number.isFinite(cents)) throw new ApiError('VALIDATION_FAILED', 'Amount: write it in rand, such as 150.00');
    const r = await request(CreatePayout, {
      input: {
        amountCents: cents,
        currency: 'ZAR',
        payoutMethod: 'EFT',
        merchantReference: f.reference || null,
        paymentDetails: { bankName: f.bankName, branchCode: f.branchCode, accountNumber: f.accountNumber, accountHolder: f.accountHolder },
      },
    });
    setCreated(`Payout of ${rand(r.createPayout.payout.amountCents)} created: ${label(r.createPayout.payout.status)}.`);
    props.done();
  });
  const field = (k: keyof typeof f, text: string, extra: Record<string, unknown> = {}) => (
    <>
      <label for={`payout-${k}`}>{text}</label>
      <input id={`payout-${k}`} value={f[k]} onInput={set(k)} {...extra} />
    </>
  );
  return (
    <details class="panel">
      <summary>New payout</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void a.run();
        }}
      >
        {field('amount', 'Amount (rand)', { inputMode: 'decimal', required: true, 'data-testid': 'payout-amount' })}
        {field('bankName', 'Bank', { required: true, 'data-testid': 'payout-bank' })}
        {field('branchCode', 'Branch code (6 digits)', { inputMode: 'numeric', pattern: '\\d{6}', required: true, 'data-testid': 'payout-branch' })}
        {field('accountNumber', 'Account number', { inputMode: 'numeric', required: true, autocomplete: 'off', 'data-testid': 'payout-account' })}
        {field('accountHolder', 'Account holder', { required: true, 'data-testid': 'payout-holder' })}
        {field('reference', 'Your reference (optional)', { 'data-testid': 'payout-reference' })}
        <button type="submit" data-testid="payout-create" disabled={a.busy}>
          Create payout
        </button>
        <Failure error={a.error} />
        {created && <p role="status">{created}</p>}
      </form>
    </details>
  );
}
