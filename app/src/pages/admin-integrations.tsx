import { useEffect, useState } from 'preact/hooks';
import { all, api, ok } from '../api.ts';
import type { Schemas } from '../api.ts';

type Option = { uuid: string; name: string };
type Hook = Schemas['WebhookSubscription'];
type Delivery = Schemas['Delivery'];
import { formatDate, t } from '../i18n.ts';
import { ErrorNote } from '../ui.tsx';




const DAYS = [1, 2, 3, 4, 5, 6, 0];
const dayName = (day: number) => new Intl.DateTimeFormat(document.documentElement.lang || 'en', { weekday: 'short' }).format(new Date(Date.UTC(2024, 0, 7 + day)));

/** A new check-in from a template: its days, time and time zone, who takes part, where its report goes. */
export function NewCheckin({ people, teams }: { people: Option[]; teams: Option[] }) {
  const [templates, setTemplates] = useState<Schemas['Template'][]>([]);
  const [channels, setChannels] = useState<Schemas['ReportChannels']['channels']>([]);
  const [name, setName] = useState('');
  const [template, setTemplate] = useState('');
  const [days, setDays] = useState<number[]>([1, 2, 3, 4, 5]);
  const [time, setTime] = useState('09:30');
  const [timezone, setTimezone] = useState(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  const [users, setUsers] = useState<string[]>([]);
  const [teamIds, setTeamIds] = useState<string[]>([]);
  const [channel, setChannel] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    all('/v1/templates/').then((list) => (setTemplates(list), list[0] && setTemplate(list[0].uuid)), () => {});
    ok(api.GET('/v1/report-channels/')).then((b) => setChannels(b.channels), () => {});
  }, []);
  const chosen = templates.find((x) => x.uuid === template);
  const toggle = (list: string[], id: string, on: boolean) => (on ? [...list, id] : list.filter((x) => x !== id));

  async function create(e: Event) {
    e.preventDefault();
    setError(null);
    setDone(null);
    const picked = channels.find((c) => c.id === channel);
    try {
      await ok(api.POST('/v1/checkins/create/', { body: {
        name,
        // The API copies the template's questions into the new check-in.
        template_uuid: template || null,
        schedule: { days, time, timezone },
        participants: { user_uuids: users, team_uuids: teamIds },
        ...(picked ? { report_channels: [{ id: picked.id, name: picked.name, platform: picked.platform }] } : {}),
      } }));
      setDone(t('checkins.created', { name }));
      setName('');
    } catch (err) {
      setError((err as Error).message);
    }
  }

  return (
    <section class="card" aria-labelledby="new-checkin-title">
      <h2 id="new-checkin-title">{t('checkins.new')}</h2>
      <form onSubmit={create}>
        <label for="checkin-name">{t('checkins.name')}</label>
        <input id="checkin-name" required maxLength={200} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        <label for="checkin-template">{t('checkins.template')}</label>
        <select id="checkin-template" value={template} onChange={(e) => setTemplate((e.target as HTMLSelectElement).value)}>
          {templates.map((x) => <option key={x.uuid} value={x.uuid}>{x.name}</option>)}
        </select>
        {chosen ? <ol class="muted">{chosen.questions.map((q, i) => <li key={i}>{q.question}</li>)}</ol> : null}
        <fieldset>
          <legend>{t('checkins.days')}</legend>
          {DAYS.map((d) => (
            <label key={d} class="check">
              <input type="checkbox" checked={days.includes(d)} onChange={(e) => setDays((e.target as HTMLInputElement).checked ? [...days, d].sort() : days.filter((x) => x !== d))} />
              {dayName(d)}
            </label>
          ))}
        </fieldset>
        <div class="grid2">
          <div>
            <label for="checkin-time">{t('checkins.time')}</label>
            <input id="checkin-time" type="time" required value={time} onInput={(e) => setTime((e.target as HTMLInputElement).value)} />
          </div>
          <div>
            <label for="checkin-tz">{t('checkins.timezone')}</label>
            <input id="checkin-tz" required value={timezone} onInput={(e) => setTimezone((e.target as HTMLInputElement).value)} />
          </div>
        </div>
        <fieldset>
          <legend>{t('checkins.participants')}</legend>
          {teams.map((team) => (
            <label key={team.uuid} class="check">
              <input type="checkbox" checked={teamIds.includes(team.uuid)} onChange={(e) => setTeamIds(toggle(teamIds, team.uuid, (e.target as HTMLInputElement).checked))} />
              {team.name}
            </label>
          ))}
          {people.map((p) => (
            <label key={p.uuid} class="check">
              <input type="checkbox" checked={users.includes(p.uuid)} onChange={(e) => setUsers(toggle(users, p.uuid, (e.target as HTMLInputElement).checked))} />
              {p.name}
            </label>
          ))}
        </fieldset>
        {channels.length ? (
          <>
            <label for="checkin-channel">{t('checkins.channel')}</label>
            <select id="checkin-channel" value={channel} onChange={(e) => setChannel((e.target as HTMLSelectElement).value)}>
              <option value="">{t('checkins.nochannel')}</option>
              {channels.map((c) => <option key={c.id} value={c.id}>#{c.name} ({c.platform})</option>)}
            </select>
          </>
        ) : null}
        <button type="submit" class="primary">{t('checkins.create')}</button>
      </form>
      {done ? <p class="ok" role="status">{done}</p> : null}
      <ErrorNote message={error} />
    </section>
  );
}



const EVENTS = ['followups.response.completed', 'followups.response.updated', 'kudos.posted', 'organization.user_activated', 'organization.user_deactivated', 'tasks.*'];

/** Organization webhooks (subscribe an HTTPS address to events, remove one) and the deliveries log. */
export function Webhooks() {
  const [hooks, setHooks] = useState<Hook[]>([]);
  const [deliveries, setDeliveries] = useState<Delivery[]>([]);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['followups.response.completed']);
  const [error, setError] = useState<string | null>(null);
  const load = () => {
    all('/v1/webhook-subscription/').then(setHooks, (err) => setError(err.message));
    ok(api.GET('/v1/deliveries/', { params: { query: { page_size: 20 } } })).then((page) => setDeliveries(page.results), () => {});
  };
  useEffect(load, []);

  async function add(e: Event) {
    e.preventDefault();
    setError(null);
    try {
      await ok(api.POST('/v1/webhook-subscription/', { body: { hook_url: url, subscriptions: events } }));
      setUrl('');
      load();
    } catch (err) {
      setError((err as Error).message);
    }
  }
  async function remove(hook: Hook) {
    setError(null);
    try {
      await ok(api.DELETE('/v1/webhook-subscription/', { body: { hook_id: hook.hook_id } }));
      load();
    } catch (err) {
      setError((err as Error).message);
    }
  }

  return (
    <section class="card" aria-labelledby="hooks-title">
      <h2 id="hooks-title">{t('hooks.title')}</h2>
      <ul class="plain">
        {hooks.map((h) => (
          <li key={h.hook_id} class="hook">
            <code>{h.hook_url}</code> · {h.subscriptions.join(', ')}
            {h.active ? null : <span class="badge warn">{t('hooks.disabled')}{h.disabled_reason ? `: ${h.disabled_reason}` : ''}</span>}{' '}
            <button type="button" onClick={() => remove(h)} aria-label={t('hooks.remove', { url: h.hook_url })}>{t('hooks.removeshort')}</button>
          </li>
        ))}
      </ul>
      <form onSubmit={add}>
        <label for="hook-url">{t('hooks.url')}</label>
        <input id="hook-url" type="url" required placeholder="https://" value={url} onInput={(e) => setUrl((e.target as HTMLInputElement).value)} />
        <fieldset>
          <legend>{t('hooks.events')}</legend>
          {EVENTS.map((ev) => (
            <label key={ev} class="check">
              <input type="checkbox" checked={events.includes(ev)} onChange={(e) => setEvents((e.target as HTMLInputElement).checked ? [...events, ev] : events.filter((x) => x !== ev))} />
              <code>{ev}</code>
            </label>
          ))}
        </fieldset>
        <button type="submit" class="primary">{t('hooks.add')}</button>
      </form>
      <ErrorNote message={error} />
      <h3>{t('hooks.deliveries')}</h3>
      <table class="table" tabIndex={0}>
        <thead><tr><th scope="col">{t('hooks.kind')}</th><th scope="col">{t('hooks.destination')}</th><th scope="col">{t('hooks.status')}</th><th scope="col">{t('hooks.attempts')}</th></tr></thead>
        <tbody>
          {deliveries.map((d) => (
            <tr key={d.uuid}>
              <td>{d.kind}</td>
              <td><code>{d.destination}</code></td>
              <td>{d.status}{d.last_status_code ? ` (${d.last_status_code})` : ''}{d.last_error ? ` · ${d.last_error}` : ''}{d.next_attempt_at ? ` · ${t('hooks.next', { when: formatDate(d.next_attempt_at) })}` : ''}</td>
              <td>{d.attempts}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
