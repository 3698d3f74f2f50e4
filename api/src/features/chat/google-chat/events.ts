import { ApiError, badRequest, unauthorized } from '../../../lib/errors.ts';
import { activeUserByEmail, rememberPerson } from '../../chat-platform/people.ts';
import { takeNonce } from '../../chat-platform/nonces.ts';
import { answerTestPrompt } from '../../chat-platform/test-prompt.ts';
import { conversationReply } from '../../checkin-runs/chat-conversation.ts';
import { openChatAnswer, saveChatAnswer } from '../../checkin-runs/chat-answers.ts';
import type { ChatAnswerRef } from '../../checkin-runs/chat-answers.ts';
import type { FormValues } from '../../checkin-runs/answer-service.ts';
import { RESOLVED } from '../../checkin-runs/answer-service.ts';
import type { UserRow } from '../../../db/tables.ts';
import { OPEN_ANSWER, SAVE_ANSWER, answerDialog, dialogStatus, testDialog } from './cards.ts';
import type { GoogleChatDeps, VerifiedEvent } from './requests.ts';

/**
 * A verified Google Chat event (POST /v1/integrations/google-chat/events/): "Answer" asks for the dialog
 * (REQUEST_DIALOG), answered with it while Chat waits; "Save" (SUBMIT_DIALOG) saves through the responses service
 * in one transaction with the request's nonce, before Chat gets its answer, and closes the dialog, or keeps it
 * open with the problem; a person's message in their direct message with the app answers one question at a time.
 * Anything else is acknowledged. What Chat must be told afterwards (the card turned "Answered ✓", the next
 * question) goes through the delivery outbox.
 */
const NOT_KNOWN = 'Rollcall has no active person with the e-mail address of your Google account. Ask your Rollcall admin to invite you with that address.';
const GONE = 'This check-in can no longer be answered here: it was archived, or you no longer take part in it.';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Answer = Record<string, unknown>;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The person of an event: Chat names their e-mail; a direct-message space with them is remembered for prompts. */
async function personOf(deps: GoogleChatDeps, v: VerifiedEvent): Promise<UserRow | null> {
  const user = isObject(v.event.user) ? v.event.user : {};
  if (typeof user.email !== 'string' || !user.email.includes('@') || user.email.length > 254 || user.type === 'BOT') return null;
  const person = await activeUserByEmail(deps.db, v.connection.organizationUuid, user.email);
  const space = isObject(v.event.space) ? v.event.space : {};
  if (person && (space.type === 'DM' || space.spaceType === 'DIRECT_MESSAGE') && typeof space.name === 'string' && /^spaces\/[A-Za-z0-9_-]{1,60}$/.test(space.name)) {
    await rememberPerson(deps.db, { organizationUuid: v.connection.organizationUuid, platform: 'google_chat', email: user.email }, space.name, deps.now());
  }
  return person ?? null;
}

