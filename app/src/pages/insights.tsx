import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import { all, api, ok } from '../api.ts';
import type { Schemas } from '../api.ts';
import { formatDate, lang, localDay, t } from '../i18n.ts';
import { Empty, ErrorNote, Loading } from '../ui.tsx';

type Insights = Schemas['Insights'];
type Rates = { participation_rate?: number | null; on_time_rate?: number | null; average_minutes_to_answer?: number | null };

const shift = (day: string, by: number) => {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + by);
  return d.toISOString().slice(0, 10);
};
const percent = (value: number | null | undefined) => (value === null || value === undefined ? '–' : new Intl.NumberFormat(lang.value, { style: 'percent', maximumFractionDigits: 0 }).format(value));
const number = (value: number | null | undefined) => (value === null || value === undefined ? '–' : new Intl.NumberFormat(lang.value, { maximumFractionDigits: 2 }).format(value));
const cssVar = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#0b5cad';

/**
 * Participation per day (and the day's mood, on its own 1–5 scale) as a uPlot chart. The chart is a picture of the
 * table below it, which holds the same numbers for screen readers and keyboards: it is hidden from them.
 */
function DaysChart({ insights }: { insights: Insights }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const days = insights.days ?? [];
    const moods = new Map((insights.mood?.days ?? []).map((d) => [d.date, d.average]));
    const x = days.map((d) => Date.parse(`${d.date}T12:00:00Z`) / 1000);
    const participation = days.map((d) => (d.participation_rate === null || d.participation_rate === undefined ? null : Math.round(d.participation_rate * 100)));
    const mood = days.map((d) => moods.get(d.date!) ?? null);
    const text = cssVar('--text');
    const axis = { stroke: text, grid: { stroke: cssVar('--line') }, ticks: { stroke: cssVar('--line') } };
    const chart = new uPlot(
      {
        width: Math.max(160, el.clientWidth),
        height: 220,
        legend: { show: true },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, pct: { range: [0, 100] }, mood: { range: [1, 5] } },
        axes: [axis, { ...axis, scale: 'pct', values: (_u, ticks) => ticks.map((v) => `${v}%`) }, { ...axis, scale: 'mood', side: 1, grid: { show: false } }],
        series: [
          {},
          { label: t('insights.participation'), scale: 'pct', stroke: cssVar('--accent'), width: 2, spanGaps: false },
          { label: t('insights.mood'), scale: 'mood', stroke: cssVar('--warn'), width: 2, dash: [6, 4], spanGaps: true },
        ],
      },
      [x, participation, mood],
      el,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(160, el.clientWidth), height: 220 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [insights, lang.value]);
  return <div ref={box} class="insights-chart" aria-hidden="true" />;
}

