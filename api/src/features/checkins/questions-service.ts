import type { Executor } from '../../db/connection.ts';
import { forWrite } from '../../db/locks.ts';
import { ValidationFailed, badRequest, notFound } from '../../lib/errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import type { Actor } from '../../auth/credentials.ts';
import { assertCan } from '../../auth/policy.ts';
import { CHECKIN_QUESTIONS, getVisibleCheckin, questionsIn } from './repository.ts';
import type { QuestionStore } from './repository.ts';
import { conditionProblems, questionColumns } from './columns.ts';
import { kindOf } from './question-kinds.ts';
import { readJson, writeJson } from '../../lib/json.ts';
import type { AddQuestionInput, ReorderQuestionsInput, UpdateQuestionInput } from './schema.ts';
import type { QuestionFields, QuestionRow } from '../../db/tables.ts';

/*
 * The question list of a check-in or a form (`store`): add at a position, edit, delete (one question always
 * stays), reorder. These run in the caller's transaction, after the caller checked who may edit.
 */

const noun = (store: QuestionStore) => (store.parentTable === 'forms' ? 'form' : 'check-in');

async function question<T extends QuestionFields>(db: Executor, store: QuestionStore, parentUuid: string, uuid: string): Promise<T> {
  const row = await db(store.table).where({ [store.parent]: parentUuid, uuid }).first();
  if (!row) throw notFound();
  return row as unknown as T;
}

/**
 * Every edit of a question list first locks the check-in's (or form's) row: edits of one list run one at a time,
 * each numbering positions from the list as the previous edit left it, and they take their locks in one order
 * (the parent, then its questions) instead of meeting on the questions' rows (PostgreSQL answered 503 deadlocks).
 */
async function lockList(trx: Executor, store: QuestionStore, parentUuid: string): Promise<void> {
  await forWrite(trx, trx(store.parentTable).where({ uuid: parentUuid })).first('uuid');
}

async function renumber(db: Executor, store: QuestionStore, uuids: string[], stamp: string): Promise<void> {
  for (const [position, uuid] of uuids.entries()) {
    await db(store.table).where({ uuid }).update({ position, updated_at: stamp });
  }
}

/**
 * Conditions name the question they wait for by its index (CONTRACT's `logic.show_if.question_index`): when
 * questions move (one added before, a reorder, a deletion) each condition follows the question it named.
 */
async function followConditions(db: Executor, store: QuestionStore, parentUuid: string, before: string[], stamp: string): Promise<void> {
  const questions = await questionsIn(db, store, parentUuid);
  const after = new Map(questions.map((q) => [q.uuid, q.position]));
  for (const q of questions) {
    const { showIf } = kindOf(q);
    const target = showIf ? before[showIf.question_index] : undefined;
    const moved = target !== undefined ? after.get(target) : undefined;
    if (!showIf || moved === undefined || moved === showIf.question_index) continue;
    const extras = readJson<Record<string, unknown>>(q.extras, {});
    extras.logic = { ...(extras.logic as object), show_if: { ...showIf, question_index: moved } };
    await db(store.table).where({ uuid: q.uuid }).update({ extras: writeJson(extras), updated_at: stamp });
  }
}

/**
 * Every condition of the list as it now stands names an earlier question and a value it can take; otherwise 400,
 * each problem under `pathOf(question)` (the body's own fields for the question being edited).
 */
async function assertConditions(db: Executor, store: QuestionStore, parentUuid: string, pathOf: (q: QuestionFields) => string): Promise<void> {
  const questions = await questionsIn(db, store, parentUuid);
  const problems = conditionProblems(questions, (i) => pathOf(questions[i]));
  if (Object.keys(problems).length) throw new ValidationFailed(problems);
}

const ownOrListed = (uuid: string) => (q: QuestionFields) => (q.uuid === uuid ? '' : `questions.${q.position}.`);

export async function addQuestionIn<T extends QuestionFields>(trx: Executor, store: QuestionStore, parentUuid: string, input: AddQuestionInput, now: Date): Promise<T> {
  await lockList(trx, store, parentUuid);
  const { columns, problems } = questionColumns(input, '');
  if (Object.keys(problems).length) throw new ValidationFailed(problems);
  const existing = await questionsIn(trx, store, parentUuid);
  const at = Math.min(input.index ?? existing.length, existing.length);
  const uuid = uuidv7(now.getTime());
  const stamp = now.toISOString();
  await trx(store.table).insert({ uuid, [store.parent]: parentUuid, position: existing.length, ...columns, created_at: stamp, updated_at: stamp } as never);
  const order = existing.map((q) => q.uuid);
  order.splice(at, 0, uuid);
  await renumber(trx, store, order, stamp);
  await followConditions(trx, store, parentUuid, existing.map((q) => q.uuid), stamp);
  await assertConditions(trx, store, parentUuid, ownOrListed(uuid));
  await trx(store.parentTable).where({ uuid: parentUuid }).update({ updated_at: stamp });
  return question<T>(trx, store, parentUuid, uuid);
}

