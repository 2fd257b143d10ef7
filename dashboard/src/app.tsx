import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { graphql, request, signOut } from './graphql.ts';
import { LANGUAGE_NAMES, LANGUAGES, type Language, type MessageKey, switchLanguage, t, useLanguage } from './i18n.ts';
import { type Me, useSignedIn } from './hooks.ts';
import { match, navigate, usePath } from './router.ts';
import { Account } from './screens/account.tsx';
import { Balance } from './screens/balance.tsx';
import { Forgot, Reset } from './screens/forgot.tsx';
import { Invite } from './screens/invite.tsx';
import { Keys } from './screens/keys.tsx';
import { Links } from './screens/links.tsx';
import { Login } from './screens/login.tsx';
import { Payment } from './screens/payment.tsx';
import { Payments } from './screens/payments.tsx';
import { Payout } from './screens/payout.tsx';
import { Payouts } from './screens/payouts.tsx';
import { Refunds } from './screens/refunds.tsx';
import { People } from './screens/people.tsx';
import { Statements } from './screens/statements.tsx';
import { Webhooks } from './screens/webhooks.tsx';
import { label, Link } from './ui.tsx';

/**
 * The merchant dashboard (CONTRACT §10): one small Preact application over zarpay's own GraphQL
 * API. Every control a person's role may not use is absent, and the API refuses it anyway.
 */

/** The screens a signed-in person sees, by path; those with `nav` are in the menu, in this order. */
const ROUTES: { path: string; nav?: MessageKey; screen: (me: Me, params: Record<string, string>) => JSX.Element }[] = [
  { path: '/dashboard', nav: 'nav.balance', screen: () => <Balance /> },
  { path: '/dashboard/payments', nav: 'nav.payments', screen: () => <Payments /> },
  { path: '/dashboard/payments/:id', screen: (me, p) => <Payment id={p.id} me={me} /> },
  { path: '/dashboard/links', nav: 'nav.links', screen: (me) => <Links me={me} /> },
  { path: '/dashboard/refunds', nav: 'nav.refunds', screen: () => <Refunds /> },
  { path: '/dashboard/payouts', nav: 'nav.payouts', screen: (me) => <Payouts me={me} /> },
  { path: '/dashboard/payouts/:id', screen: (_, p) => <Payout id={p.id} /> },
  { path: '/dashboard/webhooks', nav: 'nav.webhooks', screen: (me) => <Webhooks me={me} /> },
  { path: '/dashboard/keys', nav: 'nav.keys', screen: (me) => <Keys me={me} /> },
  { path: '/dashboard/statements', nav: 'nav.statements', screen: () => <Statements /> },
  { path: '/dashboard/people', nav: 'nav.people', screen: (me) => <People me={me} /> },
  { path: '/dashboard/account', nav: 'nav.account', screen: (me) => <Account me={me} /> },
];

const SetLanguage = graphql(`
  mutation SetLanguage($language: PersonLanguage!) { setLanguage(language: $language) { language } }
`);

/**
 * The `language` control (CONTRACT §11): switches the words and `<html lang>` at once; signed in,
 * the choice is stored with the person, so it survives sign-out and follows them to another browser.
 */
function LanguagePicker(props: { signedIn: boolean }) {
  const language = useLanguage();
  const choose = (l: Language) => {
    switchLanguage(l);
    if (props.signedIn) void request(SetLanguage, { language: l.toUpperCase() as 'EN' | 'AF' | 'ZU' }).catch(() => {});
  };
  return (
    <p class="language">
      <label for="language">{t('language')}</label>{' '}
      <select id="language" data-testid="language" value={language} onChange={(e) => choose(e.currentTarget.value as Language)}>
        {LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </p>
  );
}

/** The screens for someone not signed in, at exactly these paths. */
const SIGNED_OUT = new Map<string, () => JSX.Element>([
  ['/dashboard/login', Login],
  ['/dashboard/invite', Invite],
  ['/dashboard/forgot', Forgot],
  ['/dashboard/reset', Reset],
]);
const MENU = ROUTES.filter((r) => r.nav !== undefined);

export function App() {
  const language = useLanguage();
  const path = usePath();
  const Open = SIGNED_OUT.get(path);
  const [me, setMe] = useSignedIn(path, !Open);
  // On a phone the menu folds behind one button; a new screen folds it again.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [path]);
  useEffect(() => {
    // A new screen: its heading takes the focus (screen readers announce it).
    const h = document.querySelector('main h1') as HTMLElement | null;
    if (h) {
      h.tabIndex = -1;
      h.focus();
    }
  }, [path, me]);
  // And names the tab, again in another language (the focus stays on the language control).
  useEffect(() => {
    document.title = `${document.querySelector('main h1')?.textContent ?? t('nav.menu')} · zarpay`;
  }, [path, me, language]);

  if (Open) {
    return (
      <>
        <header>
          <p class="brand">zarpay</p>
          <LanguagePicker signedIn={false} />
        </header>
        <Open />
      </>
    );
  }
  if (!me) return <main id="main"><p aria-busy="true">{t('loading')}</p></main>;

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
        {t('skip')}
      </a>
      <header class={menuOpen ? 'menu-open' : undefined}>
        <p class="brand" translate={false}>
          zarpay <span>{me.merchant}</span>
        </p>
        <button type="button" class="small menu-button" data-testid="menu" aria-expanded={menuOpen} aria-controls="menu" onClick={() => setMenuOpen(!menuOpen)}>
          {t('nav.open')}
        </button>
        <div class="menu" id="menu">
        <nav aria-label={t('nav.menu')}>
          <ul>
            {MENU.map(({ path: href, nav }) => (
              <li key={href}>
                <Link href={href} current={href === '/dashboard' ? path === '/dashboard' || path === '/dashboard/' : path.startsWith(href)}>
                  {t(nav!)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <p class="who">
          <span translate={false}>{me.email}</span> ({label(me.role)}){' '}
          <button type="button" class="small" data-testid="signout" onClick={() => void leave()}>
            {t('signOut')}
          </button>
        </p>
        <LanguagePicker signedIn />
        </div>
      </header>
      <main id="main">{found.route.screen(me, found.params)}</main>
    </>
  );
}
