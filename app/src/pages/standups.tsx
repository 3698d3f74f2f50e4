import { useEffect, useState } from 'preact/hooks';
import { all, api, ok } from '../api.ts';
import type { Schemas } from '../api.ts';
import type { Me } from '../api.ts';
import { formatDate, localDay, t } from '../i18n.ts';
import { Empty, ErrorNote, Loading, Markdown } from '../ui.tsx';
import { answered } from './checkin-answer.tsx';
import { TeamBlockers } from './team-blockers.tsx';

const shift = (day: string, by: number) => {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + by);
  return d.toISOString().slice(0, 10);
};

/** My team's stand-ups: a check-in's answers for one day (today by default), with agents' co-authored parts marked. */
export function Standups({ me }: { me: Me }) {
  const [checkins, setCheckins] = useState<Schemas['CheckinListItem'][] | null>(null);
  const [chosen, setChosen] = useState<string>('');
  const [day, setDay] = useState(localDay());
  const [answers, setAnswers] = useState<Schemas['CheckinResponse'][] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [ownOnly, setOwnOnly] = useState(false);
  const saved = answered.value;
  const readsEveryCheckin = me.role === 'admin' || me.role === 'manager';

  useEffect(() => {
    all('/v1/checkins/').then(
      (list) => {
        setCheckins(list);
        if (list[0]) setChosen(list[0].uuid);
      },
      (err) => setError(err.message),
    );
  }, []);
  useEffect(() => {
    if (!chosen) return;
    setAnswers(null);
    ok(api.GET('/v1/checkins/{uuid}/responses/', { params: { path: { uuid: chosen }, query: { date_start: day, date_end: day, page_size: 100 } } })).then(
      (page) => setAnswers(page.results),
      (err) => setError(err.message),
    );
  }, [chosen, day, saved]);
  // The API gives a participant everyone's answers, except on a private check-in, where members and guests get
  // only their own (responsesReadBy in the API's policy): only then does the page say so.
  useEffect(() => {
    setOwnOnly(false);
    if (!chosen || readsEveryCheckin) return;
    ok(api.GET('/v1/checkins/{uuid}/detail/', { params: { path: { uuid: chosen } } })).then(
      (detail) => setOwnOnly(detail.privacy === 'private'),
      (err) => setError(err.message),
    );
  }, [chosen, readsEveryCheckin]);

  const chosenName = checkins?.find((c) => c.uuid === chosen)?.name ?? '';
  return (
    <>
      <section aria-labelledby="standups-title" class="card">
        <h2 id="standups-title">{t('standups.title')}</h2>
        {ownOnly ? <p class="muted">{t('standups.ownonly')}</p> : null}
        {checkins === null && !error ? <Loading /> : null}
        {checkins?.length === 0 ? <Empty>{t('standups.none')}</Empty> : null}
        {checkins && checkins.length > 0 ? (
          <div class="toolbar">
            <label>
              {t('standups.checkin')}{' '}
              <select value={chosen} onChange={(e) => setChosen((e.target as HTMLSelectElement).value)}>
                {checkins.map((c) => <option key={c.uuid} value={c.uuid}>{c.name}</option>)}
              </select>
            </label>
            <button type="button" onClick={() => setDay(shift(day, -1))} aria-label={t('standups.previous')}>‹</button>
            <label>
              <span class="sr-only">{t('standups.day')}</span>
              <input type="date" value={day} max={localDay()} onChange={(e) => (e.target as HTMLInputElement).value && setDay((e.target as HTMLInputElement).value)} />
            </label>
            <button type="button" onClick={() => setDay(shift(day, 1))} disabled={day >= localDay()} aria-label={t('standups.next')}>›</button>
          </div>
        ) : null}
        <ErrorNote message={error} />
        {chosen ? <TeamDay checkin={chosen} day={day} saved={saved} /> : null}
        {answers && answers.length === 0 ? <Empty>{t('standups.nobody', { day: formatDate(day) })}</Empty> : null}
        <ul class="plain standups">
          {answers?.map((r) => (
            <li key={r.uuid} class="standup">
              <h3>
                {r.user?.full_name ?? t('standups.anonymous')}
                {r.has_issue ? <span class="badge warn">{t('standups.blocked')}</span> : null}
              </h3>
              <dl>
                {r.responses.map((a) => (
                  <div key={a.uuid}>
                    <dt>{a.question}</dt>
                    <dd><Answer value={a.response} /></dd>
                  </div>
                ))}
              </dl>
            </li>
          ))}
        </ul>
      </section>
      {chosen ? <TeamBlockers checkin={chosen} name={chosenName} canResolve={readsEveryCheckin} saved={saved} /> : null}
    </>
  );
}

