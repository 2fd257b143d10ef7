import { useState } from 'preact/hooks';
import { post } from '../graphql.ts';
import { useAction } from '../hooks.ts';
import { t, useLanguage } from '../i18n.ts';
import { navigate } from '../router.ts';
import { Failure, Link } from '../ui.tsx';

/** A forgotten password: the address, then the same words whether or not it has an account. */
export function Forgot() {
  useLanguage();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const a = useAction(async () => {
    await post('/dashboard/password/forgot', { email });
    setSent(true);
  });
  return (
    <main id="main" class="narrow">
      <h1>{t('forgot.title')}</h1>
      {sent ? (
        <p role="status" data-testid="forgot-sent">
          {t('forgot.sent')}
        </p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void a.run();
          }}
        >
          <p>{t('forgot.help')}</p>
          <label for="forgot-email">{t('login.email')}</label>
          <input id="forgot-email" data-testid="forgot-email" type="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          <button data-testid="forgot-submit" type="submit" disabled={a.busy}>
            {t('forgot.submit')}
          </button>
          <Failure error={a.error} />
        </form>
      )}
      <p>
        <Link href="/dashboard/login">{t('forgot.back')}</Link>
      </p>
    </main>
  );
}

/** The e-mailed link's page: the token is in the address's fragment, so it never reaches a log. */
export function Reset() {
  useLanguage();
  const token = location.hash.slice(1);
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const a = useAction(async () => {
    await post('/dashboard/password/reset', { token, password });
    history.replaceState(null, '', '/dashboard/reset');
    setDone(true);
  });
  return (
    <main id="main" class="narrow">
      <h1>{t('reset.title')}</h1>
      {done ? (
        <>
          <p role="status">{t('reset.done')}</p>
          <button type="button" onClick={() => navigate('/dashboard/login')}>
            {t('login.submit')}
          </button>
        </>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void a.run();
          }}
        >
          <label for="reset-password">{t('invite.password')}</label>
          <input id="reset-password" data-testid="reset-password" type="password" autocomplete="new-password" minLength={12} required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
          <button data-testid="reset-submit" type="submit" disabled={a.busy}>
            {t('reset.submit')}
          </button>
          <Failure error={a.error} />
        </form>
      )}
    </main>
  );
}
