import { useState } from 'preact/hooks';
import { graphql, request } from '../graphql.ts';
import { type Me, useAction, usePages, useQuery } from '../hooks.ts';
import { t } from '../i18n.ts';
import { Failure, label, Once, offsetPage, Pager, Status, Table, when } from '../ui.tsx';

/** Where events are sent, the signing secrets, and the delivery log with redelivery. */

const WebhooksQuery = graphql(`
  query Webhooks($offset: Int) {
    viewer { id webhookUrl webhookSecrets { kid status createdAt rotatingUntil } }
    webhookDeliveries(first: 26, offset: $offset) { id eventId eventType url status attempts lastStatusCode lastError createdAt }
  }
`);
const SaveUrl = graphql(`
  mutation SaveWebhookUrl($url: String) { updateWebhookUrl(url: $url) { merchant { webhookUrl } } }
`);
const RotateSecret = graphql(`
  mutation RotateWebhookSecret { rotateWebhookSecret { webhookSecret { kid secret } rotatingKid } }
`);
const Redeliver = graphql(`
  mutation Redeliver($eventId: UUID!) { redeliverEvent(eventId: $eventId) { delivery { id } } }
`);

export function Webhooks(props: { me: Me }) {
  const pages = usePages<number>([]);
  const q = useQuery(() => request(WebhooksQuery, { offset: pages.at ?? 0 }), [pages.at]);
  const may = props.me.role !== 'VIEWER';
  const [url, setUrl] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    await request(SaveUrl, { url: (url ?? '').trim() || null });
    setSaved(true);
    q.reload();
  });
  const rotate = useAction(async () => {
    const r = await request(RotateSecret);
    setSecret(r.rotateWebhookSecret.webhookSecret.secret ?? null);
    q.reload();
  });
  const redeliver = useAction(async (eventId: string) => {
    await request(Redeliver, { eventId });
    q.reload();
  });
  return (
    <section aria-labelledby="h-webhooks">
      <h1 id="h-webhooks">{t('nav.webhooks')}</h1>
      <Status q={q}>
        {(d) => {
          const deliveries = offsetPage(d.webhookDeliveries, 25, pages.at ?? 0);
          return (
          <>
            <form
              class="panel"
              onSubmit={(e) => {
                e.preventDefault();
                void save.run();
              }}
            >
              <label for="webhook-url">{t('webhooks.url')}</label>
              <input
                id="webhook-url"
                data-testid="webhook-url"
                type="url"
                placeholder="https://example.com/zarpay"
                readOnly={!may}
                value={url ?? d.viewer.webhookUrl ?? ''}
                onInput={(e) => {
                  setUrl(e.currentTarget.value);
                  setSaved(false);
                }}
              />
              {may && (
                <button type="submit" data-testid="webhook-url-save" disabled={save.busy}>
                  {t('webhooks.save')}
                </button>
              )}
              <Failure error={save.error} />
              {saved && <p role="status">{t('webhooks.saved')}</p>}
            </form>
            <h2>{t('webhooks.secrets')}</h2>
            {d.viewer.webhookSecrets.length === 0 ? (
              <p class="empty">{t('webhooks.noSecret')}</p>
            ) : (
              <ul>
                {d.viewer.webhookSecrets.map((s) => (
                  <li key={s.kid}>
                    <code>{s.kid}</code> {label(s.status)}
                    {s.rotatingUntil ? t('webhooks.signsUntil', { when: when(s.rotatingUntil) }) : ''}
                  </li>
                ))}
              </ul>
            )}
            {may && (
              <button type="button" onClick={() => void rotate.run()} disabled={rotate.busy}>
                {t(d.viewer.webhookSecrets.some((s) => s.status === 'ACTIVE') ? 'webhooks.rotate' : 'webhooks.create')}
              </button>
            )}
            <Failure error={rotate.error} />
            {secret && <Once label={t('webhooks.newSecret')} value={secret} />}
            <h2>{t('webhooks.deliveries')}</h2>
            <Failure error={redeliver.error} />
            <Table
              columns={[t('webhooks.col.event'), t('payments.status'), t('webhooks.col.attempts'), t('webhooks.col.answer'), t('webhooks.col.queued'), may && t('webhooks.col.action')]}
              rows={deliveries.rows}
              empty={t('webhooks.none')}
              row={(w) => (
                <tr key={w.id}>
                  <td translate={false}>{w.eventType}</td>
                  <td>{label(w.status)}</td>
                  <td>{w.attempts}</td>
                  <td translate={false}>{w.lastStatusCode ?? w.lastError ?? '—'}</td>
                  <td>{when(w.createdAt)}</td>
                  {may && (
                    <td>
                      <button type="button" class="small" onClick={() => void redeliver.run(w.eventId)}>
                        {t('webhooks.redeliver')}
                      </button>
                    </td>
                  )}
                </tr>
              )}
            />
            <Pager pages={pages} next={deliveries.next} what={t('webhooks.deliveriesPages')} />
          </>
          );
        }}
      </Status>
    </section>
  );
}
