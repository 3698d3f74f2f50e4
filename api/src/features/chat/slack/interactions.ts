import { ApiError, badRequest, unauthorized } from '../../../lib/errors.ts';
import { takeNonce } from '../../chat-platform/nonces.ts';
import { enqueueChatPost } from '../../chat-platform/enqueue.ts';
import { openChatAnswer, saveChatAnswer } from '../../checkin-runs/chat-answers.ts';
import type { ChatAnswerOpen } from '../../checkin-runs/chat-answers.ts';
import type { UserRow } from '../../../db/tables.ts';
import { SlackApi } from './api.ts';
import { ANSWER_ACTION } from './blocks.ts';
import { ANSWER_CALLBACK, answerModal, blockId, formValuesOf, noticeModal, subjectOf, testModal } from './modal.ts';
import { personOf } from './people.ts';
import { IN_REQUEST_TIMEOUT_MS, signatureNonce } from './requests.ts';
import type { SlackDeps, VerifiedRequest } from './requests.ts';
import { testPromptCard } from '../../chat-platform/test-prompt.ts';

/**
 * Interactivity (POST /v1/integrations/slack/interactions/): a click on "Answer" or "Edit" opens the answer
 * modal (`views.open` with the click's trigger_id, which Slack honours for 3 seconds only, so it is called while
 * the request waits: the one Slack call not made through the delivery outbox); submitting the modal saves through
 * the responses service in the request's transaction, with the request's nonce, before Slack gets its answer.
 * Validation problems go back into the modal (`response_action: errors`).
 */

export type SlackAnswer = { status: number; body: Record<string, unknown> | string };
const ack: SlackAnswer = { status: 200, body: '' };

const NOT_KNOWN = 'Rollcall has no active person with the e-mail address of your Slack account. Ask your Rollcall admin to invite you with that address.';

function notice(open: Exclude<ChatAnswerOpen, { state: 'ok' }>): Record<string, unknown> {
  if (open.state === 'not_yours') throw new ApiError(403, 'not_your_prompt', 'This prompt is another person\'s.');
  return noticeModal('Rollcall', 'This check-in can no longer be answered here: it was archived, or you no longer take part in it.');
}

async function openModal(deps: SlackDeps, request: VerifiedRequest, view: Record<string, unknown>): Promise<void> {
  const trigger = request.body.trigger_id;
  if (typeof trigger !== 'string' || trigger === '') throw badRequest('malformed_request', 'The interaction has no trigger_id.');
  try {
    await new SlackApi(deps.http, deps.config.chat.slackApiUrl, request.connection.botToken ?? '', IN_REQUEST_TIMEOUT_MS).call('views.open', { trigger_id: trigger, view });
  } catch (err) {
    // Nothing was saved; the person clicks again. Slack shows a warning on the button when views.open fails.
    deps.logger.warn({ organization: request.connection.organizationUuid, err: String(err) }, 'slack views.open failed');
  }
}

/** The modal a click on an answer button opens: the check-in's day, a notice, or the test prompt's. */
async function modalFor(deps: SlackDeps, person: UserRow, value: string): Promise<Record<string, unknown>> {
  const [kind, id] = [value.slice(0, 2), value.slice(2)];
  if (!/^[0-9a-f-]{36}$/.test(id)) throw badRequest('malformed_request', 'The button names nothing Rollcall knows.');
  if (kind === 't:') return testModal(id);
  const open = await openChatAnswer(deps.db, person, kind === 'p:' ? { prompt: id } : { checkin: id }, deps.now());
  if (open.state !== 'ok') return notice(open);
  if (!open.view.editable) return noticeModal(open.view.checkin.name, `The report for ${open.view.date} has gone out: your answer can no longer be changed.`);
  return answerModal(open.view, open.ref);
}

