import { useState } from 'preact/hooks';
import { ApiError, graphql, request } from '../graphql.ts';
import { t } from '../i18n.ts';
import { type Me, useAction, useLive, usePages, useQuery } from '../hooks.ts';
import { Failure, FieldProblem, label, Link, nextCursor, Pager, rand, Status, Table, toCents, when } from '../ui.tsx';

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
          <Pager pages={pages} next={nextCursor(payouts.pageInfo)} what={t('nav.payouts')} />
          </>
        )}
      </Status>
      {/* Below the list once it is there: the list arriving above would otherwise push the payees down (a layout shift). */}
      {q.data && <Payees owner={props.me.role === 'OWNER'} />}
    </section>
  );
}

const PayoutFormQuery = graphql(`
  query PayoutForm {
    banks { id name universalBranchCode }
    payees { id name bank accountHolder accountNumberMasked }
    balance { availableCents }
    viewer { payoutFeeCents }
  }
`);
const CreatePayee = graphql(`
  mutation CreatePayee($input: CreatePayeeInput!) {
    createPayee(input: $input) { payee { id name } }
  }
`);
const RemovePayee = graphql(`
  mutation RemovePayee($id: UUID!) {
    removePayee(id: $id) { payee { id } }
  }
`);

type Bank = { id: string; name: string; universalBranchCode: string };
type FormData = NonNullable<ReturnType<typeof useQuery<{ banks: Bank[] }>>['data']>;

/** A field with its label and, beside it, what the service said is wrong with it. */
function Field(props: { id: string; text: string; error: ApiError | null; field: string; children: (describedBy: string | undefined) => preact.JSX.Element }) {
  const problem = props.error?.about(props.field);
  return (
    <>
      <label for={props.id}>{props.text}</label>
      {props.children(problem ? `${props.id}-problem` : undefined)}
      <FieldProblem id={`${props.id}-problem`} error={props.error} field={props.field} />
    </>
  );
}

/** The bank picker: the service's banks by name; choosing one fills its universal branch code. */
function BankPicker(props: { id: string; banks: readonly Bank[]; value: string; onPick: (bank: Bank | undefined) => void; error: ApiError | null; testid: string }) {
  const bank = props.banks.find((b) => b.id === props.value);
  return (
    <Field id={props.id} text="Bank" error={props.error} field="branchCode">
      {(describedBy) => (
        <>
          <select id={props.id} required data-testid={props.testid} value={props.value} aria-describedby={describedBy} onChange={(e) => props.onPick(props.banks.find((b) => b.id === e.currentTarget.value))}>
            <option value="">Choose the bank…</option>
            {props.banks.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
              </option>
            ))}
          </select>
          <p class="hint" data-testid={`${props.testid}-branch`}>
            {bank ? `Branch code ${bank.universalBranchCode} (the bank's universal code)` : 'The branch code follows from the bank.'}
          </p>
        </>
      )}
    </Field>
  );
}

export function NewPayout(props: { done: () => void }) {
  const q = useQuery(() => request(PayoutFormQuery, {}));
  return (
    <details class="panel">
      <summary>New payout</summary>
      <Status q={q}>{(data) => <PayoutForm data={data} done={() => (q.reload(), props.done())} />}</Status>
    </details>
  );
}

