import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, ok } from '../api.ts';
import type { Me, Schemas } from '../api.ts';
import { t } from '../i18n.ts';
import { ErrorNote } from '../ui.tsx';

const TOKEN = /^[0-9A-Za-z]{32}$/;
const PLATFORM_NAMES: Record<string, string> = { discord: 'Discord' };

/**
 * The page `/rollcall link` in Discord answers with (/app/link/<token>): the signed-in person links the chat account
 * that asked for it to themselves (POST /v1/me/chat-accounts/). A button rather than linking on arrival: link
 * previews and scanners open links, and a link works once. An unknown, used or expired link says what to do.
 */
export function LinkAccount({ token = '', me, setTitle }: { token?: string; me: Me; setTitle: (title: string) => void }) {
  const [error, setError] = useState<string | null>(TOKEN.test(token) ? null : t('link.unknown'));
  const [linked, setLinked] = useState<Schemas['ChatAccount'] | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setTitle(t('link.title')), []);

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      setLinked(await ok(api.POST('/v1/me/chat-accounts/', { body: { token } })));
      // The link is spent: it leaves the address bar and the history.
      history.replaceState(null, '', '/app/link/');
    } catch (err) {
      setError(err instanceof ApiError && (err.status === 404 || err.status === 400) ? t('link.unknown') : (err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  const platform = PLATFORM_NAMES[linked?.platform ?? 'discord'] ?? 'Discord';
  return (
    <section class="card signin" aria-labelledby="link-title">
      <h1 id="link-title">{t('link.title')}</h1>
      {linked ? (
        <p role="status" class="ok">{t('link.done', { platform, name: linked.name ?? linked.external_id })}</p>
      ) : (
        <>
          <p>{t('link.intro', { platform })}</p>
          <p class="muted">{t('link.as', { email: me.email })}</p>
          {error ? null : <button type="button" class="primary" onClick={() => void confirm()} disabled={busy}>{t('link.confirm')}</button>}
        </>
      )}
      <ErrorNote message={error} />
      {linked || error ? (
        <p>
          <a href="/app/">{t('link.today')}</a>
        </p>
      ) : null}
    </section>
  );
}
