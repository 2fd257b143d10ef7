import { useState } from 'preact/hooks';
import { t } from '../i18n.ts';
import { graphql, request } from '../graphql.ts';
import { type Me, type Role, useAction, usePages, useQuery } from '../hooks.ts';
import { Failure, label, offsetPage, Once, Pager, Status, when } from '../ui.tsx';

/** The merchant's people (a page at a time): owners invite, change roles and remove, and see who did what. */

const PeopleQuery = graphql(`
  query People($offset: Int) { people(first: 26, offset: $offset) { id email role active createdAt issuedKeys { kid displayMask } } }
`);
const InvitePerson = graphql(`
  mutation InvitePerson($email: String!, $role: PersonRole!) { invitePerson(email: $email, role: $role) { inviteUrl expiresAt emailed } }
`);
const RemovePerson = graphql(`
  mutation RemovePerson($id: UUID!) { removePerson(id: $id) { person { id } } }
`);
const ChangePersonRole = graphql(`
  mutation ChangePersonRole($id: UUID!, $role: PersonRole!) { changePersonRole(id: $id, role: $role) { person { id role } } }
`);
const AuditQuery = graphql(`
  query Audit($offset: Int) { auditLog(first: 26, offset: $offset) { id at summary } }
`);

export function People(props: { me: Me }) {
  const peoplePages = usePages<number>([]);
  const q = useQuery(() => request(PeopleQuery, { offset: peoplePages.at ?? 0 }), [peoplePages.at]);
  const owner = props.me.role === 'OWNER';
  const auditPages = usePages<number>([]);
  const audit = useQuery(() => (owner ? request(AuditQuery, { offset: auditPages.at ?? 0 }) : Promise.resolve({ auditLog: [] })), [owner, auditPages.at]);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('VIEWER');
  const [link, setLink] = useState<string | null>(null);
  const invite = useAction(async () => {
    const r = await request(InvitePerson, { email, role });
    setLink(r.invitePerson.inviteUrl);
    setEmail('');
    q.reload();
  });
  const remove = useAction(async (id: string) => {
    await request(RemovePerson, { id });
    q.reload();
  });
  const changeRole = useAction(async (id: string, to: Role) => {
    await request(ChangePersonRole, { id, role: to });
    q.reload();
  });
  /** What removing a person ends, said before it happens: their sessions, and every key they issued. */
  const removal = (p: { email: string; issuedKeys: readonly { displayMask: string }[] }) => {
    const keys = { count: p.issuedKeys.length, keys: p.issuedKeys.map((k) => k.displayMask).join(', ') };
    const asked = t('people.removeConfirm', { email: p.email });
    return keys.count === 0 ? asked : `${asked} ${t(keys.count === 1 ? 'people.removeKey' : 'people.removeKeys', keys)}`;
  };
  return (
    <section aria-labelledby="h-people">
      <h1 id="h-people">{t('nav.people')}</h1>
      {owner && (
        <form
          class="panel"
          onSubmit={(e) => {
            e.preventDefault();
            void invite.run();
          }}
        >
          <label for="invite-email">{t('people.inviteEmail')}</label>
          <input id="invite-email" type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          <label for="invite-role">{t('people.role')}</label>
          <select id="invite-role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
            <option value="VIEWER">{t('people.viewerMay')}</option>
            <option value="DEVELOPER">{t('people.developerMay')}</option>
            <option value="OWNER">{t('people.ownerMay')}</option>
          </select>
          <button type="submit" disabled={invite.busy}>
            {t('people.invite')}
          </button>
          <Failure error={invite.error} />
          {link && <Once label={t('people.inviteLink')} value={link} />}
        </form>
      )}
      <Failure error={remove.error ?? changeRole.error} />
      <Status q={q}>
        {({ people }) => {
          const page = offsetPage(people, 25, peoplePages.at ?? 0);
          return (
          <>
          <ul class="people">
            {page.rows.map((p) => (
              <li key={p.id}>
                <span translate={false}>{p.email}</span> — {label(p.role)}
                {p.active ? '' : ` ${t('people.invited')}`}
                {p.issuedKeys.length > 0 && ` · ${p.issuedKeys.length === 1 ? t('people.issuedOne') : t('people.issuedMany', { count: p.issuedKeys.length })}`}{' '}
                {owner && p.email !== props.me.email && (
                  <>
                    <label class="visually-hidden" for={`role-${p.id}`}>
                      {t('people.roleOf', { email: p.email })}
                    </label>
                    <select id={`role-${p.id}`} value={p.role} disabled={changeRole.busy} onChange={(e) => void changeRole.run(p.id, e.currentTarget.value as Role)}>
                      <option value="VIEWER">{label('VIEWER')}</option>
                      <option value="DEVELOPER">{label('DEVELOPER')}</option>
                      <option value="OWNER">{label('OWNER')}</option>
                    </select>{' '}
                    <button type="button" class="small danger" onClick={() => confirm(removal(p)) && void remove.run(p.id)}>
                      {t('people.remove')}
                    </button>
                  </>
                )}
              </li>
            ))}
          </ul>
          <Pager pages={peoplePages} next={page.next} what={t('nav.people')} />
          </>
          );
        }}
      </Status>
      {owner && (
        <>
          <h2>{t('people.audit')}</h2>
          <Status q={audit}>
            {({ auditLog }) => {
              const page = offsetPage(auditLog, 25, auditPages.at ?? 0);
              return page.rows.length === 0 ? (
                <p class="empty">{t('people.auditNone')}</p>
              ) : (
                <>
                <ul>
                  {page.rows.map((e) => (
                    <li key={e.id} data-testid="audit-entry">
                      {when(e.at)}: {e.summary}
                    </li>
                  ))}
                </ul>
                <Pager pages={auditPages} next={page.next} what={t('people.auditPages')} />
                </>
              );
            }}
          </Status>
        </>
      )}
    </section>
  );
}
