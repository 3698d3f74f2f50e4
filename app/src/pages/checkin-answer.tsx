import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, ok } from '../api.ts';
import type { Schemas } from '../api.ts';
import { formatDate, t } from '../i18n.ts';
import { signal } from '@preact/signals';
import { ErrorNote, Loading } from '../ui.tsx';

type Question = Schemas['CheckinQuestion'];
type Pending = Schemas['CliPendingCheckins']['pending_checkins'][number];

/** Bumped when an answer is saved, so the stand-ups below read again. */
export const answered = signal(0);

/** The check-ins waiting for me today (GET /v1/cli/status/), each answered in place. */
export function PendingCheckins() {
  const [pending, setPending] = useState<Pending[] | null>(null);
  const [done, setDone] = useState<string[]>([]);
  useEffect(() => {
    ok(api.GET('/v1/cli/status/')).then((b) => setPending(b.pending_checkins), () => setPending([]));
  }, []);
  return (
    <section aria-labelledby="pending-title" class="card">
      <h2 id="pending-title">{t('pending.title')}</h2>
      {pending === null ? <Loading /> : null}
      {done.map((name) => <p key={name} class="ok" role="status">{t('pending.saved', { name })}</p>)}
      {pending && pending.length === 0 && done.length === 0 ? <p class="muted">{t('pending.none')}</p> : null}
      {pending?.map((p) => (
        <AnswerForm
          key={`${p.followup_uuid}:${p.date}`}
          pending={p}
          onSaved={() => {
            setDone([...done, p.followup_name]);
            setPending(pending.filter((x) => x !== p));
            answered.value++;
          }}
        />
      ))}
    </section>
  );
}

type Blocker = Schemas['CheckinBlocker'];
type Answers = Record<string, string | string[]>;

/** Whether a question is asked, given the answers so far: its `logic.show_if` names an earlier question and a value. */
function shown(q: Question, questions: Question[], values: Answers): boolean {
  const showIf = (q.logic as { show_if?: { question_index?: number; equals?: unknown } } | null)?.show_if;
  const target = showIf ? questions.find((x) => x.index === showIf.question_index) : undefined;
  if (!showIf || !target || target.index >= q.index) return true;
  if (!shown(target, questions, values)) return false;
  const given = value(target, values[target.uuid] ?? '');
  return Array.isArray(given) ? given.includes(String(showIf.equals)) : given === showIf.equals;
}

/** An answer in words: choices by label, yes and no, a scale's number out of its top. */
function words(q: Question, answer: unknown): string {
  if (Array.isArray(answer)) return answer.map((v) => q.choices.find((c) => c.value === v)?.label ?? String(v)).join(', ');
  if (typeof answer === 'boolean') return answer ? t('yes') : t('no');
  if (typeof answer === 'number' && q.presentation && q.max !== null) return `${answer}/${q.max}`;
  return String(answer);
}

