import { useState } from 'preact/hooks';
import { graphql, request } from '../graphql.ts';
import { type Me, useAction, useQuery } from '../hooks.ts';
import { t, useLanguage } from '../i18n.ts';
import { Failure, RecoveryCodes, SecondStep, type SecondStepAsked, Status } from '../ui.tsx';

/** The signed-in person's own security: their second factor, and an owner's demand for one of everyone. */

const ProfileQuery = graphql(`
  query Profile { signedInPerson { secondFactor recoveryCodesLeft secondFactorRequired } }
`);
const Begin = graphql(`
  mutation BeginSecondFactorSetup { beginSecondFactorSetup { qrCode secret } }
`);
const Confirm = graphql(`
  mutation ConfirmSecondFactorSetup($code: String!) { confirmSecondFactorSetup(code: $code) { recoveryCodes } }
`);
const Remove = graphql(`
  mutation RemoveSecondFactor($code: String!) { removeSecondFactor(code: $code) { secondFactor } }
`);
const Require = graphql(`
  mutation RequireSecondFactor($required: Boolean!) { requireSecondFactor(required: $required) { secondFactorRequired } }
`);

export function Account(props: { me: Me }) {
  useLanguage();
  const q = useQuery(() => request(ProfileQuery));
  const [asked, setAsked] = useState<SecondStepAsked | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [removeCode, setRemoveCode] = useState('');
  const begin = useAction(async () => {
    const r = await request(Begin);
    setAsked({ second_factor: 'setup', qr_code: r.beginSecondFactorSetup.qrCode, secret: r.beginSecondFactorSetup.secret });
  });
  const confirm = useAction(async (code: string) => {
    const r = await request(Confirm, { code });
    setAsked(null);
    setCodes([...r.confirmSecondFactorSetup.recoveryCodes]);
    q.reload();
  });
  const remove = useAction(async () => {
    await request(Remove, { code: removeCode });
    setRemoveCode('');
    q.reload();
  });
  const require = useAction(async (required: boolean) => {
    await request(Require, { required });
    q.reload();
  });
  return (
    <section aria-labelledby="h-account">
      <h1 id="h-account">{t('account.title')}</h1>
      {codes && <RecoveryCodes codes={codes} />}
      <Status q={q}>
        {({ signedInPerson: p }) =>
          !p ? null : (
            <>
              <p data-testid="second-factor-state">{p.secondFactor ? t('account.on', { left: p.recoveryCodesLeft }) : t('account.off')}</p>
              {!p.secondFactor &&
                (asked ? (
                  <SecondStep asked={asked} busy={confirm.busy} error={confirm.error} onCode={(code) => void confirm.run(code)} />
                ) : (
                  <button type="button" data-testid="second-factor-start" disabled={begin.busy} onClick={() => void begin.run()}>
                    {t('account.start')}
                  </button>
                ))}
              <Failure error={begin.error} />
              {p.secondFactor && !p.secondFactorRequired && (
                <form
                  class="panel"
                  onSubmit={(e) => {
                    e.preventDefault();
                    void remove.run();
                  }}
                >
                  <label for="remove-code">{t('account.removeCode')}</label>
                  <input id="remove-code" autocomplete="one-time-code" required value={removeCode} onInput={(e) => setRemoveCode(e.currentTarget.value)} />
                  <button type="submit" class="danger" disabled={remove.busy}>
                    {t('account.remove')}
                  </button>
                  <Failure error={remove.error} />
                </form>
              )}
              {p.secondFactorRequired && <p>{t('account.required')}</p>}
              {props.me.role === 'OWNER' && p.secondFactor && (
                <div class="panel">
                  {!p.secondFactorRequired && <p>{t('account.requireHelp')}</p>}
                  <button type="button" data-testid="second-factor-require" disabled={require.busy} onClick={() => void require.run(!p.secondFactorRequired)}>
                    {t(p.secondFactorRequired ? 'account.stopRequiring' : 'account.require')}
                  </button>
                  <Failure error={require.error} />
                </div>
              )}
            </>
          )
        }
      </Status>
    </section>
  );
}