/** The action's parameters (`common.parameters`, or the older `action.parameters`). */
function parametersOf(event: Record<string, unknown>): Record<string, string> {
  const common = isObject(event.common) ? event.common : {};
  if (isObject(common.parameters)) return Object.fromEntries(Object.entries(common.parameters).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
  const list = isObject(event.action) && Array.isArray(event.action.parameters) ? event.action.parameters : [];
  return Object.fromEntries(list.filter((p: { key?: unknown; value?: unknown }) => typeof p?.key === 'string' && typeof p.value === 'string').map((p: { key: string; value: string }) => [p.key, p.value]));
}

const functionOf = (event: Record<string, unknown>): unknown =>
  (isObject(event.common) ? event.common.invokedFunction : undefined) ?? (isObject(event.action) ? event.action.actionMethodName : undefined);

/** The dialog's inputs as the web page's form values (`q.<uuid>` → values). */
export function formValuesOf(event: Record<string, unknown>): FormValues {
  const values: FormValues = new Map();
  const inputs = isObject(event.common) && isObject(event.common.formInputs) ? event.common.formInputs : {};
  for (const [id, input] of Object.entries(inputs)) {
    if ((!id.startsWith('q.') && id !== RESOLVED) || !isObject(input) || !isObject(input.stringInputs) || !Array.isArray(input.stringInputs.value)) continue;
    values.set(id, input.stringInputs.value.filter((v): v is string => typeof v === 'string' && !v.includes('\u0000')));
  }
  return values;
}

const refuseOthers = (state: string) => {
  if (state === 'not_yours') throw new ApiError(403, 'not_your_prompt', 'This prompt is another person\'s.');
};

/** "Answer" or "Edit": the dialog of the prompt's day (or a notice). */
async function openDialog(deps: GoogleChatDeps, v: VerifiedEvent, person: UserRow | null): Promise<Answer> {
  const p = parametersOf(v.event);
  if (!person) return dialogStatus('INVALID_ARGUMENT', NOT_KNOWN);
  if (typeof p.t === 'string' && UUID.test(p.t)) return testDialog(p.t);
  if (typeof p.p !== 'string' || !UUID.test(p.p)) throw badRequest('malformed_request', 'The button names nothing Rollcall knows.');
  const open = await openChatAnswer(deps.db, person, { prompt: p.p }, deps.now());
  refuseOthers(open.state);
  if (open.state !== 'ok') return dialogStatus('INVALID_ARGUMENT', GONE);
  if (!open.view.editable) return dialogStatus('INVALID_ARGUMENT', `The report for ${open.view.date} has gone out: your answer can no longer be changed.`);
  return answerDialog(open.view, open.ref);
}

/** "Save": saved (the dialog closes), or the problem shown, or a notice. */
async function saveDialog(deps: GoogleChatDeps, v: VerifiedEvent, person: UserRow | null): Promise<Answer> {
  const p = parametersOf(v.event);
  if (!person) return dialogStatus('INVALID_ARGUMENT', NOT_KNOWN);
  const test = typeof p.t === 'string' && UUID.test(p.t) ? p.t : null;
  const ref: ChatAnswerRef | null = typeof p.c === 'string' && UUID.test(p.c) && typeof p.d === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(p.d)
    ? { checkin: p.c, date: p.d, prompt: typeof p.p === 'string' && UUID.test(p.p) ? p.p : null } : null;
  if (!test && !ref) throw badRequest('malformed_request', 'The dialog says nothing Rollcall knows.');
  const now = deps.now();
  const outcome = await deps.db.transaction(async (trx) => {
    if (!(await takeNonce(trx, v.nonce, now))) return 'replayed' as const;
    if (test) return (await answerTestPrompt(trx, deps.config, person, 'google_chat', test, now)) ? { state: 'saved' as const } : { state: 'invalid' as const };
    return saveChatAnswer(trx, deps.config, person, ref!, formValuesOf(v.event), now);
  });
  if (outcome === 'replayed') throw unauthorized('credential_expired');
  refuseOthers(outcome.state);
  switch (outcome.state) {
    case 'saved':
      deps.kick();
      return dialogStatus('OK', 'Saved ✓');
    case 'refused':
      return dialogStatus('INVALID_ARGUMENT', outcome.view.questions.filter((q) => outcome.problems.has(q.uuid)).map((q) => `${q.question}: ${outcome.problems.get(q.uuid)}`).join(' '));
    case 'closed':
      return dialogStatus('INVALID_ARGUMENT', `The report for ${outcome.view.date} has gone out: your answer can no longer be changed.`);
    default:
      return dialogStatus('INVALID_ARGUMENT', GONE);
  }
}

/** A message in the direct message with the app: the next answer of the conversation. */
async function message(deps: GoogleChatDeps, v: VerifiedEvent, person: UserRow | null): Promise<Answer> {
  const msg = isObject(v.event.message) ? v.event.message : {};
  const text = typeof msg.argumentText === 'string' ? msg.argumentText.trim() : typeof msg.text === 'string' ? msg.text.trim() : '';
  if (!text) return {};
  if (!person) return { text: NOT_KNOWN };
  const now = deps.now();
  const outcome = await deps.db.transaction(async (trx) => {
    if (!(await takeNonce(trx, v.nonce, now))) return 'replayed' as const;
    await conversationReply(trx, deps.config, person, text.slice(0, 10_000), now);
    return 'done' as const;
  });
  if (outcome === 'replayed') throw unauthorized('credential_expired');
  deps.kick();
  return {};
}

export async function handleEvent(deps: GoogleChatDeps, v: VerifiedEvent): Promise<Answer> {
  const { event } = v;
  const type = event.type;
  if (type !== 'CARD_CLICKED' && type !== 'MESSAGE' && type !== 'ADDED_TO_SPACE') return {};
  const person = await personOf(deps, v);
  if (type === 'ADDED_TO_SPACE') return {};
  if (type === 'MESSAGE') return isObject(event.space) && (event.space.type === 'DM' || event.space.spaceType === 'DIRECT_MESSAGE') ? message(deps, v, person) : {};
  const invoked = functionOf(event);
  if (invoked === OPEN_ANSWER) return openDialog(deps, v, person);
  if (invoked === SAVE_ANSWER && event.dialogEventType !== 'CANCEL_DIALOG') return saveDialog(deps, v, person);
  return {};
}
