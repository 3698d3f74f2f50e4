import { createHash } from 'node:crypto';
import type { Executor } from '../../db/connection.ts';
import { readJson, writeJson } from '../../lib/json.ts';
import type { QuestionFields, ResponsePartRow, ResponseRow } from '../../db/tables.ts';

/**
 * A response's answers are its `answers` snapshot plus the parts appended since (`checkin_response_parts`).
 * A merge into a day's response (a co-authored agent report, a stand-up update from the terminal) appends one
 * part per question it writes, so its cost does not grow with the day's answer; every reader folds the parts
 * in and sees the answers exactly as if each merge had rewritten the snapshot. A full write of the response
 * (POST, PUT, a merge after the questions changed) stores the folded answers and deletes the parts.
 */

export type AnswerValue = string | number | boolean | string[];
export interface Answer {
  uuid: string;
  index: number;
  question: string;
  response: AnswerValue;
}

/**
 * What a snapshot's answers and flags depend on: each question's uuid, position, text, type and flags. A merge
 * appends parts only while the check-in's questions have the basis the snapshot was written with; otherwise it
 * rewrites the snapshot, which renders every answer with the current questions.
 */
export function partsBasis(questions: QuestionFields[]): string {
  const hash = createHash('sha256');
  for (const q of questions) hash.update(JSON.stringify([q.uuid, q.position, q.question, q.question_type, Number(q.required), Number(q.is_blocker)]));
  return hash.digest('base64url');
}

/** Appended text: the answer kept without its trailing space, then the new lines (CONTRACT §6 merge). */
export function appendedText(before: AnswerValue | undefined, lines: string[]): string {
  const kept = typeof before === 'string' ? before.trimEnd() : '';
  return kept !== '' ? [kept, ...lines].join('\n') : lines.join('\n');
}

/**
 * The answers with `parts` (of one response, any order) folded in: each part's lines are appended to its
 * question's answer, a question answered only by parts gets its answer in question order. Joined once per
 * question, not once per part: a day can hold hundreds of parts.
 */
export function foldAnswers(base: Answer[], parts: ResponsePartRow[]): Answer[] {
  if (parts.length === 0) return base;
  const ordered = [...parts].sort((a, b) => Number(a.id) - Number(b.id));
  const added = new Map<string, { first: ResponsePartRow; lines: string[] }>();
  for (const part of ordered) {
    const entry = added.get(part.question_uuid);
    if (entry) entry.lines.push(part.lines);
    else added.set(part.question_uuid, { first: part, lines: [part.lines] });
  }
  const answers = base.map((answer) => {
    const entry = added.get(answer.uuid);
    if (!entry) return answer;
    added.delete(answer.uuid);
    return { uuid: answer.uuid, index: answer.index, question: answer.question, response: appendedText(answer.response, entry.lines) };
  });
  if (added.size === 0) return answers;
  for (const [uuid, { first, lines }] of added) {
    answers.push({ uuid, index: first.question_index, question: first.question, response: lines.join('\n') });
  }
  // The snapshot is in question order (position, then uuid), which the parts' recorded positions share.
  return answers.sort((a, b) => a.index - b.index || (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0));
}

/** The parts of these responses, by response uuid. */
export async function partsOf(db: Executor, responseUuids: string[]): Promise<Map<string, ResponsePartRow[]>> {
  const byResponse = new Map<string, ResponsePartRow[]>();
  for (let i = 0; i < responseUuids.length; i += 500) {
    const rows: ResponsePartRow[] = await db('checkin_response_parts').whereIn('response_uuid', responseUuids.slice(i, i + 500));
    for (const row of rows) {
      const list = byResponse.get(row.response_uuid);
      if (list) list.push(row);
      else byResponse.set(row.response_uuid, [row]);
    }
  }
  return byResponse;
}

/** A response's answers, its parts folded in. */
export async function answersOf(db: Executor, row: Pick<ResponseRow, 'uuid' | 'answers'>): Promise<Answer[]> {
  const parts = (await partsOf(db, [row.uuid])).get(row.uuid) ?? [];
  return foldAnswers(readJson<Answer[]>(row.answers, []), parts);
}

/** The rows with their parts folded into `answers`, so presenters read one snapshot as before. */
export async function withParts<T extends Pick<ResponseRow, 'uuid' | 'answers'>>(db: Executor, rows: T[]): Promise<T[]> {
  if (rows.length === 0) return rows;
  const parts = await partsOf(db, rows.map((r) => r.uuid));
  if (parts.size === 0) return rows;
  return rows.map((row) => {
    const own = parts.get(row.uuid);
    return own ? { ...row, answers: writeJson(foldAnswers(readJson<Answer[]>(row.answers, []), own)) } : row;
  });
}

/** Appends `lines` to the response's answer to `question` (a text question of the snapshot's basis). */
export async function appendPart(db: Executor, responseUuid: string, question: QuestionFields, lines: string[], now: Date): Promise<void> {
  await db('checkin_response_parts').insert({
    response_uuid: responseUuid,
    question_uuid: question.uuid,
    question_index: question.position,
    question: question.question,
    lines: lines.join('\n'),
    created_at: now.toISOString(),
  });
}

/** Whether the response has a part for `questionUuid` (one index probe). */
export async function hasPart(db: Executor, responseUuid: string, questionUuid: string): Promise<boolean> {
  return (await db('checkin_response_parts').where({ response_uuid: responseUuid, question_uuid: questionUuid }).first('id')) !== undefined;
}

/** Drops the parts once a full write has folded them into the snapshot. */
export async function dropParts(db: Executor, responseUuid: string): Promise<void> {
  await db('checkin_response_parts').where({ response_uuid: responseUuid }).delete();
}
