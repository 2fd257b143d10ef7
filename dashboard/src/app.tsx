import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { signOut } from './graphql.ts';
import { type Me, useSignedIn } from './hooks.ts';
import { match, navigate, usePath } from './router.ts';
import { Balance } from './screens/balance.tsx';
import { Invite } from './screens/invite.tsx';
import { Keys } from './screens/keys.tsx';
import { Login } from './screens/login.tsx';
import { Payment } from './screens/payment.tsx';
import { Payments } from './screens/payments.tsx';
import { Payout } from './screens/payout.tsx';
import { Payouts } from './screens/payouts.tsx';
import { People } from './screens/people.tsx';
import { Statements } from './screens/statements.tsx';
import { Webhooks } from './screens/webhooks.tsx';
import { label, Link } from './ui.tsx';

/**
 * The merchant dashboard (CONTRACT §10): one small Preact application over zarpay's own GraphQL
 * API. Every control a person's role may not use is absent, and the API refuses it anyway.
 */

/** The screens a signed-in person sees, by path; those with `nav` are in the menu, in this order. */
const ROUTES: { path: string; nav?: string; screen: (me: Me, params: Record<string, string>) => JSX.Element }[] = [
  { path: '/dashboard', nav: 'Balance', screen: () => <Balance /> },
  { path: '/dashboard/payments', nav: 'Payments', screen: () => <Payments /> },
  { path: '/dashboard/payments/:id', screen: (me, p) => <Payment id={p.id} me={me} /> },
  { path: '/dashboard/payouts', nav: 'Payouts', screen: (me) => <Payouts me={me} /> },
  { path: '/dashboard/payouts/:id', screen: (_, p) => <Payout id={p.id} /> },
  { path: '/dashboard/webhooks', nav: 'Webhooks', screen: (me) => <Webhooks me={me} /> },
  { path: '/dashboard/keys', nav: 'API keys', screen: (me) => <Keys me={me} /> },
  { path: '/dashboard/statements', nav: 'Statements', screen: () => <Statements /> },
  { path: '/dashboard/people', nav: 'People', screen: (me) => <People me={me} /> },
];

/** The screens for someone not signed in, at exactly these paths. */
const SIGNED_OUT = new Map<string, () => JSX.Element>([
  ['/dashboard/login', Login],
  ['/dashboard/invite', Invite],
]);
const MENU = ROUTES.filter((r) => r.nav !== undefined);

export function App() {
  const path = usePath();
  const Open = SIGNED_OUT.get(path);
  const [me, setMe] = useSignedIn(path, !Open);
  // On a phone the menu folds behind one button; a new screen folds it again.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [path]);
  useEffect(() => {
    // A new screen: its heading takes the focus (screen readers announce it) and names the tab.
    const h = document.querySelector('main h1') as HTMLElement | null;
    if (h) {
      h.tabIndex = -1;
      h.focus();
    }
    document.title = `${h?.textContent ?? 'Dashboard'} · zarpay`;
  }, [path, me]);

  if (Open) return <Open />;
  if (!me) return <main id="main"><p aria-busy="true">Loading…</p></main>;

  const leave = async () => {
    await signOut();
    setMe(null);
    navigate('/dashboard/login');
  };
  // Anything under /dashboard that no screen claims shows the balance.
  const found = match(ROUTES, path) ?? { route: ROUTES[0], params: {} };
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class={menuOpen ? 'menu-open' : undefined}>
        <p class="brand">
          zarpay <span>{me.merchant}</span>
        </p>
        <button type="button" class="small menu-button" data-testid="menu" aria-expanded={menuOpen} aria-controls="menu" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
        <div class="menu" id="menu">
        <nav aria-label="Dashboard">
          <ul>
            {MENU.map(({ path: href, nav }) => (
              <li key={href}>
                <Link href={href} current={href === '/dashboard' ? path === '/dashboard' || path === '/dashboard/' : path.startsWith(href)}>
                  {nav}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <p class="who">
          {me.email} ({label(me.role)}){' '}
          <button type="button" class="small" data-testid="signout" onClick={() => void leave()}>
            Sign out
          </button>
        </p>
        </div>
      </header>
      <main id="main">{found.route.screen(me, found.params)}</main>
    </>
  );
}
