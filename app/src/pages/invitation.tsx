import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, ok } from '../api.ts';
import type { Me } from '../api.ts';
import { formatDateTime, t } from '../i18n.ts';
import { useLocation } from 'preact-iso';
import { ErrorNote } from '../ui.tsx';

const TOKEN = /^[0-9A-Za-z]{40}$/;

/** Why a link cannot be accepted, as the API says it (its code), in the person's language. */
function problemOf(err: unknown): string {
  if (!(err instanceof ApiError)) return (err as Error).message;
  if (err.code === 'invitation_expired') return t('invite.expired', { date: formatDateTime(String((err.body?.extra as { expired_at?: string } | undefined)?.expired_at ?? '')) });
  if (err.code === 'invitation_already_accepted') return t('invite.used');
  if (err.code === 'throttled') return t('signin.throttled');
  // 404 invitation_not_found, or a token the API does not even read as one (400 with its field).
  if (err.status === 404 || err.body?.token) return t('invite.unknown');
  return err.message;
}

/**
 * The page an invitation e-mail links to (/app/invitations/accept?token=…). One button accepts the invitation and
 * signs the person in on this browser (POST /v1/invitations/accept/ with session: true: the API sets the session
 * cookie), then Today. A button rather than accepting on arrival: mail scanners open links, and a link works once.
 * An unknown, expired or used link says what to do instead.
 */
export function AcceptInvitation({ me, onSignedIn, setTitle }: { me: Me | null | false; onSignedIn: () => void; setTitle: (title: string) => void }) {
  const { query, route } = useLocation();
  const token = query.token ?? '';
  const [error, setError] = useState<string | null>(TOKEN.test(token) ? null : t('invite.unknown'));
  const [used, setUsed] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => setTitle(t('invite.title')), []);

  async function accept() {
    setBusy(true);
    setError(null);
    try {
      await ok(api.POST('/v1/invitations/accept/', { body: { token, session: true } }));
      // The link is spent: it leaves the address bar and the history, and Today shows.
      route('/app/', true);
      onSignedIn();
    } catch (err) {
      setUsed(err instanceof ApiError && err.code === 'invitation_already_accepted');
      setError(problemOf(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="card signin" aria-labelledby="invite-title">
      <h1 id="invite-title">{t('invite.title')}</h1>
      <p>{t('invite.intro')}</p>
      {me ? <p class="muted">{t('invite.signedinas', { email: me.email })}</p> : null}
      {TOKEN.test(token) && !used ? (
        <button type="button" class="primary" onClick={accept} disabled={busy}>{t('invite.accept')}</button>
      ) : null}
      <ErrorNote message={error} />
      {error ? (
        <p>
          <a href="/app/">{me ? t('invite.today') : t('invite.signin')}</a>
        </p>
      ) : null}
    </section>
  );
}
