/**
 * A check-in's questions as an editable list: each one's text, type (CONTRACT §7: text, multiple_choice, boolean,
 * numeric), options for a multiple-choice one, required, and whether an answer reports a blocker; moved up or down,
 * removed, added. Saved with the rest of the settings (PATCH …/config/ `questions`, where a uuid keeps a question's
 * identity and so its answers).
 */
import type { Schemas } from '../api.ts';
import { t } from '../i18n.ts';

export const QUESTION_TYPES = ['text', 'multiple_choice', 'boolean', 'numeric'] as const;
type QuestionType = (typeof QUESTION_TYPES)[number];

export interface DraftQuestion {
  /** Absent on a question added here, until saved. */
  uuid?: string;
  /** Keeps a row's inputs its own while rows move. */
  key: string;
  question: string;
  question_type: QuestionType;
  required: boolean;
  is_blocker: boolean;
  /** One option a line, for a multiple-choice question. */
  options: string;
}

let added = 0;

export const draftOf = (q: Schemas['CheckinQuestion']): DraftQuestion => ({
  uuid: q.uuid,
  key: q.uuid,
  question: q.question,
  question_type: q.question_type,
  required: q.required,
  is_blocker: q.is_blocker,
  options: q.choices.map((c) => c.label).join('\n'),
});

/** The PATCH body's question: options only for a multiple-choice one (the API refuses them elsewhere). */
export const questionBody = (q: DraftQuestion) => ({
  ...(q.uuid ? { uuid: q.uuid } : {}),
  question: q.question,
  question_type: q.question_type,
  required: q.required,
  is_blocker: q.is_blocker,
  ...(q.question_type === 'multiple_choice' ? { options: q.options.split('\n').map((o) => o.trim()).filter(Boolean) } : {}),
});

export function QuestionList({ questions, onChange }: { questions: DraftQuestion[]; onChange: (next: DraftQuestion[]) => void }) {
  const set = (i: number, patch: Partial<DraftQuestion>) => onChange(questions.map((q, j) => (j === i ? { ...q, ...patch } : q)));
  const move = (i: number, by: number) => {
    const next = [...questions];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    onChange(next);
  };
  const add = () =>
    onChange([...questions, { key: `new-${++added}`, question: '', question_type: 'text', required: true, is_blocker: false, options: '' }]);
  return (
    <div class="questions">
      <h2>{t('checkins.questions')}</h2>
      <ol class="plain">
        {questions.map((q, i) => {
          const id = `q-${q.key}`;
          const n = i + 1;
          return (
            <li key={q.key}>
              <fieldset>
                <legend>{t('checkins.questionn', { n })}</legend>
                <label for={`${id}-text`}>{t('checkins.questiontext')}</label>
                <input id={`${id}-text`} required maxLength={2000} value={q.question} onInput={(e) => set(i, { question: (e.target as HTMLInputElement).value })} />
                <label for={`${id}-type`}>{t('checkins.questiontype')}</label>
                <select id={`${id}-type`} value={q.question_type} onChange={(e) => set(i, { question_type: (e.target as HTMLSelectElement).value as QuestionType })}>
                  {QUESTION_TYPES.map((type) => <option key={type} value={type}>{t(`checkins.type.${type}`)}</option>)}
                </select>
                {q.question_type === 'multiple_choice' ? (
                  <>
                    <label for={`${id}-options`}>{t('checkins.options')}</label>
                    <textarea id={`${id}-options`} rows={3} value={q.options} onInput={(e) => set(i, { options: (e.target as HTMLTextAreaElement).value })} />
                  </>
                ) : null}
                <label class="check">
                  <input type="checkbox" checked={q.required} onChange={(e) => set(i, { required: (e.target as HTMLInputElement).checked })} />
                  {t('checkins.required')}
                </label>
                <label class="check">
                  <input type="checkbox" checked={q.is_blocker} onChange={(e) => set(i, { is_blocker: (e.target as HTMLInputElement).checked })} />
                  {t('checkins.blocker')}
                </label>
                <div class="row-actions">
                  <button type="button" disabled={i === 0} onClick={() => move(i, -1)} aria-label={t('checkins.moveup', { n })}>↑</button>
                  <button type="button" disabled={i === questions.length - 1} onClick={() => move(i, 1)} aria-label={t('checkins.movedown', { n })}>↓</button>
                  <button type="button" disabled={questions.length === 1} onClick={() => onChange(questions.filter((_, j) => j !== i))}>
                    {t('checkins.removequestion', { n })}
                  </button>
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <button type="button" onClick={add}>{t('checkins.addquestion')}</button>
    </div>
  );
}
