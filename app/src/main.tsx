import { render } from 'preact';
import { lazy, Suspense } from 'preact/compat';
import { useEffect, useState } from 'preact/hooks';
import { api, get, whenSignedOut } from './api.ts';
import type { Me } from './api.ts';
import { lang, LANGS, setLang, t } from './i18n.ts';
import type { Lang } from './i18n.ts';
import { navigate, route, Link } from './router.tsx';
import { signal, useSignal } from './state.ts';
import { SignIn } from './pages/signin.tsx';
import { Today } from './pages/today.tsx';
import { Boards } from './pages/boards.tsx';
import './styles.css';

// The board (drag and drop, live updates, task detail) loads only when a board is opened.
const BoardPage = lazy(() => import('./board/board-page.tsx').then((m) => ({ default: m.BoardPage })));
const Admin = lazy(() => import('./pages/admin.tsx').then((m) => ({ default: m.Admin })));
// The page an invitation e-mail links to: its own chunk, as only a newcomer opens it, once.
const AcceptInvitation = lazy(() => import('./pages/invitation.tsx').then((m) => ({ default: m.AcceptInvitation })));
const INVITATION_PATH = /^\/app\/invitations\/accept\/?$/;

/** null while checking, false when signed out. */
const me = signal<Me | null | false>(null);

type Theme = 'light' | 'dark' | 'system';
const theme = signal<Theme>((localStorage.getItem('rollcall.theme') as Theme | null) ?? 'system');
function applyTheme(value: Theme): void {
  if (value === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = value;
}

async function loadMe(): Promise<void> {
  try {
    const body = await get('/v1/me/');
    me.set({ uuid: body.uuid, first_name: body.first_name, full_name: body.full_name, email: body.email, role: body.role, timezone: body.timezone, organization: body.organization });
  } catch {
    me.set(false);
  }
}

async function signOut(everywhere: boolean): Promise<void> {
  try {
    await api('POST', everywhere ? '/v1/cli/auth/logout-everywhere/' : '/v1/cli/auth/logout/');
  } finally {
    me.set(false);
    navigate('/app/');
  }
}

function Header({ person }: { person: Me }) {
  const current = useSignal(lang);
  const chosenTheme = useSignal(theme);
  const path = useSignal(route);
  const nav = [
    { href: '/app/', label: t('nav.today'), active: path === '/app/' },
    { href: '/app/boards/', label: t('nav.boards'), active: path.startsWith('/app/boards/') },
    ...(person.role === 'admin' ? [{ href: '/app/admin/', label: t('nav.admin'), active: path.startsWith('/app/admin/') }] : []),
  ];
  return (
    <header class="top">
      <a class="skip" href="#main">{t('nav.skip')}</a>
      <span class="brand">Rollcall</span>
      <nav aria-label={t('nav.main')}>
        <ul>
          {nav.map((item) => (
            <li key={item.href}>
              <Link href={item.href} aria-current={item.active ? 'page' : undefined}>{item.label}</Link>
            </li>
          ))}
        </ul>
      </nav>
      <div class="prefs">
        <label>
          <span class="sr-only">{t('prefs.language')}</span>
          <select value={current} onChange={(e) => setLang((e.target as HTMLSelectElement).value as Lang)}>
            {LANGS.map((l) => <option key={l} value={l}>{t(`lang.${l}`)}</option>)}
          </select>
        </label>
        <label>
          <span class="sr-only">{t('prefs.theme')}</span>
          <select
            value={chosenTheme}
            onChange={(e) => {
              const value = (e.target as HTMLSelectElement).value as Theme;
              localStorage.setItem('rollcall.theme', value);
              applyTheme(value);
              theme.set(value);
            }}
          >
            <option value="system">{t('theme.system')}</option>
            <option value="light">{t('theme.light')}</option>
            <option value="dark">{t('theme.dark')}</option>
          </select>
        </label>
        <details class="menu">
          <summary>{person.full_name}</summary>
          <div class="menu-body">
            <p class="muted">{person.email} · {person.organization.name}</p>
            <button type="button" onClick={() => signOut(false)}>{t('signout.here')}</button>
            <button type="button" onClick={() => signOut(true)}>{t('signout.everywhere')}</button>
          </div>
        </details>
      </div>
    </header>
  );
}

function App() {
  const person = useSignal(me);
  const path = useSignal(route);
  useSignal(lang);
  useEffect(() => {
    applyTheme(theme.value);
    document.documentElement.lang = lang.value;
    whenSignedOut(() => me.set(false));
    void loadMe();
  }, []);
  const [title, setTitle] = useState('');
  useEffect(() => {
    document.title = title ? `${title} · Rollcall` : 'Rollcall';
  }, [title]);

  // An invitation's link: its page whether or not someone is signed in on this browser (accepting signs in).
  if (INVITATION_PATH.test(path)) {
    return (
      <main id="main" class="signin-page">
        <Suspense fallback={<p role="status">{t('loading')}</p>}>
          <AcceptInvitation me={person} onSignedIn={loadMe} setTitle={setTitle} />
        </Suspense>
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
  const board = /^\/app\/boards\/([0-9a-f-]{36})\/(?:tasks\/([^/]+)\/)?$/i.exec(path);
  return (
    <>
      <Header person={person} />
      <main id="main" tabIndex={-1}>
        {board ? (
          <Suspense fallback={<p role="status">{t('loading')}</p>}>
            <BoardPage boardUuid={board[1]} taskRef={board[2] ?? null} me={person} setTitle={setTitle} />
          </Suspense>
        ) : path.startsWith('/app/admin/') ? (
          <Suspense fallback={<p role="status">{t('loading')}</p>}>
            <Admin me={person} setTitle={setTitle} />
          </Suspense>
        ) : path.startsWith('/app/boards/') ? (
          <Boards setTitle={setTitle} />
        ) : (
          <Today me={person} setTitle={setTitle} onProfileSaved={loadMe} />
        )}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
