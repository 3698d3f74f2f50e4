import type { Config } from '../../lib/config.ts';
import type { Db, Executor } from '../../db/connection.ts';
import { ValidationFailed } from '../../lib/errors.ts';
import { bool, readJson } from '../../lib/json.ts';
import { questionsOf } from '../checkins/repository.ts';
import { answersOf } from '../checkins/response-parts.ts';
import type { Answer } from '../checkins/response-parts.ts';
import { answerForDay } from '../checkins/responses-service.ts';
import { IncompleteAnswer } from '../checkins/answer-rules.ts';
import type { ParticipantUser } from '../checkins/repository.ts';
import { reportedWith } from './edit-window.ts';
import { grantOf } from './tokens.ts';
import { markPromptAnswered } from './chat-cards.ts';
import { carryOverOf } from './carry-over.ts';
import type { CarryOver } from './carry-over.ts';
import { resolveOwnBlockers } from '../checkins/blockers.ts';
import type { AnswerTokenRow, CheckinRow, QuestionRow } from '../../db/tables.ts';

/**
 * The web answer page's service: what an answer link shows and what it saves. A link that is malformed,
 * unknown or expired, or whose check-in or person is gone, is one answer, `invalid`: the page says so without
 * telling which, and shows nobody's data.
 */

export interface AnswerView {
  checkin: CheckinRow;
  /** With their chosen language (PATCH /v1/me/), which the page speaks unless `?lang=` says otherwise. */
  person: ParticipantUser & { language: string | null };
  questions: QuestionRow[];
  date: string;
  /** The person's answers of that day so far (parts folded in), by question uuid. */
  answers: Map<string, Answer['response']>;
  /** Every required question answered (response_completed): an agent's co-authored lines alone are not an answer yet. */
  answered: boolean;
  /** False once the day's report went out with an answer in it: the answer can no longer change here. */
  editable: boolean;
  /** The person's answers of the last day they answered before, and their blockers still open (carry-over.ts). */
  carry: CarryOver;
}

export type AnswerLookup = { state: 'invalid' } | { state: 'ok'; view: AnswerView };

/** What answering one check-in for one person on one day shows: the link's grant, or a chat prompt's. */
export async function viewOf(db: Executor, grant: Pick<AnswerTokenRow, 'checkin_uuid' | 'user_uuid' | 'run_date'>): Promise<AnswerLookup> {
  const checkin: CheckinRow | undefined = await db('checkins').where({ uuid: grant.checkin_uuid }).first();
  const person = await db('users').where({ uuid: grant.user_uuid }).first('uuid', 'first_name', 'last_name', 'email', 'language', 'is_active', 'organization_uuid');
  if (!checkin || !person || !bool(person.is_active) || person.organization_uuid !== checkin.organization_uuid || bool(checkin.is_archived)) return { state: 'invalid' };
  const questions = await questionsOf(db, checkin.uuid);
  const response = await db('checkin_responses').where({ checkin_uuid: checkin.uuid, user_uuid: person.uuid, response_date: grant.run_date }).first();
  const answers = new Map(response ? (await answersOf(db, response)).map((a) => [a.uuid, a.response]) : []);
  const reported = response ? await reportedWith(db, checkin.uuid, grant.run_date, person.uuid) : false;
  const { is_active: _active, organization_uuid: _org, ...who } = person;
  const carry = await carryOverOf(db, checkin.uuid, person.uuid, grant.run_date);
  return { state: 'ok', view: { checkin, person: who, questions, date: grant.run_date, answers, answered: bool(response?.response_completed), editable: !reported, carry } };
}

/** What the link at `token` shows. */
export async function openAnswer(db: Db, token: string, now: Date): Promise<AnswerLookup> {
  const grant = await grantOf(db, token, now);
  return grant ? viewOf(db, grant) : { state: 'invalid' };
}

