import { useState } from 'preact/hooks';
import { post } from '../graphql.ts';
import { useAction } from '../hooks.ts';
import { navigate } from '../router.ts';
import { Failure } from '../ui.tsx';

/** The invite link's page: the token is in the address's fragment, so it never reaches a log. */
export function Invite() {
  const token = location.hash.slice(1);
  const [password, setPassword] = useState('');
  const a = useAction(async () => {
    await post('/dashboard/invite', { token, password });
    history.replaceState(null, '', '/dashboard');
    navigate('/dashboard');
  });
  return (
    <main id="main" class="narrow">
      <h1>Set your password</h1>
      <p>You were invited to a merchant's zarpay dashboard. Choose a password of at least 12 characters.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void a.run();
        }}
      >
        <label for="set-password">New password</label>
        <input id="set-password" data-testid="set-password" type="password" autocomplete="new-password" minLength={12} required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        <button data-testid="set-password-submit" type="submit" disabled={a.busy}>
          Set password and sign in
        </button>
        <Failure error={a.error} />
      </form>
    </main>
  );
}
