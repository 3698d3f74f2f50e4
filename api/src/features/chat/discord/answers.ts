import { ApiError, badRequest, unauthorized } from '../../../lib/errors.ts';
import { readJson, writeJson } from '../../../lib/json.ts';
import type { Executor } from '../../../db/connection.ts';
import { takeNonce } from '../../chat-platform/nonces.ts';
import { answerTestPrompt } from '../../chat-platform/test-prompt.ts';
import { openChatAnswer, saveChatAnswer } from '../../checkin-runs/chat-answers.ts';
import type { ChatAnswerOpen, ChatAnswerRef } from '../../checkin-runs/chat-answers.ts';
import type { AnswerView } from '../../checkin-runs/answer-service.ts';
import type { UserRow } from '../../../db/tables.ts';
import { answerModal, formValuesOf, partsOf, questionsOfPart, readCustomId, refId, shownAnswers, submittedValues, testModal } from './modal.ts';
import type { CustomId } from './modal.ts';
import { md } from './messages.ts';
import type { DiscordDeps } from './requests.ts';

/**
 * Answering in Discord: a button of ours ("Answer", "Edit", "Continue (2/3)", "Fix my answers") opens the form
 * (the interaction's answer is the modal itself: no call to Discord while it waits); a modal submitted keeps its
 * part in `chat_answer_drafts`, or, the last part, saves the whole answer through the responses service, all in
 * one transaction with the interaction's nonce, committed before Discord gets its answer. What Discord shows then
 * is an ephemeral message (only the person sees it); the prompt turning "Answered ✓" goes through the outbox.
 */
export type DiscordAnswer = { status: number; body: Record<string, unknown> };

const NO_PINGS = { parse: [] as string[] };
export const ephemeral = (content: string, components?: unknown[]): DiscordAnswer => ({
  status: 200, body: { type: 4, data: { content, flags: 64, allowed_mentions: NO_PINGS, ...(components ? { components } : {}) } },
});
const modal = (data: Record<string, unknown>): DiscordAnswer => ({ status: 200, body: { type: 9, data } });
const button = (label: string, customId: string) => [{ type: 1, components: [{ type: 2, style: 1, label, custom_id: customId }] }];

export const ARCHIVED = 'This check-in can no longer be answered here: it was archived, or you no longer take part in it.';
const closedText = (date: string) => `The report for ${date} has gone out: your answer can no longer be changed.`;
const notYours = () => new ApiError(403, 'not_your_prompt', "This prompt is another person's.");

/** Takes the interaction once, in `trx`: a replay (the same interaction id) is refused and does nothing. */
async function once(trx: Executor, nonce: string, now: Date): Promise<void> {
  if (!(await takeNonce(trx, nonce, now))) throw unauthorized('credential_expired');
}

const draftKey = (person: UserRow, ref: ChatAnswerRef) => ({ user_uuid: person.uuid, checkin_uuid: ref.checkin, run_date: ref.date });
async function draftOf(db: Executor, person: UserRow, ref: ChatAnswerRef): Promise<Record<string, string>> {
  const row = await db('chat_answer_drafts').where(draftKey(person, ref)).first('values');
  return row ? readJson<Record<string, string>>(row.values, {}) : {};
}
async function keepDraft(trx: Executor, person: UserRow, ref: ChatAnswerRef, values: Record<string, string>, now: Date): Promise<void> {
  const row = { ...draftKey(person, ref), organization_uuid: person.organization_uuid, values: writeJson(values), updated_at: now.toISOString() };
  await trx('chat_answer_drafts').insert(row).onConflict(['user_uuid', 'checkin_uuid', 'run_date']).merge(['values', 'updated_at']);
}

/** The form of one part of a check-in's day, or a notice instead (closed, archived). */
async function partForm(deps: DiscordDeps, person: UserRow, opened: ChatAnswerOpen, part: number, nonce: string): Promise<DiscordAnswer> {
  if (opened.state === 'not_yours') throw notYours();
  if (opened.state !== 'ok') return ephemeral(ARCHIVED);
  if (!opened.view.editable) return ephemeral(closedText(opened.view.date));
  if (part > partsOf(opened.view.questions)) throw badRequest('malformed_request', 'The check-in has no such part.');
  await deps.db.transaction((trx) => once(trx, nonce, deps.now()));
  return modal(answerModal(opened.view, opened.ref, part, await draftOf(deps.db, person, opened.ref)));
}

/** Opens the form of a check-in of today (`/rollcall answer`): its first part. */
export const openCheckinForm = async (deps: DiscordDeps, person: UserRow, from: { prompt: string } | { checkin: string }, nonce: string) =>
  partForm(deps, person, await openChatAnswer(deps.db, person, from, deps.now()), 1, nonce);