/** A click: "Answer" or "Edit" opens the modal; other buttons (the web page's link) need nothing. */
async function blockActions(deps: SlackDeps, request: VerifiedRequest): Promise<SlackAnswer> {
  const actions = Array.isArray(request.body.actions) ? request.body.actions : [];
  const action = actions.find((a: { action_id?: unknown }) => a?.action_id === ANSWER_ACTION) as { value?: unknown } | undefined;
  if (!action) return ack;
  if (typeof action.value !== 'string') throw badRequest('malformed_request', 'The button has no value.');
  const person = await personOf(deps, request.connection, (request.body.user as { id?: unknown })?.id);
  // Read first: a click on another person's prompt is refused before anything is recorded.
  const view = person ? await modalFor(deps, person, action.value) : noticeModal('Rollcall', NOT_KNOWN);
  if (!(await deps.db.transaction((trx) => takeNonce(trx, signatureNonce(request.signature), deps.now())))) throw unauthorized('credential_expired');
  await openModal(deps, request, view);
  return ack;
}

/** Opens the answer modal of `value` (an answer button's value) for the person of a request already taken. */
export async function openAnswerModal(deps: SlackDeps, request: VerifiedRequest, person: UserRow, value: string): Promise<void> {
  await openModal(deps, request, await modalFor(deps, person, value));
}

/** The modal submitted: saved, or its problems shown in it, or a notice instead of it. */
async function viewSubmission(deps: SlackDeps, request: VerifiedRequest): Promise<SlackAnswer> {
  const view = request.body.view as { callback_id?: unknown; private_metadata?: unknown; state?: unknown } | undefined;
  if (view?.callback_id !== ANSWER_CALLBACK) return ack;
  const subject = subjectOf(view.private_metadata);
  if (!subject) throw badRequest('malformed_request', 'The modal says nothing Rollcall knows.');
  const person = await personOf(deps, request.connection, (request.body.user as { id?: unknown })?.id);
  if (!person) return { status: 200, body: { response_action: 'update', view: noticeModal('Rollcall', NOT_KNOWN) } };
  const now = deps.now();
  const outcome = await deps.db.transaction(async (trx) => {
    if (!(await takeNonce(trx, signatureNonce(request.signature), now))) return 'replayed' as const;
    if ('test' in subject) {
      // A test prompt of this person's organization (its message is recorded under the id the modal carries).
      if (!(await trx('chat_messages').where({ uuid: subject.test, organization_uuid: person.organization_uuid }).first('uuid'))) return { state: 'invalid' } as const;
      const card = { ...testPromptCard(subject.test, deps.config, now), answered: true };
      await enqueueChatPost(trx, {
        organizationUuid: person.organization_uuid, platform: 'slack', botMessageId: subject.test, edit: true, text: 'Rollcall test prompt: answered ✓',
        message: { kind: 'prompt', prompt: card }, channels: [], users: [person], kind: 'chat.test_prompt',
      }, now);
      return { state: 'saved' } as const;
    }
    return saveChatAnswer(trx, deps.config, person, subject.ref, formValuesOf(view.state), now);
  });
  if (outcome === 'replayed') throw unauthorized('credential_expired');
  switch (outcome.state) {
    case 'saved':
      deps.kick();
      return { status: 200, body: { response_action: 'clear' } };
    case 'refused':
      return { status: 200, body: { response_action: 'errors', errors: Object.fromEntries([...outcome.problems].map(([uuid, problem]) => [blockId(uuid), problem])) } };
    case 'closed':
      return { status: 200, body: { response_action: 'update', view: noticeModal(outcome.view.checkin.name, `The report for ${outcome.view.date} has gone out: your answer can no longer be changed.`) } };
    default:
      return { status: 200, body: { response_action: 'update', view: notice(outcome) } };
  }
}

/** An interaction, by its type: a click, a modal submitted; anything else is acknowledged and ignored. */
export async function interaction(deps: SlackDeps, request: VerifiedRequest): Promise<SlackAnswer> {
  if (request.body.type === 'block_actions') return blockActions(deps, request);
  if (request.body.type === 'view_submission') return viewSubmission(deps, request);
  return ack;
}