type Summary = Schemas['CheckinListItem'];

/**
 * Who of the team has not answered that day, who is away (time off) and who is on a public holiday, from the
 * check-in list's summary; a day before the check-in existed says so instead.
 */
function TeamDay({ checkin, day, saved }: { checkin: string; day: string; saved: unknown }) {
  const [item, setItem] = useState<Summary | null>(null);
  useEffect(() => {
    setItem(null);
    all('/v1/checkins/', { query: { include_summary: 'true', include_pending_users: 'true', date: day } }).then(
      (list) => setItem(list.find((c) => c.uuid === checkin) ?? null),
      () => setItem(null),
    );
  }, [checkin, day, saved]);
  if (!item?.summary) return null;
  if (!item.summary.existed) return <p class="muted team-day" role="status">{t('team.notyet', { day: formatDate(day) })}</p>;
  const away = new Set(item.away_users.map((u) => u.uuid));
  const holiday = new Set(item.holiday_users.map((u) => u.uuid));
  const waiting = item.pending_users.filter((u) => !away.has(u.uuid) && !holiday.has(u.uuid));
  const group = (label: string, people: { uuid: string; full_name: string }[], badge: string) =>
    people.length ? (
      <div>
        <dt>{label}</dt>
        <dd>
          <ul class="plain people">
            {people.map((u) => <li key={u.uuid}>{u.full_name} <span class={`badge ${badge}`}>{label}</span></li>)}
          </ul>
        </dd>
      </div>
    ) : null;
  return (
    <div class="team-day">
      <p class="muted">{t('team.counts', { responded: item.summary.responded, participants: item.summary.participants, away: item.summary.away, holiday: item.summary.holiday })}</p>
      <dl>
        {group(t('team.waiting'), waiting, 'warn')}
        {group(t('team.away'), item.away_users, 'away')}
        {group(t('team.holiday'), item.holiday_users, 'holiday')}
      </dl>
    </div>
  );
}

const COAUTHORED = / \(co-authored with (.+)\)$/;

/**
 * An answer as sanitized Markdown; lines an agent wrote into it (each ends with "(co-authored with <agent>)")
 * are grouped and marked with the agent's name.
 */
export function Answer({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '') return <span class="muted">—</span>;
  if (typeof value !== 'string') return <span>{typeof value === 'boolean' ? t(value ? 'yes' : 'no') : String(value)}</span>;
  const groups: { agent: string | null; lines: string[] }[] = [];
  for (const line of value.split('\n')) {
    const match = COAUTHORED.exec(line);
    const agent = match ? match[1] : null;
    const text = match ? line.slice(0, match.index) : line;
    const last = groups.at(-1);
    if (last && last.agent === agent) last.lines.push(text);
    else groups.push({ agent, lines: [text] });
  }
  return (
    <>
      {groups.map((g, i) =>
        g.agent ? (
          <div class="coauthored" key={i}>
            <span class="badge agent">{t('standups.coauthored', { agent: g.agent })}</span>
            <Markdown text={g.lines.join('\n')} />
          </div>
        ) : (
          <Markdown key={i} text={g.lines.join('\n')} />
        ),
      )}
    </>
  );
}