function Summary({ insights }: { insights: Insights }) {
  const items: [string, string][] = [
    [t('insights.participation'), percent(insights.participation_rate)],
    [t('insights.on_time'), percent(insights.on_time_rate)],
    [t('insights.minutes'), number(insights.average_minutes_to_answer)],
    [t('insights.answered'), `${insights.answered ?? 0} / ${insights.expected ?? 0}`],
    [t('insights.blockers'), String(insights.blockers?.reported ?? 0)],
    [t('insights.mood'), number(insights.mood?.average)],
  ];
  return (
    <dl class="insights-summary">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const rateCells = (r: Rates) => [percent(r.participation_rate), percent(r.on_time_rate), number(r.average_minutes_to_answer)];

/** A check-in's insights over a period: the numbers, a chart of each day, the same days as a table, each person, the typed answers, and the CSV. */
export function InsightsPage({ setTitle }: { setTitle: (title: string) => void }) {
  const [checkins, setCheckins] = useState<Schemas['CheckinListItem'][] | null>(null);
  const [chosen, setChosen] = useState('');
  const [to, setTo] = useState(localDay());
  const [from, setFrom] = useState(shift(localDay(), -29));
  const [insights, setInsights] = useState<Insights | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => setTitle(t('insights.title')), [lang.value]);
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
    if (!chosen || !from || !to) return;
    setError(null);
    setInsights(null);
    ok(api.GET('/v1/checkins/{uuid}/insights/', { params: { path: { uuid: chosen }, query: { from, to } } })).then(setInsights, (err) => setError(err.message));
  }, [chosen, from, to]);

  const csv = chosen ? `/v1/checkins/${chosen}/responses/export/?${new URLSearchParams({ from, to })}` : '';
  return (
    <section aria-labelledby="insights-title" class="card insights">
      <h1 id="insights-title">{t('insights.title')}</h1>
      {checkins === null && !error ? <Loading /> : null}
      {checkins?.length === 0 ? <Empty>{t('standups.none')}</Empty> : null}
      {checkins && checkins.length > 0 ? (
        <div class="insights-controls">
          <label>
            {t('standups.checkin')}
            <select value={chosen} onChange={(e) => setChosen((e.target as HTMLSelectElement).value)}>
              {checkins.map((c) => <option key={c.uuid} value={c.uuid}>{c.name}</option>)}
            </select>
          </label>
          <label>
            {t('insights.from')}
            <input type="date" value={from} max={to} onChange={(e) => setFrom((e.target as HTMLInputElement).value)} />
          </label>
          <label>
            {t('insights.to')}
            <input type="date" value={to} min={from} onChange={(e) => setTo((e.target as HTMLInputElement).value)} />
          </label>
          <a class="button" href={csv} download>{t('insights.csv')}</a>
        </div>
      ) : null}
      <ErrorNote message={error} />
      {chosen && !insights && !error ? <Loading /> : null}
      {insights ? (
        <>
          {insights.scope === 'own' ? <p class="muted">{t('insights.own')}</p> : null}
          <Summary insights={insights} />
          <figure class="insights-figure">
            <DaysChart insights={insights} />
            <figcaption class="muted">{t('insights.chart')}</figcaption>
          </figure>
          <h2>{t('insights.days')}</h2>
          <table class="table insights-table">
            <caption class="sr-only">{t('insights.days')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('standups.day')}</th>
                <th scope="col">{t('insights.answered')}</th>
                <th scope="col">{t('insights.participation')}</th>
                <th scope="col">{t('insights.on_time')}</th>
                <th scope="col">{t('insights.minutes')}</th>
                <th scope="col">{t('insights.blockers')}</th>
                <th scope="col">{t('insights.mood')}</th>
              </tr>
            </thead>
            <tbody>
              {(insights.days ?? []).filter((d) => (d.expected ?? 0) > 0 || (d.blockers_reported ?? 0) > 0).map((d) => (
                <tr key={d.date}>
                  <th scope="row">{formatDate(d.date!)}</th>
                  <td>{`${d.answered} / ${d.expected}`}</td>
                  {rateCells(d).map((cell, i) => <td key={i}>{cell}</td>)}
                  <td>{d.blockers_reported}</td>
                  <td>{number(insights.mood?.days?.find((m) => m.date === d.date)?.average)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {(insights.people ?? []).length > 0 ? (
            <>
              <h2>{t('insights.people')}</h2>
              <table class="table">
                <thead>
                  <tr>
                    <th scope="col">{t('insights.person')}</th>
                    <th scope="col">{t('insights.participation')}</th>
                    <th scope="col">{t('insights.on_time')}</th>
                    <th scope="col">{t('insights.minutes')}</th>
                    <th scope="col">{t('insights.streak')}</th>
                    <th scope="col">{t('insights.longest')}</th>
                  </tr>
                </thead>
                <tbody>
                  {insights.people!.map((p) => (
                    <tr key={p.user?.uuid}>
                      <th scope="row">{p.user?.full_name}</th>
                      {rateCells(p).map((cell, i) => <td key={i}>{cell}</td>)}
                      <td>{p.current_streak}</td>
                      <td>{p.longest_streak}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          ) : null}
          {(insights.questions ?? []).map((q) => (
            <div key={q.uuid} class="insights-question">
              <h2>{q.question}</h2>
              <p class="muted">{t('insights.question_summary', { answered: q.answered ?? 0, mean: number(q.mean) })}</p>
              {q.distribution ? (
                <table class="table">
                  <thead>
                    <tr>
                      <th scope="col">{t('insights.value')}</th>
                      <th scope="col">{t('insights.count')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {q.distribution.map((d) => (
                      <tr key={String(d.value)}>
                        <th scope="row">{typeof d.value === 'boolean' ? t(d.value ? 'insights.yes' : 'insights.no') : String(d.value)}</th>
                        <td>
                          <span class="bar" style={{ width: `${Math.round(((d.count ?? 0) / Math.max(1, ...q.distribution!.map((x) => x.count ?? 0))) * 8)}rem` }} aria-hidden="true" />
                          {d.count}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : null}
            </div>
          ))}
        </>
      ) : null}
    </section>
  );
}