function PayoutForm(props: { data: FormData & { payees: { id: string; name: string; bank: string; accountHolder: string; accountNumberMasked: string }[]; balance: { availableCents: number }; viewer: { payoutFeeCents: number } }; done: () => void }) {
  const { banks, payees, balance, viewer } = props.data;
  const [to, setTo] = useState<string>(payees[0]?.id ?? 'new');
  const [f, setF] = useState({ amount: '', bank: '', accountNumber: '', accountHolder: '', reference: '', password: '', code: '' });
  const [created, setCreated] = useState<string | null>(null);
  const set = (k: keyof typeof f) => (e: { currentTarget: HTMLInputElement }) => setF({ ...f, [k]: e.currentTarget.value });
  const bank = banks.find((b) => b.id === f.bank);
  const cents = toCents(f.amount);
  const gross = Number.isFinite(cents) ? cents + viewer.payoutFeeCents : NaN;
  const a = useAction(async () => {
    if (!Number.isFinite(cents)) throw new ApiError('VALIDATION_FAILED', 'The amount is not valid', 200, [{ field: 'amountCents', message: 'write it in rand, such as 150.00' }]);
    const r = await request(CreatePayout, {
      input: {
        amountCents: cents,
        currency: 'ZAR',
        payoutMethod: 'EFT',
        merchantReference: f.reference || null,
        ...(to === 'new'
          ? { paymentDetails: { bankName: bank?.name ?? '', branchCode: bank?.universalBranchCode ?? '', accountNumber: f.accountNumber, accountHolder: f.accountHolder } }
          : { payeeId: to }),
        // A new account's details from a session need the password again (and the second factor), as a payee does.
        ...(to === 'new' && { stepUp: { password: f.password, ...(f.code.trim() !== '' && { code: f.code.trim() }) } }),
      },
    });
    setF({ ...f, password: '', code: '' });
    setCreated(`Payout of ${rand(r.createPayout.payout.amountCents)} created: ${label(r.createPayout.payout.status)}.`);
    props.done();
  });
  const input = (k: keyof typeof f, field: string, text: string, extra: Record<string, unknown> = {}) => (
    <Field id={`payout-${k}`} text={text} error={a.error} field={field}>
      {(describedBy) => <input id={`payout-${k}`} value={f[k]} onInput={set(k)} aria-describedby={describedBy} aria-invalid={describedBy ? 'true' : undefined} {...extra} />}
    </Field>
  );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void a.run();
      }}
    >
      {input('amount', 'amountCents', 'Amount (rand)', { inputMode: 'decimal', required: true, 'data-testid': 'payout-amount' })}
      <p class="hint" data-testid="payout-cost" aria-live="polite">
        Available: <span data-testid="payout-available">{rand(balance.availableCents)}</span>. Payout fee: <span data-testid="payout-fee">{rand(viewer.payoutFeeCents)}</span>
        {Number.isFinite(gross) && (
          <>
            . Taken from the balance: <strong>{rand(gross)}</strong>
            {gross > balance.availableCents && <span class="error"> (more than is available)</span>}
          </>
        )}
      </p>
      <label for="payout-to">Pay to</label>
      <select id="payout-to" data-testid="payout-to" value={to} onChange={(e) => setTo(e.currentTarget.value)}>
        {payees.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name} ({p.bank} {p.accountNumberMasked})
          </option>
        ))}
        <option value="new">A new account (type its details)</option>
      </select>
      <FieldProblem id="payout-to-problem" error={a.error} field="payeeId" />
      {to === 'new' && (
        <>
          <BankPicker id="payout-bank" testid="payout-bank" banks={banks} value={f.bank} onPick={(b) => setF({ ...f, bank: b?.id ?? '' })} error={a.error} />
          {input('accountNumber', 'accountNumber', 'Account number', { inputMode: 'numeric', required: true, autocomplete: 'off', 'data-testid': 'payout-account' })}
          {input('accountHolder', 'accountHolder', 'Account holder', { required: true, 'data-testid': 'payout-holder' })}
          {input('password', 'password', 'Your password, again (a new account to pay needs it)', { type: 'password', required: true, autocomplete: 'current-password', 'data-testid': 'payout-password' })}
          {input('code', 'code', 'Your authenticator code (only if you set up a second factor)', { inputMode: 'numeric', autocomplete: 'one-time-code', 'data-testid': 'payout-code' })}
        </>
      )}
      {input('reference', 'merchantReference', 'Your reference (optional)', { 'data-testid': 'payout-reference' })}
      <button type="submit" data-testid="payout-create" disabled={a.busy}>
        Create payout
      </button>
      <Failure error={a.error} shownBeside={['amountCents', 'branchCode', 'accountNumber', 'accountHolder', 'bankName', 'merchantReference', 'payeeId', 'password', 'code']} />
      {created && <p role="status">{created}</p>}
    </form>
  );
}

/**
 * The saved payees, and (for an owner) the form that adds one: it asks for the password again,
 * since a new account to pay is what a stolen session would want.
 */
