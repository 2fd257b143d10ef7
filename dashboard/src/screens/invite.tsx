import { useEffect, useState } from 'preact/hooks';
import { post } from '../graphql.ts';
import { useAction } from '../hooks.ts';
import { navigate } from '../router.ts';
import { Failure, label, Link, when } from '../ui.tsx';

interface InviteState {
  state: 'valid' | 'used' | 'expired' | 'unknown';
  email: string | null;
  role: string | null;
  merchant_name: string | null;
  expires_at: string | null;
}

/**
 * The invite link's page: the token is in the address's fragment, so it never reaches a log. It
 * asks first what the link stands for: the merchant and the address to sign in with, or, for a
 * link used or expired, says so at once with the way to sign in.
 */
export function Invite() {
  const token = location.hash.slice(1);
  const [invite, setInvite] = useState<InviteState | null>(null);
  const [password, setPassword] = useState('');
  const look = useAction(async () => setInvite((await post('/dashboard/invite/status', { token })).data));
  useEffect(() => void (token ? look.run() : setInvite({ state: 'unknown', email: null, role: null, merchant_name: null, expires_at: null })), []);
  const a = useAction(async () => {
    await post('/dashboard/invite', { token, password });
    history.replaceState(null, '', '/dashboard');
    navigate('/dashboard');
  });
  if (!invite) {
    return (
      <main id="main" class="narrow">
        <h1>Your invite</h1>
        {look.error ? <Failure error={look.error} /> : <p aria-busy="true">Loading…</p>}
      </main>
    );
  }
  if (invite.state !== 'valid') {
    const why = { used: 'This invite link has been used already: it works once.', expired: 'This invite link has expired: it works for 72 hours.', unknown: 'This invite link is not valid.' }[invite.state];
    return (
      <main id="main" class="narrow">
        <h1>This invite no longer works</h1>
        <p data-testid="invite-state">{why}</p>
        <p>
          If you set your password already, <Link href="/dashboard/login">sign in</Link>. Otherwise ask an owner of the merchant for a new invite.
        </p>
      </main>
    );
  }
  return (
    <main id="main" class="narrow">
      <h1>Join {invite.merchant_name} on zarpay</h1>
      <p data-testid="invite-for">
        {invite.merchant_name} invited you as {label(invite.role ?? '')}. You will sign in as <strong>{invite.email}</strong>. The link works until {when(invite.expires_at)}, once.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void a.run();
        }}
      >
        <input type="email" autocomplete="username" value={invite.email ?? ''} readOnly hidden />
        <label for="set-password">New password (at least 12 characters)</label>
        <input id="set-password" data-testid="set-password" type="password" autocomplete="new-password" minLength={12} required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        <button data-testid="set-password-submit" type="submit" disabled={a.busy}>
          Set password and sign in
        </button>
        <Failure error={a.error} />
      </form>
    </main>
  );
}
