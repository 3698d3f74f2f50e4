import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { signal } from '@preact/signals';
import { ErrorBoundary, lazy, LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { api, ok, whenSignedOut } from './api.ts';
import type { Me } from './api.ts';
import { lang, LANGS, setLang, t } from './i18n.ts';
import type { Lang } from './i18n.ts';
import { theme, ThemeToggle } from './theme.tsx';
import { SignIn } from './pages/signin.tsx';
import { Today } from './pages/today.tsx';
import { Boards } from './pages/boards.tsx';
import './styles.css';

// The board (drag and drop, live updates, task detail) loads only when a board is opened.
const BoardPage = lazy(() => import('./board/board-page.tsx').then((m) => m.BoardPage));
const Admin = lazy(() => import('./pages/admin.tsx').then((m) => m.Admin));
// Setting check-ins up is for admins and managers: its own chunk.
const Checkins = lazy(() => import('./pages/checkins.tsx').then((m) => m.Checkins));
const CheckinEdit = lazy(() => import('./pages/checkin-edit.tsx').then((m) => m.CheckinEdit));
const Profile = lazy(() => import('./pages/profile.tsx').then((m) => m.Profile));
// Insights carry the chart library (uPlot): their own chunk, loaded when the screen opens.
const InsightsPage = lazy(() => import('./pages/insights.tsx').then((m) => m.InsightsPage));
// The page an invitation e-mail links to: its own chunk, as only a newcomer opens it, once.
const AcceptInvitation = lazy(() => import('./pages/invitation.tsx').then((m) => m.AcceptInvitation));
const LinkAccount = lazy(() => import('./pages/link-account.tsx').then((m) => m.LinkAccount));
const INVITATION_PATH = /^\/app\/invitations\/accept$/;

/** null while checking, false when signed out. */
const me = signal<Me | null | false>(null);

async function loadMe(): Promise<void> {
  try {
    const person = await ok(api.GET('/v1/me/'));
    // The language the person chose (PATCH /v1/me/) is the app's on every browser they sign in on.
    if (person.language && person.language !== lang.value) setLang(person.language);
    me.value = person;
  } catch {
    me.value = false;
  }
}

function Header({ person }: { person: Me }) {
  const { path, route } = useLocation();
  const nav = [
    { href: '/app/', label: t('nav.today'), active: path === '/app' },
    { href: '/app/boards/', label: t('nav.boards'), active: path.startsWith('/app/boards') },
    ...(person.role === 'admin' || person.role === 'manager' ? [{ href: '/app/checkins', label: t('nav.checkins'), active: path.startsWith('/app/checkins') }] : []),
    { href: '/app/insights/', label: t('nav.insights'), active: path.startsWith('/app/insights') },
    ...(person.role === 'admin' ? [{ href: '/app/admin/', label: t('nav.admin'), active: path.startsWith('/app/admin') }] : []),
  ];
  async function signOut(everywhere: boolean): Promise<void> {
    try {
      await api.POST(everywhere ? '/v1/cli/auth/logout-everywhere/' : '/v1/cli/auth/logout/');
    } finally {
      me.value = false;
      route('/app/');
    }
  }
  return (
    <header class="top">
      <a class="skip" href="#main">{t('nav.skip')}</a>
      <a class="brand" href="/app/" aria-label={t('nav.home')}>
        <svg aria-hidden="true" viewBox="0 0 32 32" width="28" height="28">
          <rect width="32" height="32" rx="7" fill="#0b5cad" />
          <path d="M7 10h8M7 16h5M7 22h8" stroke="#fff" stroke-opacity=".6" stroke-width="2.5" stroke-linecap="round" />
          <path d="M16 17.5l3.5 3.5L26 12" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round" />
        </svg>
        <span>Rollcall</span>
      </a>
      <nav aria-label={t('nav.main')}>
        <ul>
          {nav.map((item) => (
            <li key={item.href}>
              <a href={item.href} aria-current={item.active ? 'page' : undefined}>{item.label}</a>
            </li>
          ))}
        </ul>
      </nav>
      <div class="prefs">
        <label>
          <span class="sr-only">{t('prefs.language')}</span>
          <select value={lang.value} onChange={(e) => setLang((e.target as HTMLSelectElement).value as Lang)}>
            {LANGS.map((l) => <option key={l} value={l}>{t(`lang.${l}`)}</option>)}
          </select>
        </label>
        <ThemeToggle />
        <details class="menu">
          <summary>{person.full_name}</summary>
          <div class="menu-body">
            <p class="muted">{person.email} · {person.organization.name}</p>
            <a href="/app/profile/">{t('profile.title')}</a>
            <button type="button" onClick={() => signOut(false)}>{t('signout.here')}</button>
            <button type="button" onClick={() => signOut(true)}>{t('signout.everywhere')}</button>
          </div>
        </details>
      </div>
    </header>
  );
}

function App() {
  const person = me.value;
  const { path } = useLocation();
  useEffect(() => {
    document.documentElement.lang = lang.value;
    whenSignedOut(() => (me.value = false));
    void loadMe();
  }, []);
  const [title, setTitle] = useState('');
  useEffect(() => {
    document.title = title ? `${title} · Rollcall` : 'Rollcall';
  }, [title]);
  // Read here so that a change of language or theme re-renders the page's words.
  void lang.value;
  void theme.value;

  // An invitation's link: its page whether or not someone is signed in on this browser (accepting signs in).
  if (INVITATION_PATH.test(path)) {
    return (
      <main id="main" class="signin-page">
        <ErrorBoundary>
          <AcceptInvitation me={person} onSignedIn={loadMe} setTitle={setTitle} />
        </ErrorBoundary>
      </main>
    );
  }
  if (person === null) return <p class="loading" role="status">{t('loading')}</p>;
  if (person === false) {
    return (
      <main id="main" class="signin-page">
        <SignIn onSignedIn={loadMe} setTitle={setTitle} />
      </main>
    );
  }
  return (
    <>
      <Header person={person} />
      {/* Focus moves to the new page's content after a navigation, so keyboard and screen-reader users start there. */}
      <main id="main" tabIndex={-1}>
        <Router onRouteChange={() => document.getElementById('main')?.focus()}>
          <Route path="/app/boards" component={Boards} setTitle={setTitle} />
          <Route path="/app/boards/:board" component={BoardPage} me={person} setTitle={setTitle} />
          <Route path="/app/boards/:board/tasks/:task" component={BoardPage} me={person} setTitle={setTitle} />
          <Route path="/app/checkins" component={Checkins} me={person} setTitle={setTitle} />
          <Route path="/app/checkins/:uuid" component={CheckinEdit} me={person} setTitle={setTitle} />
          <Route path="/app/admin/:section*" component={Admin} me={person} setTitle={setTitle} />
          <Route path="/app/link/:token?" component={LinkAccount} me={person} setTitle={setTitle} />
          <Route path="/app/profile" component={Profile} me={person} setTitle={setTitle} onSaved={loadMe} />
          <Route path="/app/insights" component={InsightsPage} setTitle={setTitle} />
          <Route default component={Today} me={person} setTitle={setTitle} onProfileSaved={loadMe} />
        </Router>
      </main>
    </>
  );
}

render(
  <LocationProvider scope="/app/">
    <App />
  </LocationProvider>,
  document.getElementById('app')!,
);