export async function updateQuestionIn<T extends QuestionFields>(trx: Executor, store: QuestionStore, parentUuid: string, uuid: string, input: UpdateQuestionInput, now: Date): Promise<T> {
  await lockList(trx, store, parentUuid);
  const current = await question<T>(trx, store, parentUuid, uuid);
  const { columns, problems } = questionColumns(input, '', current);
  if (Object.keys(problems).length) throw new ValidationFailed(problems);
  await trx(store.table).where({ uuid }).update({ ...columns, updated_at: now.toISOString() });
  await assertConditions(trx, store, parentUuid, ownOrListed(uuid));
  return question<T>(trx, store, parentUuid, uuid);
}

export async function deleteQuestionIn(trx: Executor, store: QuestionStore, parentUuid: string, uuid: string, now: Date): Promise<void> {
  await lockList(trx, store, parentUuid);
  await question(trx, store, parentUuid, uuid);
  const remaining = (await questionsIn(trx, store, parentUuid)).filter((q) => q.uuid !== uuid);
  if (remaining.length === 0) throw badRequest('last_question', `A ${noun(store)} keeps at least one question.`);
  const all = await questionsIn(trx, store, parentUuid);
  const gone = all.find((q) => q.uuid === uuid)!;
  const waiting = remaining.filter((q) => kindOf(q).showIf?.question_index === gone.position);
  if (waiting.length) {
    throw badRequest('question_in_condition', `${waiting.length > 1 ? 'Questions' : 'Question'} ${waiting.map((q) => q.position).join(', ')} ${waiting.length > 1 ? 'are' : 'is'} shown only after an answer to this one: change ${waiting.length > 1 ? 'their' : 'its'} logic first.`, { questions: waiting.map((q) => q.uuid) });
  }
  await trx(store.table).where({ uuid }).delete();
  await renumber(trx, store, remaining.map((q) => q.uuid), now.toISOString());
  await followConditions(trx, store, parentUuid, all.map((q) => q.uuid), now.toISOString());
}

/** `question_uuids` (or `order`) must name every question exactly once. */
export async function reorderQuestionsIn<T extends QuestionFields>(trx: Executor, store: QuestionStore, parentUuid: string, input: ReorderQuestionsInput, now: Date): Promise<T[]> {
  await lockList(trx, store, parentUuid);
  const field = input.question_uuids ? 'question_uuids' : 'order';
  const order = input.question_uuids ?? input.order;
  if (!order) throw new ValidationFailed({ question_uuids: ['This field is required.'] });
  const existing = await questionsIn(trx, store, parentUuid);
  const known = new Set(existing.map((q) => q.uuid));
  if (order.length !== existing.length || new Set(order).size !== order.length || !order.every((uuid) => known.has(uuid))) {
    throw new ValidationFailed({ [field]: [`Name every question of the ${noun(store)} exactly once.`] });
  }
  await renumber(trx, store, order, now.toISOString());
  await followConditions(trx, store, parentUuid, existing.map((q) => q.uuid), now.toISOString());
  await assertConditions(trx, store, parentUuid, () => '').catch((err: unknown) => {
    throw err instanceof ValidationFailed ? new ValidationFailed({ [field]: ['A question would come before the question its logic.show_if waits for.'] }) : err;
  });
  return questionsIn<T>(trx, store, parentUuid);
}

/** Question edits are check-in set-up: admins and managers, on a check-in they can see (404 first). */
async function manageable(db: Executor, actor: Actor, checkinUuid: string): Promise<void> {
  await getVisibleCheckin(db, actor, checkinUuid);
  assertCan(actor, 'checkins.manage');
}

export function addQuestion(db: Executor, actor: Actor, checkinUuid: string, input: AddQuestionInput, now: Date): Promise<QuestionRow> {
  return db.transaction(async (trx) => {
    await manageable(trx, actor, checkinUuid);
    return addQuestionIn<QuestionRow>(trx, CHECKIN_QUESTIONS, checkinUuid, input, now);
  });
}

export function updateQuestion(db: Executor, actor: Actor, checkinUuid: string, uuid: string, input: UpdateQuestionInput, now: Date): Promise<QuestionRow> {
  return db.transaction(async (trx) => {
    await manageable(trx, actor, checkinUuid);
    return updateQuestionIn<QuestionRow>(trx, CHECKIN_QUESTIONS, checkinUuid, uuid, input, now);
  });
}

export function deleteQuestion(db: Executor, actor: Actor, checkinUuid: string, uuid: string, now: Date): Promise<void> {
  return db.transaction(async (trx) => {
    await manageable(trx, actor, checkinUuid);
    await deleteQuestionIn(trx, CHECKIN_QUESTIONS, checkinUuid, uuid, now);
  });
}

export function reorderQuestions(db: Executor, actor: Actor, checkinUuid: string, input: ReorderQuestionsInput, now: Date): Promise<QuestionRow[]> {
  return db.transaction(async (trx) => {
    await manageable(trx, actor, checkinUuid);
    return reorderQuestionsIn<QuestionRow>(trx, CHECKIN_QUESTIONS, checkinUuid, input, now);
  });
}
