import type { Executor } from '../../db/connection.ts';
import { forWrite } from '../../db/locks.ts';
import { ValidationFailed, badRequest, notFound } from '../../lib/errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import type { Actor } from '../../auth/credentials.ts';
import { assertCan } from '../../auth/policy.ts';
import { CHECKIN_QUESTIONS, getVisibleCheckin, questionsIn } from './repository.ts';
import type { QuestionStore } from './repository.ts';
import { questionColumns } from './columns.ts';
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
  await trx(store.parentTable).where({ uuid: parentUuid }).update({ updated_at: stamp });
  return question<T>(trx, store, parentUuid, uuid);
}

export async function updateQuestionIn<T extends QuestionFields>(trx: Executor, store: QuestionStore, parentUuid: string, uuid: string, input: UpdateQuestionInput, now: Date): Promise<T> {
  await lockList(trx, store, parentUuid);
  const current = await question<T>(trx, store, parentUuid, uuid);
  const { columns, problems } = questionColumns(input, '', current);
  if (Object.keys(problems).length) throw new ValidationFailed(problems);
  await trx(store.table).where({ uuid }).update({ ...columns, updated_at: now.toISOString() });
  return question<T>(trx, store, parentUuid, uuid);
}

export async function deleteQuestionIn(trx: Executor, store: QuestionStore, parentUuid: string, uuid: string, now: Date): Promise<void> {
  await lockList(trx, store, parentUuid);
  await question(trx, store, parentUuid, uuid);
  const remaining = (await questionsIn(trx, store, parentUuid)).filter((q) => q.uuid !== uuid);
  if (remaining.length === 0) throw badRequest('last_question', `A ${noun(store)} keeps at least one question.`);
  await trx(store.table).where({ uuid }).delete();
  await renumber(trx, store, remaining.map((q) => q.uuid), now.toISOString());
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
