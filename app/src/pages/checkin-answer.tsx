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

function AnswerForm({ pending, onSaved }: { pending: Pending; onSaved: () => void }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = (q: Question) => `q-${pending.followup_uuid}-${q.uuid}`;

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const responses = pending.template_questions.map((q) => ({ uuid: q.uuid, index: q.index, response: value(q, values[q.uuid] ?? '') }));
    const body = { responses, response_date: pending.date };
    const params = { path: { uuid: pending.followup_uuid } };
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
      {pending.template_questions.map((q) => (
        <div class="field" key={q.uuid}>
          <label for={id(q)}>
            {q.question}
            {q.required ? <span aria-hidden="true"> *</span> : <span class="muted"> ({t('optional')})</span>}
          </label>
          <Input q={q} id={id(q)} value={values[q.uuid] ?? ''} onChange={(v) => setValues({ ...values, [q.uuid]: v })} />
        </div>
      ))}
      <button type="submit" class="primary" disabled={busy}>{t('pending.send')}</button>
      <ErrorNote message={error} />
    </form>
  );
}

/** The answer as the API takes it: a number for numeric questions, a boolean for yes/no, text otherwise. */
function value(q: Question, raw: string): unknown {
  if (raw === '') return null;
  if (q.question_type === 'numeric') return Number(raw);
  if (q.question_type === 'boolean') return raw === 'true';
  return raw;
}

function Input({ q, id, value: current, onChange }: { q: Question; id: string; value: string; onChange: (v: string) => void }) {
  const change = (e: Event) => onChange((e.target as HTMLInputElement).value);
  if (q.question_type === 'multiple_choice' || q.question_type === 'boolean') {
    const choices = q.question_type === 'boolean' ? [{ label: t('yes'), value: 'true' }, { label: t('no'), value: 'false' }] : q.choices;
    return (
      <select id={id} required={q.required} value={current} onChange={change}>
        <option value="">—</option>
        {choices.map((c) => <option key={c.value} value={c.value}>{c.label}</option>)}
      </select>
    );
  }
  if (q.question_type === 'numeric') return <input id={id} type="number" step="any" required={q.required} value={current} onInput={change} />;
  return <textarea id={id} rows={3} required={q.required} value={current} onInput={change} />;
}