function AnswerForm({ pending, onSaved }: { pending: Pending; onSaved: () => void }) {
  const [values, setValues] = useState<Answers>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [last, setLast] = useState<{ date: string; answers: Map<string, unknown> } | null>(null);
  const [blockers, setBlockers] = useState<Blocker[]>([]);
  const id = (q: Question) => `q-${pending.followup_uuid}-${q.uuid}`;
  const params = { path: { uuid: pending.followup_uuid } };

  useEffect(() => {
    // What I said last time, and what still blocks me (both read through the public API).
    ok(api.GET('/v1/me/')).then(async (me) => {
      const before = await ok(api.GET('/v1/checkins/{uuid}/responses/', { params: { ...params, query: { user: me.uuid, date_end: previousDay(pending.date), page_size: 1 } } }));
      const row = before.results[0];
      if (row) setLast({ date: row.response_date, answers: new Map(row.responses.map((r) => [r.uuid, r.response])) });
      const open = await ok(api.GET('/v1/checkins/{uuid}/blockers/', { params: { ...params, query: { state: 'open', user: me.uuid } } }));
      setBlockers(open.results.filter((b) => b.opened_on < pending.date));
    }).catch(() => undefined);
  }, [pending.followup_uuid, pending.date]);

  async function resolve(b: Blocker) {
    try {
      await ok(api.POST('/v1/checkins/{uuid}/blockers/{blocker}/resolve/', { params: { path: { uuid: pending.followup_uuid, blocker: b.uuid } } }));
      setBlockers(blockers.filter((x) => x.uuid !== b.uuid));
    } catch (err) {
      setError((err as Error).message);
    }
  }

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const asked = pending.template_questions.filter((q) => shown(q, pending.template_questions, values));
    const responses = asked.map((q) => ({ uuid: q.uuid, index: q.index, response: value(q, values[q.uuid] ?? '') }));
    const body = { responses, response_date: pending.date };
    try {
      try {
        await ok(api.POST('/v1/checkins/{uuid}/responses/', { params, body }));
      } catch (err) {
        // Answered meanwhile (another tab, chat, the e-mailed link): this answer replaces it.
        if (err instanceof ApiError && err.code === 'response_already_exists') await ok(api.PUT('/v1/checkins/{uuid}/responses/', { params, body }));
        else throw err;
      }
      onSaved();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="answer" onSubmit={submit} aria-label={pending.followup_name}>
      <h3>{pending.followup_name} <span class="muted">· {formatDate(pending.date)}</span></h3>
      {blockers.length ? (
        <ul class="blockers" aria-label={t('blockers.still')}>
          {blockers.map((b) => (
            <li key={b.uuid}>
              {t('blockers.stillBy', { text: b.text, date: formatDate(b.opened_on) })}{' '}
              <button type="button" onClick={() => resolve(b)}>{t('blockers.resolve')}</button>
            </li>
          ))}
        </ul>
      ) : null}
      {pending.template_questions.filter((q) => shown(q, pending.template_questions, values)).map((q) => {
        const said = last?.answers.get(q.uuid);
        return (
          <div class="field" key={q.uuid}>
            <label for={id(q)}>
              {q.question}
              {q.required ? <span aria-hidden="true"> *</span> : <span class="muted"> ({t('optional')})</span>}
            </label>
            <Input q={q} id={id(q)} value={values[q.uuid] ?? ''} onChange={(v) => setValues({ ...values, [q.uuid]: v })} />
            {said !== undefined && last ? <p class="muted">{t('pending.last', { date: formatDate(last.date), answer: words(q, said) })}</p> : null}
          </div>
        );
      })}
      <button type="submit" class="primary" disabled={busy}>{t('pending.send')}</button>
      <ErrorNote message={error} />
    </form>
  );
}

const previousDay = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/** The answer as the API takes it: a number for numeric questions, a boolean for yes/no, the picks of a multiple choice, text otherwise. */
function value(q: Question, raw: string | string[]): unknown {
  if (Array.isArray(raw)) return raw.length ? raw : null;
  if (raw === '') return null;
  if (q.question_type === 'numeric') return Number(raw);
  if (q.question_type === 'boolean') return raw === 'true';
  return raw;
}

function Input({ q, id, value: current, onChange }: { q: Question; id: string; value: string | string[]; onChange: (v: string | string[]) => void }) {
  const change = (e: Event) => onChange((e.target as HTMLInputElement).value);
  if (q.question_type === 'multiple_choice' && q.multiple) {
    const picked = Array.isArray(current) ? current : [];
    return (
      <fieldset id={id} class="choices">
        {q.choices.map((c) => (
          <label key={c.value}>
            <input type="checkbox" checked={picked.includes(c.value)} onChange={(e) => onChange((e.target as HTMLInputElement).checked ? [...picked, c.value] : picked.filter((v) => v !== c.value))} /> {c.label}
          </label>
        ))}
      </fieldset>
    );
  }
  const steps = q.question_type === 'numeric' && q.presentation && q.min !== null && q.max !== null
    ? Array.from({ length: q.max - q.min + 1 }, (_, i) => q.min! + i)
    : [];
  if (q.question_type === 'multiple_choice' || q.question_type === 'boolean' || steps.length) {
    const faces = ['😞', '🙁', '😐', '🙂', '😄'];
    const choices = q.question_type === 'boolean' ? [{ label: t('yes'), value: 'true' }, { label: t('no'), value: 'false' }]
      : steps.length ? steps.map((n) => ({ label: q.presentation === 'mood' ? `${faces[n - 1]} ${n}` : `${n}${n === q.min && q.min_label ? ` · ${q.min_label}` : ''}${n === q.max && q.max_label ? ` · ${q.max_label}` : ''}`, value: String(n) }))
        : q.choices;
    return (
      <select id={id} required={q.required} value={String(current)} onChange={change}>
        <option value="">—</option>
        {choices.map((c) => <option key={c.value} value={c.value}>{c.label}</option>)}
      </select>
    );
  }
  if (q.question_type === 'numeric') return <input id={id} type="number" step="any" min={q.min ?? undefined} max={q.max ?? undefined} required={q.required} value={String(current)} onInput={change} />;
  return <textarea id={id} rows={3} required={q.required} value={String(current)} onInput={change} />;
}
