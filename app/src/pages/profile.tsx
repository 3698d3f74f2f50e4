import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, ok } from '../api.ts';
import type { Me } from '../api.ts';
import { LANGS, setLang, t } from '../i18n.ts';
import type { Lang } from '../i18n.ts';
import { ErrorNote, Loading } from '../ui.tsx';

interface Period { start: string; end: string }
const ZONES: string[] = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

/**
 * The person's own settings (PATCH /v1/me/): name, time zone, language, public-holiday calendar, which messages
 * they want, and their time off. The language chosen here is the app's too, and that of their e-mails.
 */
export function Profile({ me, setTitle, onSaved }: { me: Me; setTitle: (title: string) => void; onSaved: () => void }) {
  useEffect(() => setTitle(t('profile.title')), []);
  const [first, setFirst] = useState(me.first_name);
  const [last, setLast] = useState(me.last_name);
  const [zone, setZone] = useState(me.timezone);
  const [language, setLanguage] = useState<string>(me.language ?? '');
  const [calendar, setCalendar] = useState(me.holiday_calendar ?? '');
  const [reminders, setReminders] = useState(me.notifications.reminders);
  const [reports, setReports] = useState(me.notifications.report_emails);
  const [timeOff, setTimeOff] = useState<Period[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    ok(api.GET('/v1/users/{uuid}/', { params: { path: { uuid: me.uuid } } })).then(
      (user) => setTimeOff((user as { time_off?: Period[] }).time_off ?? []),
      (err) => setError(err.message),
    );
  }, []);

  async function save(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setFields({});
    setSaved(false);
    try {
      await ok(api.PATCH('/v1/me/', {
        body: {
          first_name: first, last_name: last, timezone: zone.trim() || null, language: (language || null) as Lang | null, holiday_calendar: calendar.trim() || null,
          notifications: { reminders, report_emails: reports }, time_off: timeOff ?? undefined,
        },
      }));
      if (language) setLang(language as Lang);
      setSaved(true);
      onSaved();
    } catch (err) {
      setError((err as Error).message);
      if (err instanceof ApiError && err.body && !err.code) setFields(err.body as Record<string, string[]>);
    } finally {
      setBusy(false);
    }
  }

  const problem = (name: string) => (fields[name] ? <p class="error" id={`${name}-error`}>{fields[name].join(' ')}</p> : null);
  const described = (name: string, help?: string) => [fields[name] ? `${name}-error` : '', help ?? ''].filter(Boolean).join(' ') || undefined;
  const setPeriod = (i: number, part: keyof Period, value: string) => setTimeOff((timeOff ?? []).map((p, j) => (j === i ? { ...p, [part]: value } : p)));

  return (
    <form class="card profile" onSubmit={save} aria-labelledby="profile-title" noValidate>
      <h1 id="profile-title">{t('profile.title')}</h1>
      <p class="muted">{t('profile.intro')}</p>
      <div class="grid2">
        <div>
          <label for="profile-first">{t('first.firstname')}</label>
          <input id="profile-first" maxLength={150} autoComplete="given-name" value={first} onInput={(e) => setFirst((e.target as HTMLInputElement).value)} />
        </div>
        <div>
          <label for="profile-last">{t('first.lastname')}</label>
          <input id="profile-last" maxLength={150} autoComplete="family-name" value={last} onInput={(e) => setLast((e.target as HTMLInputElement).value)} />
        </div>
      </div>
      <label for="profile-zone">{t('first.timezone')}</label>
      <input id="profile-zone" list="profile-zones" value={zone} aria-describedby={described('timezone', 'profile-zone-help')} onInput={(e) => setZone((e.target as HTMLInputElement).value)} />
      <datalist id="profile-zones">{ZONES.map((z) => <option key={z} value={z} />)}</datalist>
      <p class="muted hint" id="profile-zone-help">{t('profile.zonehelp')}</p>
      {problem('timezone')}
      <label for="profile-language">{t('prefs.language')}</label>
      <select id="profile-language" value={language} aria-describedby={described('language', 'profile-language-help')} onChange={(e) => setLanguage((e.target as HTMLSelectElement).value)}>
        <option value="">{t('profile.browserlanguage')}</option>
        {LANGS.map((l) => <option key={l} value={l}>{t(`lang.${l}`)}</option>)}
      </select>
      <p class="muted hint" id="profile-language-help">{t('profile.languagehelp')}</p>
      {problem('language')}
      <label for="profile-calendar">{t('profile.calendar')}</label>
      <input id="profile-calendar" maxLength={16} value={calendar} placeholder="ES-MD" aria-describedby={described('holiday_calendar', 'profile-calendar-help')} onInput={(e) => setCalendar((e.target as HTMLInputElement).value)} />
      <p class="muted hint" id="profile-calendar-help">{t('profile.calendarhelp')}</p>
      {problem('holiday_calendar')}
      <fieldset>
        <legend>{t('profile.notifications')}</legend>
        <label class="check"><input type="checkbox" checked={reminders} onChange={(e) => setReminders((e.target as HTMLInputElement).checked)} /> {t('profile.reminders')}</label>
        <label class="check"><input type="checkbox" checked={reports} onChange={(e) => setReports((e.target as HTMLInputElement).checked)} /> {t('profile.reportemails')}</label>
      </fieldset>
      <fieldset>
        <legend>{t('profile.timeoff')}</legend>
        <p class="muted hint">{t('profile.timeoffhelp')}</p>
        {timeOff === null && !error ? <Loading /> : null}
        <ul class="plain periods">
          {(timeOff ?? []).map((p, i) => (
            <li key={i} class="grid2 period">
              <div>
                <label for={`off-start-${i}`}>{t('profile.from')}</label>
                <input id={`off-start-${i}`} type="date" value={p.start} onInput={(e) => setPeriod(i, 'start', (e.target as HTMLInputElement).value)} />
              </div>
              <div>
                <label for={`off-end-${i}`}>{t('profile.until')}</label>
                <input id={`off-end-${i}`} type="date" value={p.end} onInput={(e) => setPeriod(i, 'end', (e.target as HTMLInputElement).value)} />
              </div>
              <button type="button" onClick={() => setTimeOff((timeOff ?? []).filter((_, j) => j !== i))}>{t('profile.remove', { n: i + 1 })}</button>
              {problem(`time_off.${i}.start`)}{problem(`time_off.${i}.end`)}
            </li>
          ))}
        </ul>
        {timeOff !== null ? <button type="button" onClick={() => setTimeOff([...timeOff, { start: '', end: '' }])}>{t('profile.addperiod')}</button> : null}
      </fieldset>
      <button type="submit" class="primary" disabled={busy || timeOff === null}>{t('first.save')}</button>
      {saved ? <p role="status" class="saved">{t('profile.saved')}</p> : null}
      <ErrorNote message={error} />
    </form>
  );
}
