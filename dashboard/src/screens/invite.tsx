import { useEffect, useState } from 'preact/hooks';
import { post } from '../graphql.ts';
import { useAction } from '../hooks.ts';
import { t, useLanguage } from '../i18n.ts';
import { navigate } from '../router.ts';
import { Failure, label, Link, RecoveryCodes, SecondStep, type SecondStepAsked, when } from '../ui.tsx';

interface InviteState {
  state: 'valid' | 'used' | 'expired' | 'unknown';
  email: string | null;
  role: string | null;
  merchant_name: string | null;
  expires_at: string | null;
}

const enter = () => {
  history.replaceState(null, '', '/dashboard');
  navigate('/dashboard');
};

/**
 * The invite link's page: the token is in the address's fragment, so it never reaches a log. It
 * asks first what the link stands for: the merchant and the address to sign in with, or, for a
 * link used or expired, says so at once with the way to sign in. A merchant that demands a
 * second factor has it set up right after the password.
 */
export function Invite() {
  useLanguage();
  const token = location.hash.slice(1);
  const [invite, setInvite] = useState<InviteState | null>(null);
  const [password, setPassword] = useState('');
  const [asked, setAsked] = useState<SecondStepAsked | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const look = useAction(async () => setInvite((await post('/dashboard/invite/status', { token })).data));
  useEffect(() => void (token ? look.run() : setInvite({ state: 'unknown', email: null, role: null, merchant_name: null, expires_at: null })), []);
  const a = useAction(async () => {
    const { data } = await post('/dashboard/invite', { token, password });
    if (data.second_factor) return setAsked(data);
    enter();
  });
  const second = useAction(async (code: string) => {
    const { data } = await post('/dashboard/login', { email: invite?.email, password, code });
    if (data.recovery_codes) return setCodes(data.recovery_codes);
    enter();
  });
  if (!invite) {
    return (
      <main id="main" class="narrow">
        <h1>{t('invite.heading')}</h1>
        {look.error ? <Failure error={look.error} /> : <p aria-busy="true">{t('loading')}</p>}
      </main>
    );
  }
  if (invite.state !== 'valid') {
    return (
      <main id="main" class="narrow">
        <h1>{t('invite.dead')}</h1>
        <p data-testid="invite-state">{t(`invite.${invite.state}`)}</p>
        <p>{t('invite.signIn')}</p>
        <p>
          <Link href="/dashboard/login">{t('login.submit')}</Link>
        </p>
      </main>
    );
  }
  const merchant = invite.merchant_name ?? '';
  return (
    <main id="main" class="narrow">
      <h1>{t('invite.title', { merchant })}</h1>
      {codes ? (
        <RecoveryCodes codes={codes} onDone={enter} />
      ) : asked ? (
        <SecondStep asked={asked} busy={second.busy} error={second.error} onCode={(code) => void second.run(code)} />
      ) : (
        <>
          <p data-testid="invite-for">{t('invite.for', { merchant, role: label(invite.role ?? ''), email: invite.email ?? '', until: when(invite.expires_at) })}</p>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void a.run();
            }}
          >
            <input type="email" autocomplete="username" value={invite.email ?? ''} readOnly hidden />
            <label for="set-password">{t('invite.password')}</label>
            <input id="set-password" data-testid="set-password" type="password" autocomplete="new-password" minLength={12} required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
            <button data-testid="set-password-submit" type="submit" disabled={a.busy}>
              {t('invite.submit')}
            </button>
            <Failure error={a.error} />
          </form>
        </>
      )}
    </main>
  );
}
