import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, ok } from '../api.ts';
import type { Me, Schemas } from '../api.ts';
import { t } from '../i18n.ts';
import { ErrorNote, Loading } from '../ui.tsx';
import { ChannelsField, DaysField, ParticipantsField, TimeZoneField } from './checkin-fields.tsx';
import { useChoices } from './checkins.tsx';
import { draftOf, questionBody, QuestionList } from './question-list.tsx';
import type { DraftQuestion } from './question-list.tsx';

type Detail = Schemas['CheckinDetail'];

/** The form's copy of a check-in's settings, as the API answered them. */
function formOf(d: Detail) {
  return {
    name: d.name,
    days: d.schedule.days,
    time: d.schedule.time,
    timezone: d.schedule.timezone,
    frequency: d.frequency,
    users: d.participants.users.map((u) => u.uuid),
    teamIds: d.participants.teams.map((x) => x.uuid),
    channelIds: d.report_channels.map((c) => c.id),
    remindersMax: d.reminders_max_count,
    remindersEvery: d.reminders_frequency_time,
    reportAt: d.time_for_report ?? '',
    private: d.privacy === 'private',
    anonymous: d.is_anonymous,
    questions: d.questions.map(draftOf),
  };
}
type Form = ReturnType<typeof formOf>;

/**
 * One check-in's settings (admins and managers): name, schedule, questions with their types, who takes part,
 * reminders, report channels and privacy, saved together with PATCH …/config/; paused and resumed (`active`), or
 * archived (it stops asking, its answers stay).
 */
