import { useEffect, useState } from 'preact/hooks';
import { all, api, ok } from '../api.ts';
import type { Me, Schemas } from '../api.ts';
import { t } from '../i18n.ts';
import { Empty, ErrorNote, Loading } from '../ui.tsx';
import { browserZone, channelBodies, ChannelsField, DaysField, ParticipantsField, scheduleLine, TimeZoneField } from './checkin-fields.tsx';
import type { Channel, Option } from './checkin-fields.tsx';

/** People and teams to choose participants from, and the chat platform's channels to report to. */
export function useChoices() {
  const [people, setPeople] = useState<Option[]>([]);
  const [teams, setTeams] = useState<Option[]>([]);
  const [channels, setChannels] = useState<Channel[]>([]);
  useEffect(() => {
    all('/v1/users/', { query: { status: 'active' } }).then((list) => setPeople(list.map((p) => ({ uuid: p.uuid, name: p.full_name }))), () => {});
    all('/v1/teams/').then((list) => setTeams(list.map((x) => ({ uuid: x.uuid, name: x.name }))), () => {});
    // No chat platform connected: no channels, and the forms say so.
    ok(api.GET('/v1/report-channels/')).then((b) => setChannels(b.channels), () => {});
  }, []);
  return { people, teams, channels };
}

/**
 * Check-ins (admins and managers, as the API allows them to set check-ins up): the list with each one's schedule,
 * who takes part and whether it is paused, a link to its settings, and a new check-in from a template.
 */
export function Checkins({ me, setTitle }: { me: Me; setTitle: (title: string) => void }) {
  const [list, setList] = useState<Schemas['CheckinListItem'][] | null>(null);
  const [archived, setArchived] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const choices = useChoices();
  const load = () => all('/v1/checkins/', { query: { include_archived: archived ? 'true' : 'false' } }).then(setList, (err) => setError(err.message));
  useEffect(() => setTitle(t('checkins.title')), []);
  useEffect(() => void load(), [archived]);
  if (me.role !== 'admin' && me.role !== 'manager') return <p>{t('checkins.managersonly')}</p>;
  return (
    <div>
      <h1>{t('checkins.title')}</h1>
      <section class="card" aria-labelledby="checkins-list-title">
        <h2 id="checkins-list-title">{t('checkins.list')}</h2>
        <label class="check">
          <input type="checkbox" checked={archived} onChange={(e) => setArchived((e.target as HTMLInputElement).checked)} />
          {t('checkins.showarchived')}
        </label>
        <ErrorNote message={error} />
        {list === null && !error ? <Loading /> : null}
        {list?.length === 0 ? <Empty>{t('checkins.none')}</Empty> : null}
        {list && list.length > 0 ? (
          <table class="table">
            <thead>
              <tr>
                <th scope="col">{t('checkins.name')}</th>
                <th scope="col">{t('checkins.when')}</th>
                <th scope="col">{t('checkins.people')}</th>
                <th scope="col">{t('checkins.state')}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((c) => (
                <tr key={c.uuid} class={c.active && !c.is_archived ? '' : 'inactive'}>
                  <td><a href={`/app/checkins/${c.uuid}`}>{c.name}</a></td>
                  <td>{scheduleLine(c)}</td>
                  <td>{c.participants_count}</td>
                  <td>{t(c.is_archived ? 'checkins.archived' : c.active ? 'checkins.running' : 'checkins.paused')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </section>
      <NewCheckin {...choices} onCreated={load} />
    </div>
  );
}

/** A new check-in from a template: its days, time and time zone, who takes part, where its report goes. */
export function NewCheckin({ people, teams, channels, onCreated }: { people: Option[]; teams: Option[]; channels: Channel[]; onCreated: () => void }) {
  const [templates, setTemplates] = useState<Schemas['Template'][]>([]);
  const [name, setName] = useState('');
  const [template, setTemplate] = useState('');
  const [days, setDays] = useState<number[]>([1, 2, 3, 4, 5]);
  const [time, setTime] = useState('09:30');
  const [timezone, setTimezone] = useState(browserZone());
  const [users, setUsers] = useState<string[]>([]);
  const [teamIds, setTeamIds] = useState<string[]>([]);
  const [chosenChannels, setChosenChannels] = useState<string[]>([]);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    all('/v1/templates/').then((list) => (setTemplates(list), list[0] && setTemplate(list[0].uuid)), () => {});
  }, []);
  const chosen = templates.find((x) => x.uuid === template);
  // A weekly template asks once a week: choosing one proposes Friday (the API's default for it), daily ones weekdays.
  function pickTemplate(uuid: string) {
    setTemplate(uuid);
    const next = templates.find((x) => x.uuid === uuid);
    if (next) setDays(next.frequency_type === 'daily' ? [1, 2, 3, 4, 5] : [5]);
  }

  async function create(e: Event) {
    e.preventDefault();
    setError(null);
    setDone(null);
    try {
      await ok(api.POST('/v1/checkins/create/', { body: {
        name,
        // The API copies the template's questions into the new check-in, and its frequency (every other week).
        template_uuid: template || null,
        schedule: { days, time, timezone },
        participants: { user_uuids: users, team_uuids: teamIds },
        report_channels: channelBodies(channels, chosenChannels),
      } }));
      setDone(t('checkins.created', { name }));
      setName('');
      onCreated();
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
        <select id="checkin-template" value={template} onChange={(e) => pickTemplate((e.target as HTMLSelectElement).value)}>
          {templates.map((x) => <option key={x.uuid} value={x.uuid}>{x.name}</option>)}
        </select>
        {chosen ? <ol class="muted">{chosen.questions.map((q, i) => <li key={i}>{q.question}</li>)}</ol> : null}
        <DaysField days={days} onChange={setDays} />
        <div class="grid2">
          <div>
            <label for="checkin-time">{t('checkins.time')}</label>
            <input id="checkin-time" type="time" required value={time} onInput={(e) => setTime((e.target as HTMLInputElement).value)} />
          </div>
          <div>
            <TimeZoneField id="checkin-tz" value={timezone} onChange={setTimezone} />
          </div>
        </div>
        <ParticipantsField people={people} teams={teams} users={users} teamIds={teamIds} onUsers={setUsers} onTeams={setTeamIds} />
        <ChannelsField channels={channels} chosen={chosenChannels} onChange={setChosenChannels} />
        <button type="submit" class="primary">{t('checkins.create')}</button>
      </form>
      {done ? <p class="ok" role="status">{done}</p> : null}
      <ErrorNote message={error} />
    </section>
  );
}
