import type { Executor } from '../../db/connection.ts';
import { ValidationFailed, badRequest, notFound } from '../../lib/errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import type { Actor } from '../../auth/credentials.ts';
import { assertCan } from '../../auth/policy.ts';
import { getVisibleCheckin, questionsOf } from './repository.ts';
import { questionColumns } from './columns.ts';
import type { AddQuestionInput, ReorderQuestionsInput, UpdateQuestionInput } from './schema.ts';
import type { QuestionRow } from '../../db/tables.ts';

/** Question edits are check-in set-up: admins and managers, on a check-in they can see (404 first). */
async function manageable(db: Executor, actor: Actor, checkinUuid: string): Promise<void> {
  await getVisibleCheckin(db, actor, checkinUuid);
  assertCan(actor, 'checkins.manage');
}

async function question(db: Executor, checkinUuid: string, uuid: string): Promise<QuestionRow> {
  const row = await db('checkin_questions').where({ checkin_uuid: checkinUuid, uuid }).first();
  if (!row) throw notFound();
  return row;
}

async function renumber(db: Executor, uuids: string[], stamp: string): Promise<void> {
  for (const [position, uuid] of uuids.entries()) {
    await db('checkin_questions').where({ uuid }).update({ position, updated_at: stamp });
  }
}

export async function addQuestion(db: Executor, actor: Actor, checkinUuid: string, input: AddQuestionInput, now: Date): Promise<QuestionRow> {
  return db.transaction(async (trx) => {
    await manageable(trx, actor, checkinUuid);
    const { columns, problems } = questionColumns(input, '');
    if (Object.keys(problems).length) throw new ValidationFailed(problems);
    const existing = await questionsOf(trx, checkinUuid);
    const at = Math.min(input.index ?? existing.length, existing.length);
    const uuid = uuidv7(now.getTime());
    const stamp = now.toISOString();
    await trx('checkin_questions').insert({ uuid, checkin_uuid: checkinUuid, position: existing.length, ...columns, created_at: stamp, updated_at: stamp });
    const order = existing.map((q) => q.uuid);
    order.splice(at, 0, uuid);
    await renumber(trx, order, stamp);
    await trx('checkins').where({ uuid: checkinUuid }).update({ updated_at: stamp });
    return question(trx, checkinUuid, uuid);
  });
}

export async function updateQuestion(db: Executor, actor: Actor, checkinUuid: string, uuid: string, input: UpdateQuestionInput, now: Date): Promise<QuestionRow> {
  return db.transaction(async (trx) => {
    await manageable(trx, actor, checkinUuid);
    const current = await question(trx, checkinUuid, uuid);
    const { columns, problems } = questionColumns(input, '', current);
    if (Object.keys(problems).length) throw new ValidationFailed(problems);
    await trx('checkin_questions').where({ uuid }).update({ ...columns, updated_at: now.toISOString() });
    return question(trx, checkinUuid, uuid);
  });
}

export async function deleteQuestion(db: Executor, actor: Actor, checkinUuid: string, uuid: string, now: Date): Promise<void> {
  return db.transaction(async (trx) => {
    await manageable(trx, actor, checkinUuid);
    await question(trx, checkinUuid, uuid);
    const remaining = (await questionsOf(trx, checkinUuid)).filter((q) => q.uuid !== uuid);
    if (remaining.length === 0) throw badRequest('last_question', 'A check-in keeps at least one question.');
    await trx('checkin_questions').where({ uuid }).delete();
    await renumber(trx, remaining.map((q) => q.uuid), now.toISOString());
  });
}

/** `question_uuids` (or `order`) must name every question of the check-in exactly once. */
export async function reorderQuestions(db: Executor, actor: Actor, checkinUuid: string, input: ReorderQuestionsInput, now: Date): Promise<QuestionRow[]> {
  return db.transaction(async (trx) => {
    await manageable(trx, actor, checkinUuid);
    const field = input.question_uuids ? 'question_uuids' : 'order';
    const order = input.question_uuids ?? input.order;
    if (!order) throw new ValidationFailed({ question_uuids: ['This field is required.'] });
    const existing = await questionsOf(trx, checkinUuid);
    const known = new Set(existing.map((q) => q.uuid));
    if (order.length !== existing.length || new Set(order).size !== order.length || !order.every((uuid) => known.has(uuid))) {
      throw new ValidationFailed({ [field]: ['Name every question of the check-in exactly once.'] });
    }
    await renumber(trx, order, now.toISOString());
    return questionsOf(trx, checkinUuid);
  });
}
