import { useState } from 'preact/hooks';
import { post } from '../graphql.ts';
import { useAction } from '../hooks.ts';
import { navigate, safeNext } from '../router.ts';
import { Failure } from '../ui.tsx';

/** Sign-in: e-mail address and password, then the balance. */
export function Login() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const a = useAction(async () => {
    await post('/dashboard/login', { email, password });
    // A deep link that sent the person here: back to it (a path of this dashboard only).
    navigate(safeNext(new URLSearchParams(location.search).get('next'), location.origin) ?? '/dashboard');
  });
  return (
    <main id="main" class="narrow">
      <h1>Sign in to zarpay</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void a.run();
        }}
      >
        <label for="login-email">E-mail address</label>
        <input id="login-email" data-testid="login-email" type="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <label for="login-password">Password</label>
        <input id="login-password" data-testid="login-password" type="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        <button data-testid="login-submit" type="submit" disabled={a.busy}>
          Sign in
        </button>
        <Failure error={a.error} />
      </form>
    </main>
  );
}
