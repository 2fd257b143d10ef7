import { useState } from 'preact/hooks';
import { graphql, request } from '../graphql.ts';
import { useAction, useQuery } from '../hooks.ts';
import { t } from '../i18n.ts';
import { Failure, label, rand, Status, Table, when } from '../ui.tsx';

/** The ledger's entries between two days, with opening and closing balances, and as CSV. */

const StatementQuery = graphql(`
  query Statement($from: String!, $to: String!) {
    statement(from: $from, to: $to) {
      from to openingBalanceCents closingBalanceCents total
      entries { entryId postedAt type reference amountCents balanceAfterCents description }
    }
  }
`);

/** The statement for bookkeepers (REST `format=accounting`, CONTRACT §11), its rows as the server writes them. */
const AccountingQuery = graphql(`
  query AccountingStatement($from: String!, $to: String!) {
    statement(from: $from, to: $to) {
      from to
      accountingRows { date type description reference orderReference bankReference gross fee net balance }
    }
  }
`);

/** Today in Africa/Johannesburg, as YYYY-MM-DD. */
const today = () => new Date(Date.now() + 2 * 3600_000).toISOString().slice(0, 10);
const monthStart = () => `${today().slice(0, 8)}01`;

/** A CSV field, quoted when it must be (RFC 4180). */
const cell = (v: unknown) => {
  const s = v == null ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** A text cell for a spreadsheet: one that would run as a formula gets a leading `'`, as the server writes it. */
const textCell = (v: string | null) => cell(v != null && /^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

/** Hands the browser a file to save. */
function save(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function Statements() {
  const [from, setFrom] = useState(monthStart());
  const [to, setTo] = useState(today());
  const [asked, setAsked] = useState({ from: monthStart(), to: today() });
  const q = useQuery(() => request(StatementQuery, asked), [asked.from, asked.to]);
  const download = useAction(async () => {
    const { statement: s } = await request(StatementQuery, { from, to });
    // The same columns as REST's `GET /api/v1/statements?format=csv`.
    const lines = ['posted_at,type,reference,amount_cents,balance_after_cents,description'];
    for (const e of s.entries) lines.push([e.postedAt, e.type.toLowerCase(), e.reference, e.amountCents, e.balanceAfterCents, e.description].map(cell).join(','));
    save(`statement-${s.from}-${s.to}.csv`, lines.join('\r\n') + '\r\n');
  });
  const accounting = useAction(async () => {
    const { statement: s } = await request(AccountingQuery, { from, to });
    // The same file as REST's `GET /api/v1/statements?format=accounting`.
    const lines = ['date,type,description,reference,order_reference,bank_reference,gross,fee,net,balance'];
    for (const r of s.accountingRows) {
      lines.push([r.date, r.type, textCell(r.description), textCell(r.reference), textCell(r.orderReference), textCell(r.bankReference), r.gross, r.fee, r.net, r.balance].map((v, i) => (i >= 2 && i <= 5 ? v : cell(v))).join(','));
    }
    save(`statement-accounting-${s.from}-${s.to}.csv`, lines.join('\r\n') + '\r\n');
  });
  return (
    <section aria-labelledby="h-statements">
      <h1 id="h-statements">{t('nav.statements')}</h1>
      <form
        class="panel"
        onSubmit={(e) => {
          e.preventDefault();
          setAsked({ from, to });
        }}
      >
        <label for="statement-from">{t('statements.from')}</label>
        <input id="statement-from" data-testid="statement-from" type="date" required value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
        <label for="statement-to">{t('statements.to')}</label>
        <input id="statement-to" data-testid="statement-to" type="date" required value={to} onInput={(e) => setTo(e.currentTarget.value)} />
        <button type="submit">{t('statements.show')}</button>{' '}
        <button type="button" data-testid="statement-csv" onClick={() => void download.run()} disabled={download.busy}>
          {t('statements.csv')}
        </button>{' '}
        <button type="button" data-testid="statement-accounting" onClick={() => void accounting.run()} disabled={accounting.busy}>
          {t('statements.accounting')}
        </button>
        <Failure error={download.error ?? accounting.error} />
      </form>
      <Status q={q}>
        {({ statement: s }) => (
          <>
            <p>{t('statements.summary', { opening: rand(s.openingBalanceCents), closing: rand(s.closingBalanceCents), count: s.total })}</p>
            <Table
              columns={[t('statements.col.posted'), t('statements.col.type'), t('payment.description'), { title: t('payments.amount'), numeric: true }, { title: t('statements.col.balance'), numeric: true }]}
              rows={s.entries}
              empty={t('statements.none')}
              row={(e) => (
                <tr key={e.entryId}>
                  <td>{when(e.postedAt)}</td>
                  <td>{label(e.type)}</td>
                  <td translate={false}>{e.description}</td>
                  <td class="num">{rand(e.amountCents)}</td>
                  <td class="num">{rand(e.balanceAfterCents)}</td>
                </tr>
              )}
            />
          </>
        )}
      </Status>
    </section>
  );
}