/** A button of ours clicked (interaction type 3). */
export async function buttonClicked(deps: DiscordDeps, person: UserRow, data: Record<string, unknown>, nonce: string): Promise<DiscordAnswer> {
  const id = readCustomId(data.custom_id);
  if (!id || ('modal' in id && id.modal)) throw badRequest('malformed_request', 'The button names nothing Rollcall knows.');
  if (id.kind === 'test') {
    if (!(await deps.db('chat_messages').where({ uuid: id.message, organization_uuid: person.organization_uuid }).first('uuid'))) return ephemeral(ARCHIVED);
    await deps.db.transaction((trx) => once(trx, nonce, deps.now()));
    return modal(testModal(id.message));
  }
  if (id.kind === 'prompt') return openCheckinForm(deps, person, { prompt: id.prompt }, nonce);
  return partForm(deps, person, await openChatAnswer(deps.db, person, { ref: id.ref }, deps.now()), id.part, nonce);
}

type Outcome =
  | { state: 'continue'; ref: ChatAnswerRef; next: number; total: number }
  | { state: 'refused'; view: AnswerView; ref: ChatAnswerRef; problems: Map<string, string> }
  | { state: 'saved'; view: AnswerView }
  | { state: 'test' }
  | { state: 'closed'; view: AnswerView }
  | { state: 'invalid' }
  | { state: 'not_yours' };

/** A part submitted: kept with the parts before it, or with the last one the whole answer saved. */
async function submitPart(trx: Executor, deps: DiscordDeps, person: UserRow, id: Extract<CustomId, { kind: 'part' }>, typed: Record<string, string>, now: Date): Promise<Outcome> {
  const opened = await openChatAnswer(trx, person, { ref: id.ref }, now);
  if (opened.state !== 'ok') return opened;
  const { view, ref } = opened;
  if (!view.editable) return { state: 'closed', view };
  const total = partsOf(view.questions);
  if (id.part > total) return { state: 'invalid' };
  const names = new Set(questionsOfPart(view.questions, id.part).map((q) => `q.${q.uuid}`));
  const mine = Object.fromEntries(Object.entries(typed).filter(([name]) => names.has(name)));
  // What the person answered before, under what they typed in earlier parts, under this part.
  const values = { ...shownAnswers(view), ...(await draftOf(trx, person, ref)), ...mine };
  if (id.part < total) {
    await keepDraft(trx, person, ref, values, now);
    return { state: 'continue', ref, next: id.part + 1, total };
  }
  const { form, problems } = formValuesOf(view.questions, values);
  const outcome = problems.size ? { state: 'refused' as const, view, problems } : await saveChatAnswer(trx, deps.config, person, ref, form, now);
  if (outcome.state === 'refused') {
    await keepDraft(trx, person, ref, values, now);
    return { ...outcome, ref };
  }
  if (outcome.state === 'saved') await trx('chat_answer_drafts').where(draftKey(person, ref)).delete();
  return outcome;
}

/** A modal of ours submitted (interaction type 5). */
export async function modalSubmitted(deps: DiscordDeps, person: UserRow, data: Record<string, unknown>, nonce: string): Promise<DiscordAnswer> {
  const id = readCustomId(data.custom_id);
  if (!id || id.kind === 'prompt' || !id.modal) throw badRequest('malformed_request', 'The form names nothing Rollcall knows.');
  const typed = submittedValues(data);
  const now = deps.now();
  const outcome: Outcome = await deps.db.transaction(async (trx) => {
    await once(trx, nonce, now);
    if (id.kind === 'test') return (await answerTestPrompt(trx, deps.config, person, 'discord', id.message, now)) ? { state: 'test' } : { state: 'invalid' };
    return submitPart(trx, deps, person, id, typed, now);
  });
  switch (outcome.state) {
    case 'continue':
      return ephemeral(`Kept ✓ Part ${outcome.next - 1} of ${outcome.total}: your answers wait here until the last part is sent.`, button(`Continue (${outcome.next}/${outcome.total})`, `rc:a:r:${refId(outcome.ref, outcome.next)}`));
    case 'refused': {
      const order = outcome.view.questions.map((q) => q.uuid);
      const first = order.findIndex((uuid) => outcome.problems.has(uuid));
      const lines = outcome.view.questions.flatMap((q, i) => (outcome.problems.has(q.uuid) ? [`- ${i + 1}. ${md(q.question)}: ${outcome.problems.get(q.uuid)}`] : []));
      const part = Math.floor(Math.max(0, first) / 5) + 1;
      const total = partsOf(outcome.view.questions);
      return ephemeral(`Not saved yet:\n${lines.join('\n')}`.slice(0, 2000), button(`Fix my answers${total > 1 ? ` (${part}/${total})` : ''}`, `rc:a:r:${refId(outcome.ref, part)}`));
    }
    case 'saved':
      deps.kick();
      return ephemeral(`Saved ✓ Your answers to **${md(outcome.view.checkin.name)}** for ${outcome.view.date}. You can change them until the report goes out.`);
    case 'test':
      deps.kick();
      return ephemeral('Test answer received ✓ Nothing was saved.');
    case 'closed':
      return ephemeral(closedText(outcome.view.date));
    case 'not_yours':
      throw notYours();
    default:
      return ephemeral(ARCHIVED);
  }
}