/** A form's values: one per question (`q.<uuid>`), several for a multiple-choice question; `resolved`: blockers resolved. */
export type FormValues = Map<string, string[]>;

/** The form field of the open blockers the person marks resolved (their uuids). */
export const RESOLVED = 'resolved';

/** The form's values as answers of each question's type; a question left empty is not answered. */
export function formAnswers(questions: QuestionRow[], form: FormValues): { uuid: string; response: unknown }[] {
  const problems: Record<string, string[]> = {};
  const out: { uuid: string; response: unknown }[] = [];
  questions.forEach((q, i) => {
    const values = (form.get(`q.${q.uuid}`) ?? []).map((v) => v.replace(/\r\n/g, '\n'));
    const first = values[0]?.trim() ?? '';
    if (q.question_type === 'multiple_choice') {
      const allowed = readJson<{ value: string }[]>(q.choices, []).map((c) => c.value);
      const chosen = values.filter((v) => allowed.includes(v));
      if (chosen.length) out.push({ uuid: q.uuid, response: chosen });
    } else if (first === '') {
      return;
    } else if (q.question_type === 'boolean') {
      out.push({ uuid: q.uuid, response: first === 'yes' });
    } else if (q.question_type === 'numeric') {
      const n = Number(first.replace(',', '.'));
      if (Number.isFinite(n)) out.push({ uuid: q.uuid, response: n });
      else problems[`responses.${i}.response`] = ['A numeric answer is a number.'];
    } else {
      out.push({ uuid: q.uuid, response: values[0] });
    }
  });
  if (Object.keys(problems).length) throw new ValidationFailed(problems);
  return out;
}

export type SaveOutcome =
  | { state: 'invalid' }
  | { state: 'closed'; view: AnswerView }
  | { state: 'saved'; view: AnswerView }
  /** `problems` as the API words them; `unanswered`: the required questions left empty, which the page names itself. */
  | { state: 'refused'; view: AnswerView; problems: Record<string, string[]>; unanswered: string[] };

/**
 * Saves the form as the person's answers of the link's day, through the same service as POST/PUT …/responses/
 * (their prompt's chat message, if one was sent, becomes "Answered ✓"). A link whose day was reported with an
 * answer in it no longer edits (`closed`); an answer the rules refuse (a required question left empty or blank
 * among them) comes back with its problems (`refused`), nothing saved, the person's input kept by the page.
 */
export async function saveAnswer(db: Db, config: Config, token: string, form: FormValues, now: Date): Promise<SaveOutcome> {
  return db.transaction(async (trx) => {
    const grant = await grantOf(trx, token, now);
    if (!grant) return { state: 'invalid' } as const;
    const found = await viewOf(trx, grant);
    if (found.state !== 'ok') return found;
    const { view } = found;
    if (!view.editable) return { state: 'closed', view } as const;
    try {
      const responses = formAnswers(view.questions, form);
      const { row } = await answerForDay(trx, { checkin: view.checkin, questions: view.questions, author: view.person, date: view.date, responses }, now);
      await resolveOwnBlockers(trx, view.checkin, view.person, form.get(RESOLVED) ?? [], now);
      await markPromptAnswered(trx, config, { checkin: view.checkin, person: view.person, date: view.date }, now);
      // The saved answers are the whole response now (a full write folds and drops any parts).
      const answers = new Map(readJson<Answer[]>(row.answers, []).map((a) => [a.uuid, a.response]));
      return { state: 'saved', view: { ...view, answers, answered: true, carry: await carryOverOf(trx, view.checkin.uuid, view.person.uuid, view.date) } } as const;
    } catch (err) {
      if (err instanceof IncompleteAnswer) return { state: 'refused', view, problems: {}, unanswered: err.questions.map((q) => q.uuid) } as const;
      if (err instanceof ValidationFailed) return { state: 'refused', view, problems: err.fields, unanswered: [] } as const;
      throw err;
    }
  });
}