export function Payees(props: { owner: boolean }) {
  const q = useQuery(() => request(PayoutFormQuery, {}));
  const remove = useAction(async (id: string) => {
    await request(RemovePayee, { id });
    q.reload();
  });
  return (
    <section aria-labelledby="h-payees">
      <h2 id="h-payees">Saved payees</h2>
      <Status q={q}>
        {({ payees, banks }) => (
          <>
            <Table
              testid="payees-table"
              caption={`${payees.length} saved payees`}
              columns={['Name', 'Account', props.owner && 'Remove']}
              rows={payees}
              empty="No saved payees yet."
              row={(p) => (
                <tr data-testid="payee-row" key={p.id}>
                  <td>{p.name}</td>
                  <td>
                    {p.accountHolder}, {p.bank} {p.accountNumberMasked}
                  </td>
                  {props.owner && (
                    <td>
                      <button type="button" class="secondary" disabled={remove.busy} onClick={() => void remove.run(p.id)} aria-label={`Remove ${p.name}`}>
                        Remove
                      </button>
                    </td>
                  )}
                </tr>
              )}
            />
            <Failure error={remove.error} />
            {props.owner && <NewPayee banks={banks} done={q.reload} />}
          </>
        )}
      </Status>
    </section>
  );
}

function NewPayee(props: { banks: readonly Bank[]; done: () => void }) {
  const [f, setF] = useState({ name: '', bank: '', accountNumber: '', accountHolder: '', password: '', code: '' });
  const [added, setAdded] = useState<string | null>(null);
  const set = (k: keyof typeof f) => (e: { currentTarget: HTMLInputElement }) => setF({ ...f, [k]: e.currentTarget.value });
  const bank = props.banks.find((b) => b.id === f.bank);
  const a = useAction(async () => {
    const r = await request(CreatePayee, {
      input: {
        name: f.name,
        password: f.password,
        ...(f.code.trim() !== '' && { code: f.code.trim() }),
        paymentDetails: { bankName: bank?.name ?? '', branchCode: bank?.universalBranchCode ?? '', accountNumber: f.accountNumber, accountHolder: f.accountHolder },
      },
    });
    setAdded(`${r.createPayee.payee.name} saved.`);
    setF({ name: '', bank: '', accountNumber: '', accountHolder: '', password: '', code: '' });
    props.done();
  });
  const input = (k: keyof typeof f, field: string, text: string, extra: Record<string, unknown> = {}) => (
    <Field id={`payee-${k}`} text={text} error={a.error} field={field}>
      {(describedBy) => <input id={`payee-${k}`} value={f[k]} onInput={set(k)} aria-describedby={describedBy} aria-invalid={describedBy ? 'true' : undefined} {...extra} />}
    </Field>
  );
  return (
    <details class="panel">
      <summary>Save a payee</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void a.run();
        }}
      >
        {input('name', 'name', 'Name (yours for it)', { required: true, 'data-testid': 'payee-name' })}
        <BankPicker id="payee-bank" testid="payee-bank" banks={props.banks} value={f.bank} onPick={(b) => setF({ ...f, bank: b?.id ?? '' })} error={a.error} />
        {input('accountNumber', 'accountNumber', 'Account number', { inputMode: 'numeric', required: true, autocomplete: 'off', 'data-testid': 'payee-account' })}
        {input('accountHolder', 'accountHolder', 'Account holder', { required: true, 'data-testid': 'payee-holder' })}
        {input('password', 'password', 'Your password, again (a new account to pay needs it)', { type: 'password', required: true, autocomplete: 'current-password', 'data-testid': 'payee-password' })}
        {input('code', 'code', 'Your authenticator code (only if you set up a second factor)', { inputMode: 'numeric', autocomplete: 'one-time-code', 'data-testid': 'payee-code' })}
        <button type="submit" data-testid="payee-create" disabled={a.busy}>
          Save payee
        </button>
        <Failure error={a.error} shownBeside={['name', 'branchCode', 'accountNumber', 'accountHolder', 'bankName', 'password', 'code']} />
        {added && <p role="status">{added}</p>}
      </form>
    </details>
  );
}
