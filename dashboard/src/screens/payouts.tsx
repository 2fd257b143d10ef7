import { useState } from 'preact/hooks';
import { ApiError, graphql, request } from '../graphql.ts';
import { t, tNodes } from '../i18n.ts';
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
      <h1 id="h-payouts">{t('nav.payouts')}</h1>
      {props.me.role === 'OWNER' && <NewPayout done={q.reload} />}
      <Status q={q}>
        {({ payouts }) => (
          <>
          <Table
            testid="payouts-table"
            caption={t('payouts.count', { count: payouts.totalCount })}
            columns={[t('payout.reference'), t('payments.status'), { title: t('payments.amount'), numeric: true }, t('payouts.col.account'), t('payments.created')]}
            rows={payouts.edges}
            empty={t('payouts.none')}
            row={({ node: p }) => (
              <tr data-testid="payout-row" key={p.id}>
                <td translate={false}>
                  <Link href={`/dashboard/payouts/${p.id}`}>{p.merchantReference ?? p.id.slice(0, 8)}</Link>
                </td>
                <td>{label(p.status)}</td>
                <td class="num">{rand(p.amountCents)}</td>
                <td translate={false}>{p.bankAccount ? `${p.bankAccount.bankName} ${p.bankAccount.accountNumberMasked}` : '—'}</td>
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
    <Field id={props.id} text={t('payouts.bank')} error={props.error} field="branchCode">
      {(describedBy) => (
        <>
          <select id={props.id} required data-testid={props.testid} value={props.value} aria-describedby={describedBy} onChange={(e) => props.onPick(props.banks.find((b) => b.id === e.currentTarget.value))}>
            <option value="">{t('payouts.chooseBank')}</option>
            {props.banks.map((b) => (
              <option key={b.id} value={b.id} translate={false}>
                {b.name}
              </option>
            ))}
          </select>
          <p class="hint" data-testid={`${props.testid}-branch`}>
            {bank ? t('payouts.branch', { code: bank.universalBranchCode }) : t('payouts.branchFollows')}
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
      <summary>{t('payouts.new')}</summary>
      <Status q={q}>{(data) => <PayoutForm data={data} done={() => (q.reload(), props.done())} />}</Status>
    </details>
  );
}

function PayoutForm(props: { data: FormData & { payees: { id: string; name: string; bank: string; accountHolder: string; accountNumberMasked: string }[]; balance: { availableCents: number }; viewer: { payoutFeeCents: number } }; done: () => void }) {
  const { banks, payees, balance, viewer } = props.data;
  const [to, setTo] = useState<string>(payees[0]?.id ?? 'new');
  const [f, setF] = useState({ amount: '', bank: '', accountNumber: '', accountHolder: '', reference: '', password: '', code: '' });
  const [created, setCreated] = useState<{ amountCents: number; status: string } | null>(null);
  const set = (k: keyof typeof f) => (e: { currentTarget: HTMLInputElement }) => setF({ ...f, [k]: e.currentTarget.value });
  const bank = banks.find((b) => b.id === f.bank);
  const cents = toCents(f.amount);
  const gross = Number.isFinite(cents) ? cents + viewer.payoutFeeCents : NaN;
  const a = useAction(async () => {
    if (!Number.isFinite(cents)) throw new ApiError('VALIDATION_FAILED', t('links.badAmount'), 200, [{ field: 'amountCents', message: t('payouts.badAmountHelp') }]);
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
    setCreated({ amountCents: r.createPayout.payout.amountCents, status: r.createPayout.payout.status });
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
      {input('amount', 'amountCents', t('payouts.amount'), { inputMode: 'decimal', required: true, 'data-testid': 'payout-amount' })}
      <p class="hint" data-testid="payout-cost" aria-live="polite">
        {tNodes(Number.isFinite(gross) ? 'payouts.costTaken' : 'payouts.cost', {
          available: <span class="money" data-testid="payout-available">{rand(balance.availableCents)}</span>,
          fee: <span class="money" data-testid="payout-fee">{rand(viewer.payoutFeeCents)}</span>,
          gross: <strong class="money">{rand(gross)}</strong>,
        })}
        {Number.isFinite(gross) && gross > balance.availableCents && <span class="error"> ({t('payouts.tooMuch')})</span>}
      </p>
      <label for="payout-to">{t('payouts.to')}</label>
      <select id="payout-to" data-testid="payout-to" value={to} onChange={(e) => setTo(e.currentTarget.value)}>
        {payees.map((p) => (
          <option key={p.id} value={p.id} translate={false}>
            {p.name} ({p.bank} {p.accountNumberMasked})
          </option>
        ))}
        <option value="new">{t('payouts.newAccount')}</option>
      </select>
      <FieldProblem id="payout-to-problem" error={a.error} field="payeeId" />
      {to === 'new' && (
        <>
          <BankPicker id="payout-bank" testid="payout-bank" banks={banks} value={f.bank} onPick={(b) => setF({ ...f, bank: b?.id ?? '' })} error={a.error} />
          {input('accountNumber', 'accountNumber', t('payouts.accountNumber'), { inputMode: 'numeric', required: true, autocomplete: 'off', 'data-testid': 'payout-account' })}
          {input('accountHolder', 'accountHolder', t('payouts.accountHolder'), { required: true, 'data-testid': 'payout-holder' })}
          {input('password', 'password', t('payouts.password'), { type: 'password', required: true, autocomplete: 'current-password', 'data-testid': 'payout-password' })}
          {input('code', 'code', t('payouts.code'), { inputMode: 'numeric', autocomplete: 'one-time-code', 'data-testid': 'payout-code' })}
        </>
      )}
      {input('reference', 'merchantReference', t('payouts.reference'), { 'data-testid': 'payout-reference' })}
      <button type="submit" data-testid="payout-create" disabled={a.busy}>
        {t('payouts.create')}
      </button>
      <Failure error={a.error} shownBeside={['amountCents', 'branchCode', 'accountNumber', 'accountHolder', 'bankName', 'merchantReference', 'payeeId', 'password', 'code']} />
      {created && (
        <p role="status">
          {tNodes('payouts.created', { amount: <span class="money">{rand(created.amountCents)}</span>, status: label(created.status) })}
        </p>
      )}
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
      <h2 id="h-payees">{t('payees.title')}</h2>
      <Status q={q}>
        {({ payees, banks }) => (
          <>
            <Table
              testid="payees-table"
              caption={t('payees.count', { count: payees.length })}
              columns={[t('payees.col.name'), t('payouts.col.account'), props.owner && t('payees.remove')]}
              rows={payees}
              empty={t('payees.none')}
              row={(p) => (
                <tr data-testid="payee-row" key={p.id}>
                  <td translate={false}>{p.name}</td>
                  <td translate={false}>
                    {p.accountHolder}, {p.bank} {p.accountNumberMasked}
                  </td>
                  {props.owner && (
                    <td>
                      <button type="button" class="secondary" disabled={remove.busy} onClick={() => void remove.run(p.id)} aria-label={t('payees.removeName', { name: p.name })}>
                        {t('payees.remove')}
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
    setAdded(r.createPayee.payee.name);
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
      <summary>{t('payees.new')}</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void a.run();
        }}
      >
        {input('name', 'name', t('payees.name'), { required: true, 'data-testid': 'payee-name' })}
        <BankPicker id="payee-bank" testid="payee-bank" banks={props.banks} value={f.bank} onPick={(b) => setF({ ...f, bank: b?.id ?? '' })} error={a.error} />
        {input('accountNumber', 'accountNumber', t('payouts.accountNumber'), { inputMode: 'numeric', required: true, autocomplete: 'off', 'data-testid': 'payee-account' })}
        {input('accountHolder', 'accountHolder', t('payouts.accountHolder'), { required: true, 'data-testid': 'payee-holder' })}
        {input('password', 'password', t('payouts.password'), { type: 'password', required: true, autocomplete: 'current-password', 'data-testid': 'payee-password' })}
        {input('code', 'code', t('payouts.code'), { inputMode: 'numeric', autocomplete: 'one-time-code', 'data-testid': 'payee-code' })}
        <button type="submit" data-testid="payee-create" disabled={a.busy}>
          {t('payees.submit')}
        </button>
        <Failure error={a.error} shownBeside={['name', 'branchCode', 'accountNumber', 'accountHolder', 'bankName', 'password', 'code']} />
        {added && <p role="status">{tNodes('payees.saved', { name: <span translate={false}>{added}</span> })}</p>}
      </form>
    </details>
  );
}
