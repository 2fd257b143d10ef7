import { useEffect, useState } from 'preact/hooks';
import { post } from '../graphql.ts';
import { useAction } from '../hooks.ts';
import { t, useLanguage } from '../i18n.ts';
import { navigate, safeNext } from '../router.ts';
import { Failure, Link, RecoveryCodes, SecondStep, type SecondStepAsked } from '../ui.tsx';

/** Where a sign-in goes: a deep link that sent the person here (a path of this dashboard only), else the balance. */
const onward = () => navigate(safeNext(new URLSearchParams(location.search).get('next'), location.origin) ?? '/dashboard');

/**
 * Sign-in: e-mail address and password; then, when the person has a second factor, its code (or
 * its set-up, when the merchant demands one they lack, with the recovery codes shown once).
 */
export function Login() {
  useLanguage();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [asked, setAsked] = useState<SecondStepAsked | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [resetByEmail, setResetByEmail] = useState<boolean | null>(null);
  useEffect(() => {
    fetch('/dashboard/sign-in-options', { credentials: 'same-origin' })
      .then((r) => r.json())
      .then((b) => setResetByEmail(b.data?.password_reset === true))
      .catch(() => setResetByEmail(false));
  }, []);
  const a = useAction(async (code?: string) => {
    const { data } = await post('/dashboard/login', { email, password, ...(code && { code }) });
    if (data.second_factor) return setAsked(data);
    if (data.recovery_codes) return setCodes(data.recovery_codes);
    onward();
  });
  return (
    <main id="main" class="narrow">
      <h1>{t('login.title')}</h1>
      {codes ? (
        <RecoveryCodes codes={codes} onDone={onward} />
      ) : asked ? (
        <SecondStep asked={asked} busy={a.busy} error={a.error} onCode={(code) => void a.run(code)} />
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void a.run();
          }}
        >
          <label for="login-email">{t('login.email')}</label>
          <input id="login-email" data-testid="login-email" type="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          <label for="login-password">{t('login.password')}</label>
          <input id="login-password" data-testid="login-password" type="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
          <button data-testid="login-submit" type="submit" disabled={a.busy}>
            {t('login.submit')}
          </button>
          <Failure error={a.error} />
          {resetByEmail === true && (
            <p>
              <Link href="/dashboard/forgot">{t('login.forgot')}</Link>
            </p>
          )}
          {resetByEmail === false && <p class="hint">{t('login.noReset')}</p>}
        </form>
      )}
    </main>
  );
}
