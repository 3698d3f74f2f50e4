import { useEffect, useState } from 'preact/hooks';
import { all, api, ok } from '../api.ts';
import type { Me } from '../api.ts';
import { t } from '../i18n.ts';
import { ErrorNote } from '../ui.tsx';

const hiddenKey = (me: Me) => `rollcall.firststeps.${me.uuid}`;
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/**
 * What to do first, on Today, for someone who has just joined (an invitation accepted, a first sign-in): give a
 * name (someone invited by address has none) and a time zone, see where check-ins come from, and where kudos and
 * boards are. It shows while a step is open (no name yet; no check-in to take part in, or for an admin none at
 * all) and until the person hides it in this browser.
 */
export function FirstSteps({ me, onProfileSaved }: { me: Me; onProfileSaved: () => void }) {
  const [hidden, setHidden] = useState(localStorage.getItem(hiddenKey(me)) === 'hidden');
  const [checkins, setCheckins] = useState<{ name: string }[] | null>(null);
  useEffect(() => {
    if (!hidden) all('/v1/checkins/').then(setCheckins, () => setCheckins([]));
  }, []);
  const needsName = !me.first_name;
  if (hidden || checkins === null || (!needsName && checkins.length > 0)) return null;

  const hide = () => {
    localStorage.setItem(hiddenKey(me), 'hidden');
    setHidden(true);
  };
  return (
    <section class="card first-steps" aria-labelledby="first-steps-title">
      <h2 id="first-steps-title">{t('first.title', { organization: me.organization.name })}</h2>
      <p>{t('first.intro')}</p>
      <ol class="steps">
        <li class={needsName ? '' : 'done'}>
          {needsName ? <ProfileForm me={me} onSaved={onProfileSaved} /> : <p>{t('first.named', { name: me.full_name })}</p>}
        </li>
        <li class={checkins.length ? 'done' : ''}>
          <h3>{t('first.checkins')}</h3>
          {checkins.length ? (
            <p>{t('first.checkinsyours', { names: checkins.map((c) => c.name).join(', ') })}</p>
          ) : me.role === 'admin' ? (
            <p>{t('first.checkinsnoneadmin')} <a href="/app/admin/">{t('first.toadmin')}</a></p>
          ) : (
            <p>{t('first.checkinsnone', { email: me.email })}</p>
          )}
        </li>
        <li>
          <h3>{t('first.team')}</h3>
          <p>{t('first.kudos')} <a href="/app/boards/">{t('first.boards')}</a></p>
        </li>
      </ol>
      <button type="button" onClick={hide}>{t('first.hide')}</button>
    </section>
  );
}

/** The person's name and time zone (PATCH /v1/users/{uuid}/ on themselves), the zone this browser's by default. */
function ProfileForm({ me, onSaved }: { me: Me; onSaved: () => void }) {
  const [first, setFirst] = useState('');
  const [last, setLast] = useState('');
  const [zone, setZone] = useState(browserZone());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function save(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await ok(api.PATCH('/v1/users/{uuid}/', { params: { path: { uuid: me.uuid } }, body: { first_name: first, last_name: last, timezone: zone } }));
      onSaved();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }
  return (
    <form onSubmit={save} aria-labelledby="first-name-title">
      <h3 id="first-name-title">{t('first.name')}</h3>
      <p class="muted">{t('first.namehelp')}</p>
      <div class="grid2">
        <div>
          <label for="first-first">{t('first.firstname')}</label>
          <input id="first-first" required maxLength={150} autoComplete="given-name" value={first} onInput={(e) => setFirst((e.target as HTMLInputElement).value)} />
        </div>
        <div>
          <label for="first-last">{t('first.lastname')}</label>
          <input id="first-last" maxLength={150} autoComplete="family-name" value={last} onInput={(e) => setLast((e.target as HTMLInputElement).value)} />
        </div>
      </div>
      <label for="first-zone">{t('first.timezone')}</label>
      <input id="first-zone" required value={zone} onInput={(e) => setZone((e.target as HTMLInputElement).value)} />
      <button type="submit" class="primary" disabled={busy}>{t('first.save')}</button>
      <ErrorNote message={error} />
    </form>
  );
}
