/**
 * The fields a new check-in and a check-in's settings share: its days, its time zone (a list, this browser's zone
 * first chosen), who takes part (teams and people), where its report goes.
 */
import type { Schemas } from '../api.ts';
import { lang, t } from '../i18n.ts';

export type Option = { uuid: string; name: string };
/** A channel the chat platform lists (`GET /v1/report-channels/`), or one a check-in already reports to. */
export type Channel = Pick<Schemas['ReportChannels']['channels'][number], 'id' | 'name'> & { platform: string };

/** Monday first; the API counts 0 = Sunday … 6 = Saturday in `schedule.days`. */
const DAYS = [1, 2, 3, 4, 5, 6, 0];
export const dayName = (day: number) =>
  new Intl.DateTimeFormat(lang.value, { weekday: 'short' }).format(new Date(Date.UTC(2024, 0, 7 + day)));

/** This browser's time zone, the default of a new check-in. */
export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Every IANA zone the browser knows, with `current` among them even if the browser does not list it (UTC). */
export function zones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([current, 'UTC', ...known])].sort();
}

const toggle = <T,>(list: T[], item: T, on: boolean): T[] => (on ? [...list, item] : list.filter((x) => x !== item));

export function DaysField({ days, onChange }: { days: number[]; onChange: (days: number[]) => void }) {
  return (
    <fieldset>
      <legend>{t('checkins.days')}</legend>
      {DAYS.map((d) => (
        <label key={d} class="check">
          <input type="checkbox" checked={days.includes(d)} onChange={(e) => onChange(toggle(days, d, (e.target as HTMLInputElement).checked).sort())} />
          {dayName(d)}
        </label>
      ))}
    </fieldset>
  );
}

export function TimeZoneField({ id, value, onChange }: { id: string; value: string; onChange: (zone: string) => void }) {
  return (
    <>
      <label for={id}>{t('checkins.timezone')}</label>
      <select id={id} required value={value} onChange={(e) => onChange((e.target as HTMLSelectElement).value)}>
        {zones(value).map((z) => <option key={z} value={z}>{z.replaceAll('_', ' ')}</option>)}
      </select>
    </>
  );
}

export function ParticipantsField(props: {
  people: Option[];
  teams: Option[];
  users: string[];
  teamIds: string[];
  onUsers: (uuids: string[]) => void;
  onTeams: (uuids: string[]) => void;
}) {
  return (
    <fieldset>
      <legend>{t('checkins.participants')}</legend>
      {props.teams.map((team) => (
        <label key={team.uuid} class="check">
          <input type="checkbox" checked={props.teamIds.includes(team.uuid)} onChange={(e) => props.onTeams(toggle(props.teamIds, team.uuid, (e.target as HTMLInputElement).checked))} />
          {team.name}
        </label>
      ))}
      {props.people.map((p) => (
        <label key={p.uuid} class="check">
          <input type="checkbox" checked={props.users.includes(p.uuid)} onChange={(e) => props.onUsers(toggle(props.users, p.uuid, (e.target as HTMLInputElement).checked))} />
          {p.name}
        </label>
      ))}
    </fieldset>
  );
}

/** Report channels as the API takes them: `{id, name, platform}` of the channels the chat platform lists. */
export function ChannelsField({ channels, chosen, onChange }: { channels: Channel[]; chosen: string[]; onChange: (ids: string[]) => void }) {
  if (channels.length === 0) return <p class="muted">{t('checkins.nochannels')}</p>;
  return (
    <fieldset>
      <legend>{t('checkins.channels')}</legend>
      {channels.map((c) => (
        <label key={c.id} class="check">
          <input type="checkbox" checked={chosen.includes(c.id)} onChange={(e) => onChange(toggle(chosen, c.id, (e.target as HTMLInputElement).checked))} />
          #{c.name} ({c.platform})
        </label>
      ))}
    </fieldset>
  );
}

export const channelBodies = (channels: Channel[], ids: string[]) =>
  channels.filter((c) => ids.includes(c.id)).map((c) => ({ id: c.id, name: c.name, platform: c.platform }));

/** "Mon, Wed, Fri · 09:30 Europe/Madrid", every other week when it is. */
export function scheduleLine(c: { schedule: { days: number[]; time: string; timezone: string } }, frequency = 1): string {
  const days = DAYS.filter((d) => c.schedule.days.includes(d)).map((d) => dayName(d)).join(', ');
  const every = frequency > 1 ? ` · ${t('checkins.everyweeks', { n: frequency })}` : '';
  return `${days} · ${c.schedule.time} ${c.schedule.timezone.replaceAll('_', ' ')}${every}`;
}