export function CheckinEdit({ uuid, me, setTitle }: { uuid: string; me: Me; setTitle: (title: string) => void }) {
  const { route } = useLocation();
  const choices = useChoices();
  const [detail, setDetail] = useState<Detail | null>(null);
  const [form, setForm] = useState<Form | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const shown = (d: Detail) => {
    setDetail(d);
    setForm(formOf(d));
    setTitle(d.name);
  };
  useEffect(() => {
    ok(api.GET('/v1/checkins/{uuid}/detail/', { params: { path: { uuid } } })).then(shown, (err) => setError(err.message));
  }, [uuid]);
  if (me.role !== 'admin' && me.role !== 'manager') return <p>{t('checkins.managersonly')}</p>;
  if (!detail || !form) return error ? <ErrorNote message={error} /> : <Loading />;
  const set = (patch: Partial<Form>) => setForm({ ...form, ...patch });
  // Channels the platform no longer lists (or none is connected) stay as they were unless unticked.
  const known = [...choices.channels, ...detail.report_channels.filter((c) => !choices.channels.some((x) => x.id === c.id)).map((c) => ({ id: c.id, name: c.name ?? c.id, platform: c.platform ?? '' }))];

  async function change(body: Record<string, unknown>, done: string) {
    setError(null);
    setNote(null);
    try {
      shown(await ok(api.PATCH('/v1/checkins/{uuid}/config/', { params: { path: { uuid } }, body })));
      setNote(done);
    } catch (err) {
      setError((err as Error).message);
    }
  }

  function save(e: Event) {
    e.preventDefault();
    void change({
      name: form!.name,
      schedule: { days: form!.days, time: form!.time, timezone: form!.timezone },
      frequency: form!.frequency,
      participants: { user_uuids: form!.users, team_uuids: form!.teamIds },
      report_channels: known.filter((c) => form!.channelIds.includes(c.id)).map((c) => ({ id: c.id, name: c.name, platform: c.platform || null })),
      reminders_max_count: form!.remindersMax,
      reminders_frequency_time: form!.remindersEvery,
      time_for_report: form!.reportAt || null,
      privacy: form!.private ? 'private' : null,
      is_anonymous: form!.anonymous,
      questions: form!.questions.map(questionBody),
    }, t('checkins.saved'));
  }

  async function archive() {
    if (!confirm(t('checkins.archiveconfirm', { name: detail!.name }))) return;
    try {
      await ok(api.DELETE('/v1/checkins/{uuid}/archive/', { params: { path: { uuid } } }));
      route('/app/checkins');
    } catch (err) {
      setError((err as Error).message);
    }
  }

  const number = (value: string) => Math.max(0, Math.trunc(Number(value) || 0));
  return (
    <div>
      <p><a href="/app/checkins">{t('checkins.back')}</a></p>
      <h1>{detail.name}</h1>
      <p class="muted">
        {t(detail.is_archived ? 'checkins.archived' : detail.active ? 'checkins.running' : 'checkins.paused')}
      </p>
      {!detail.is_archived ? (
        <div class="toolbar">
          <button type="button" onClick={() => change({ active: !detail.active }, t(detail.active ? 'checkins.pausednote' : 'checkins.resumednote'))}>
            {t(detail.active ? 'checkins.pause' : 'checkins.resume')}
          </button>
          <button type="button" class="danger" onClick={archive}>{t('checkins.archive')}</button>
        </div>
      ) : null}
      {note ? <p class="ok" role="status">{note}</p> : null}
      <ErrorNote message={error} />
      <form class="card" onSubmit={save} aria-label={t('checkins.settings')}>
        <label for="edit-name">{t('checkins.name')}</label>
        <input id="edit-name" required maxLength={200} value={form.name} onInput={(e) => set({ name: (e.target as HTMLInputElement).value })} />
        <DaysField days={form.days} onChange={(days) => set({ days })} />
        <div class="grid2">
          <div>
            <label for="edit-time">{t('checkins.time')}</label>
            <input id="edit-time" type="time" required value={form.time} onInput={(e) => set({ time: (e.target as HTMLInputElement).value })} />
          </div>
          <div>
            <TimeZoneField id="edit-tz" value={form.timezone} onChange={(timezone) => set({ timezone })} />
          </div>
          <div>
            <label for="edit-frequency">{t('checkins.frequency')}</label>
            <select id="edit-frequency" value={form.frequency} onChange={(e) => set({ frequency: Number((e.target as HTMLSelectElement).value) })}>
              {[1, 2, 3, 4].map((n) => <option key={n} value={n}>{n === 1 ? t('checkins.everyweek') : t('checkins.everyweeks', { n })}</option>)}
            </select>
          </div>
        </div>
        <QuestionList questions={form.questions} onChange={(questions: DraftQuestion[]) => set({ questions })} />
        <ParticipantsField people={choices.people} teams={choices.teams} users={form.users} teamIds={form.teamIds} onUsers={(users) => set({ users })} onTeams={(teamIds) => set({ teamIds })} />
        <fieldset>
          <legend>{t('checkins.reminders')}</legend>
          <div class="grid2">
            <div>
              <label for="edit-reminders">{t('checkins.remindersmax')}</label>
              <input id="edit-reminders" type="number" min={0} max={20} value={form.remindersMax} onInput={(e) => set({ remindersMax: number((e.target as HTMLInputElement).value) })} />
            </div>
            <div>
              <label for="edit-every">{t('checkins.remindersevery')}</label>
              <input id="edit-every" type="number" min={0} max={1440} value={form.remindersEvery} onInput={(e) => set({ remindersEvery: number((e.target as HTMLInputElement).value) })} />
            </div>
            <div>
              <label for="edit-report">{t('checkins.reportat')}</label>
              <input id="edit-report" type="time" value={form.reportAt} onInput={(e) => set({ reportAt: (e.target as HTMLInputElement).value })} />
            </div>
          </div>
        </fieldset>
        <ChannelsField channels={known} chosen={form.channelIds} onChange={(channelIds) => set({ channelIds })} />
        <fieldset>
          <legend>{t('checkins.privacy')}</legend>
          <label class="check">
            <input type="checkbox" checked={form.private} onChange={(e) => set({ private: (e.target as HTMLInputElement).checked })} />
            {t('checkins.private')}
          </label>
          <label class="check">
            <input type="checkbox" checked={form.anonymous} onChange={(e) => set({ anonymous: (e.target as HTMLInputElement).checked })} />
            {t('checkins.anonymous')}
          </label>
        </fieldset>
        <button type="submit" class="primary">{t('checkins.save')}</button>
      </form>
    </div>
  );
}
