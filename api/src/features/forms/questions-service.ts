import type { Executor } from '../../db/connection.ts';
import type { Actor } from '../../auth/credentials.ts';
import { addQuestionIn, deleteQuestionIn, reorderQuestionsIn, updateQuestionIn } from '../checkins/questions-service.ts';
import type { AddQuestionInput, ReorderQuestionsInput, UpdateQuestionInput } from '../checkins/schema.ts';
import { FORM_QUESTIONS } from './repository.ts';
import type { FormQuestionRow } from './repository.ts';
import { editableForm } from './service.ts';

/** A form's questions, kept as check-ins keep theirs; owners and admins edit them (404 first, then 403). */
export const addFormQuestion = (db: Executor, actor: Actor, formUuid: string, input: AddQuestionInput, now: Date) =>
  db.transaction(async (trx) => {
    await editableForm(trx, actor, formUuid);
    return addQuestionIn<FormQuestionRow>(trx, FORM_QUESTIONS, formUuid, input, now);
  });

export const updateFormQuestion = (db: Executor, actor: Actor, formUuid: string, uuid: string, input: UpdateQuestionInput, now: Date) =>
  db.transaction(async (trx) => {
    await editableForm(trx, actor, formUuid);
    return updateQuestionIn<FormQuestionRow>(trx, FORM_QUESTIONS, formUuid, uuid, input, now);
  });

export const deleteFormQuestion = (db: Executor, actor: Actor, formUuid: string, uuid: string, now: Date) =>
  db.transaction(async (trx) => {
    await editableForm(trx, actor, formUuid);
    await deleteQuestionIn(trx, FORM_QUESTIONS, formUuid, uuid, now);
  });

export const reorderFormQuestions = (db: Executor, actor: Actor, formUuid: string, input: ReorderQuestionsInput, now: Date) =>
  db.transaction(async (trx) => {
    await editableForm(trx, actor, formUuid);
    return reorderQuestionsIn<FormQuestionRow>(trx, FORM_QUESTIONS, formUuid, input, now);
  });
