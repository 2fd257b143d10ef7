import { useState } from 'preact/hooks';
import { graphql, request } from '../graphql.ts';
import { type Me, useAction, useQuery } from '../hooks.ts';
import { t } from '../i18n.ts';
import { Failure, label, Once, Status, Table, when } from '../ui.tsx';

/** The merchant's API keys: issue, regenerate and revoke; a new secret shown once. */

const KeysQuery = graphql(`
  query Keys { viewer { id apiKeys { kid status displayMask createdAt revokedAt } } }
`);
const IssueKey = graphql(`
  mutation IssueKey { issueApiKey { fullKey apiKey { kid } } }
`);
const RevokeKey = graphql(`
  mutation RevokeKey($kid: String!) { revokeApiKey(kid: $kid) { apiKey { kid status } } }
`);
const RegenerateKey = graphql(`
  mutation RegenerateKey($kid: String) { regenerateSecretKey(kid: $kid) { fullKey apiKey { kid } } }
`);

export function Keys(props: { me: Me }) {
  const q = useQuery(() => request(KeysQuery));
  const may = props.me.role !== 'VIEWER';
  const [shown, setShown] = useState<string | null>(null);
  const act = useAction(async (what: 'issue' | 'revoke' | 'regenerate', kid?: string) => {
    if (what === 'issue') setShown((await request(IssueKey)).issueApiKey.fullKey);
    if (what === 'regenerate') setShown((await request(RegenerateKey, { kid: kid! })).regenerateSecretKey.fullKey);
    if (what === 'revoke') await request(RevokeKey, { kid: kid! });
    q.reload();
  });
  return (
    <section aria-labelledby="h-keys">
      <h1 id="h-keys">{t('nav.keys')}</h1>
      {may && (
        <button type="button" onClick={() => void act.run('issue')} disabled={act.busy}>
          {t('keys.issue')}
        </button>
      )}
      <Failure error={act.error} />
      {shown && <Once label={t('keys.newSecret')} value={shown} />}
      <Status q={q}>
        {({ viewer }) => (
          <Table
            columns={[t('keys.col.key'), t('payments.status'), t('keys.col.issued'), may && t('keys.col.actions')]}
            rows={viewer.apiKeys}
            empty={t('keys.none')}
            row={(k) => (
              <tr key={k.kid}>
                <td>
                  <code>{k.displayMask}</code>
                </td>
                <td>{label(k.status)}</td>
                <td>{when(k.createdAt)}</td>
                {may && (
                  <td>
                    {k.status === 'ACTIVE' && (
                      <>
                        <button type="button" class="small" onClick={() => void act.run('regenerate', k.kid)}>
                          {t('keys.regenerate')}
                        </button>{' '}
                        <button type="button" class="small danger" onClick={() => confirm(t('keys.revokeConfirm', { key: k.displayMask })) && void act.run('revoke', k.kid)}>
                          {t('keys.revoke')}
                        </button>
                      </>
                    )}
                  </td>
                )}
              </tr>
            )}
          />
        )}
      </Status>
    </section>
  );
}
