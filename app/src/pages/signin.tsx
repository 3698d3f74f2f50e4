import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, ok } from '../api.ts';
import { t } from '../i18n.ts';
import { ErrorNote } from '../ui.tsx';

/**
 * Sign-in with the e-mailed one-time code (the command line's endpoints and limits): the address, then the six
 * digits, then, for an address in several organizations, which one. The session lands in an HttpOnly cookie.
 */
export function SignIn({ onSignedIn, setTitle }: { onSignedIn: () => void; setTitle: (title: string) => void }) {
  const [step, setStep] = useState<'email' | 'code' | 'organization'>('email');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [organizations, setOrganizations] = useState<{ uuid: string; name: string }[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setTitle(t('signin.title')), []);

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(err instanceof ApiError && err.code === 'throttled' ? t('signin.throttled') : (err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  const requestCode = () =>
    run(async () => {
      await ok(api.POST('/v1/cli/auth/request-code/', { body: { email } }));
      setStep('code');
    });

  const verify = (organizationId?: string) =>
    run(async () => {
      const body = await ok(api.POST('/v1/cli/auth/session/', { body: { email, code, ...(organizationId ? { organization_id: organizationId } : {}) } }));
      if ('requires_organization_selection' in body) {
        setOrganizations(body.organizations);
        setStep('organization');
        return;
      }
      onSignedIn();
    });

  return (
    <section class="card signin" aria-labelledby="signin-title">
      <h1 id="signin-title">{t('signin.title')}</h1>
      {step === 'email' && (
        <form onSubmit={(e) => (e.preventDefault(), requestCode())}>
          <p>{t('signin.intro')}</p>
          <label for="signin-email">{t('signin.email')}</label>
          <input id="signin-email" type="email" autoComplete="email" required value={email} onInput={(e) => setEmail((e.target as HTMLInputElement).value)} />
          <button type="submit" class="primary" disabled={busy}>{t('signin.send')}</button>
        </form>
      )}
      {step === 'code' && (
        <form onSubmit={(e) => (e.preventDefault(), verify())}>
          <p role="status">{t('signin.sent', { email })}</p>
          <label for="signin-code">{t('signin.code')}</label>
          <input
            id="signin-code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required
            value={code} onInput={(e) => setCode((e.target as HTMLInputElement).value.trim())}
          />
          <button type="submit" class="primary" disabled={busy}>{t('signin.verify')}</button>
          <button type="button" class="link" onClick={() => (setStep('email'), setCode(''))}>{t('signin.other')}</button>
        </form>
      )}
      {step === 'organization' && (
        <div>
          <p>{t('signin.choose')}</p>
          <ul class="plain">
            {organizations.map((o) => (
              <li key={o.uuid}>
                <button type="button" onClick={() => verify(o.uuid)} disabled={busy}>{o.name}</button>
              </li>
            ))}
          </ul>
        </div>
      )}
      <ErrorNote message={error} />
    </section>
  );
}
