import { useState } from 'preact/hooks';
import { parseRand } from '../../../src/domain/money.ts';
import { ApiError, graphql, request } from '../graphql.ts';
import { type Me, useAction, useLive, usePages, useQuery } from '../hooks.ts';
import { t, useLanguage } from '../i18n.ts';
import { Share } from '../share.tsx';
import { Failure, FieldProblem, nextCursor, Pager, rand, Status, Table } from '../ui.tsx';
import { PaymentRequest } from './payment-request.tsx';

/**
 * Payment links and requests (CONTRACT §11): an owner makes a link (a fixed or an open amount) and gets its URL,
 * QR code and a WhatsApp share link; the list shows what each link took, live, and switches links
 * off and on. A viewer sees the list only (the API refuses the rest anyway).
 */

const LinksQuery = graphql(`
  query PaymentLinks($after: String) {
    paymentLinks(first: 25, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { id description amountCents singleUse active paymentsCount capturedCents url qrCode { imageUrl } } }
    }
  }
`);
const CreateLink = graphql(`
  mutation CreatePaymentLink($input: CreatePaymentLinkInput!) {
    createPaymentLink(input: $input) { paymentLink { id url description amountCents qrCode { imageUrl } } }
  }
`);
const UpdateLink = graphql(`
  mutation UpdatePaymentLink($id: UUID!, $active: Boolean!) { updatePaymentLink(id: $id, active: $active) { paymentLink { id active } } }
`);
const LinkPaymentEvents = graphql(`
  subscription LinkPaymentEvents { paymentEvents { id type } }
`);

export function Links(props: { me: Me }) {
  useLanguage();
  const owner = props.me.role === 'OWNER';
  const pages = usePages<string>([]);
  const q = useQuery(() => request(LinksQuery, { after: pages.at }), [pages.at]);
  // A payment through a link changes its count and captured money: the list follows.
  useLive(LinkPaymentEvents, {}, q.reload);
  const toggle = useAction(async (id: string, active: boolean) => {
    await request(UpdateLink, { id, active });
    q.reload();
  });
  return (
    <section aria-labelledby="h-links">
      <h1 id="h-links">{t('links.title')}</h1>
      {owner && <NewLink done={q.reload} />}
      {owner && <PaymentRequest />}
      <Status q={q}>
        {({ paymentLinks }) => (
          <>
            <Table
              testid="links-table"
              caption={t('links.caption', { count: paymentLinks.totalCount })}
              columns={[t('links.col.description'), { title: t('links.col.amount'), numeric: true }, { title: t('links.col.payments'), numeric: true }, { title: t('links.col.captured'), numeric: true }, t('links.col.state'), owner && t('links.col.switch'), t('links.col.share')]}
              rows={paymentLinks.edges}
              empty={t('links.empty')}
              row={({ node: l }) => (
                <tr data-testid="link-row" key={l.id}>
                  <td>
                    <a href={l.url} target="_blank" rel="noopener">
                      {l.description}
                    </a>
                    {l.singleUse ? ` (${t('links.singleUse')})` : ''}
                  </td>
                  <td class="num">{l.amountCents === null ? t('links.typed') : rand(l.amountCents)}</td>
                  <td class="num" data-testid="link-payments">
                    {l.paymentsCount}
                  </td>
                  <td class="num" data-testid="link-captured">
                    {rand(l.capturedCents)}
                  </td>
                  <td data-testid="link-state">{l.active ? t('links.on') : t('links.off')}</td>
                  {owner && (
                    <td>
                      <button type="button" class="small" data-testid="link-switch" disabled={toggle.busy} onClick={() => void toggle.run(l.id, !l.active)} aria-label={`${l.active ? t('links.switchOff') : t('links.switchOn')} ${l.description}`}>
                        {l.active ? t('links.switchOff') : t('links.switchOn')}
                      </button>
                    </td>
                  )}
                  <td>
                    {/* Closed until asked for: the list stays short on a phone, and the QR codes load only when opened. */}
                    <details class="row-share" data-testid="link-share">
                      <summary aria-label={t('links.shareRowLabel', { description: l.description })}>{t('links.shareRow')}</summary>
                      <Share url={l.url} qrImageUrl={l.qrCode.imageUrl} text={t('links.payText', { description: l.description })} testid="link-share" title={l.description} />
                    </details>
                  </td>
                </tr>
              )}
            />
            <Failure error={toggle.error} />
            <Pager pages={pages} next={nextCursor(paymentLinks.pageInfo)} what={t('links.title')} />
          </>
        )}
      </Status>
    </section>
  );
}

type Created = { id: string; url: string; description: string; amountCents: number | null; qrCode: { imageUrl: string } };

/** The form that makes a link: a fixed amount (rand, comma or dot) or none, a description, single use. */
function NewLink(props: { done: () => void }) {
  useLanguage();
  const [f, setF] = useState({ amount: '', description: '', singleUse: false });
  const [created, setCreated] = useState<Created | null>(null);
  const a = useAction(async () => {
    const text = f.amount.trim();
    const cents = text === '' ? null : parseRand(text);
    if (cents === null && text !== '') throw new ApiError('VALIDATION_FAILED', t('links.badAmount'), 200, [{ field: 'amountCents', message: t('links.badAmountHelp') }]);
    const r = await request(CreateLink, { input: { description: f.description, ...(cents !== null && { amountCents: cents }), singleUse: f.singleUse } });
    setCreated(r.createPaymentLink.paymentLink);
    setF({ amount: '', description: '', singleUse: false });
    props.done();
  });
  const problem = a.error?.about('amountCents') ? 'link-amount-problem' : undefined;
  return (
    <details class="panel" open>
      <summary>{t('links.new')}</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void a.run();
        }}
      >
        <label for="link-description">{t('links.description')}</label>
        <input id="link-description" data-testid="payment-link-description" required maxLength={200} value={f.description} onInput={(e) => setF({ ...f, description: e.currentTarget.value })} />
        <FieldProblem id="link-description-problem" error={a.error} field="description" />
        <label for="link-amount">{t('links.amount')}</label>
        <input id="link-amount" data-testid="payment-link-amount" inputMode="decimal" value={f.amount} aria-describedby={problem} aria-invalid={problem ? 'true' : undefined} onInput={(e) => setF({ ...f, amount: e.currentTarget.value })} />
        <FieldProblem id="link-amount-problem" error={a.error} field="amountCents" />
        <p class="check">
          <input id="link-single" type="checkbox" checked={f.singleUse} onChange={(e) => setF({ ...f, singleUse: e.currentTarget.checked })} />
          <label for="link-single">{t('links.singleUseLabel')}</label>
        </p>
        <button type="submit" data-testid="payment-link-create" disabled={a.busy}>
          {t('links.create')}
        </button>
        <Failure error={a.error} shownBeside={['amountCents', 'description']} />
      </form>
      {created && (
        <div role="status" data-testid="payment-link-created">
          <p>{t('links.made', { description: created.description, amount: created.amountCents === null ? t('links.madeTyped') : rand(created.amountCents) })}</p>
          <Share url={created.url} qrImageUrl={created.qrCode.imageUrl} text={t('links.payText', { description: created.description })} testid="payment-link" title={created.description} />
        </div>
      )}
    </details>
  );
}
