import { randomBase62 } from '../../../lib/secrets.ts';
import { ApiError, badRequest, unauthorized } from '../../../lib/errors.ts';
import { sha256Hex } from '../../../lib/secrets.ts';
import { takeNonce } from '../../chat-platform/nonces.ts';
import { enqueueChatPost } from '../../chat-platform/enqueue.ts';
import type { ChatConnection } from '../../chat-platform/connection.ts';
import { testPromptCard } from '../../chat-platform/test-prompt.ts';
import { openChatAnswer, saveChatAnswer } from '../../checkin-runs/chat-answers.ts';
import type { ChatAnswerRef } from '../../checkin-runs/chat-answers.ts';
import type { UserRow } from '../../../db/tables.ts';
import { MattermostApi } from './api.ts';
import { answerDialog, formValuesOf, testDialog } from './dialog.ts';
import { NOT_KNOWN, personOf } from './people.ts';
import { IN_REQUEST_TIMEOUT_MS, REQUEST_PATHS, dialogState, verifyAction, verifyDialog } from './requests.ts';
import type { MattermostDeps } from './requests.ts';

/**
 * A button of ours clicked (POST /v1/integrations/mattermost/actions/): "Answer" or "Edit" opens the answer
 * dialog (POST /api/v4/actions/dialogs/open with the click's trigger id, made while the request waits: the one
 * call not made through the outbox). The dialog submitted (POST …/dialogs/): saved through the responses
 * service in the request's transaction, with the dialog's nonce, before Mattermost gets its answer; problems
 * go back into the dialog (`errors`).
 */
export type MattermostAnswer = { status: number; body: Record<string, unknown> };

const ARCHIVED = 'This check-in can no longer be answered here: it was archived, or you no longer take part in it.';
const closedText = (date: string) => `The report for ${date} has gone out: your answer can no longer be changed.`;

/** What a dialog opened from `value` answers, or a notice to show instead (refusing another person's prompt). */
async function dialogFor(deps: MattermostDeps, connection: ChatConnection, person: UserRow, value: string): Promise<Record<string, unknown> | string> {
  const [kind, id] = [value.slice(0, 2), value.slice(2)];
  if (!/^[0-9a-f-]{36}$/.test(id) || !['p:', 'c:', 't:'].includes(kind)) throw badRequest('malformed_request', 'The button names nothing Rollcall knows.');
  const state = (ref: { c: string | null; d: string | null; p: string | null; t: string | null }) =>
    dialogState(connection.requestSecret ?? '', { o: connection.organizationUuid, ...ref, n: randomBase62(24), at: deps.now().getTime() });
  if (kind === 't:') return testDialog(state({ c: null, d: null, p: null, t: id }));
  const open = await openChatAnswer(deps.db, person, kind === 'p:' ? { prompt: id } : { checkin: id }, deps.now());
  if (open.state === 'not_yours') throw new ApiError(403, 'not_your_prompt', "This prompt is another person's.");
  if (open.state !== 'ok') return ARCHIVED;
  if (!open.view.editable) return closedText(open.view.date);
  return answerDialog(open.view, state({ c: open.ref.checkin, d: open.ref.date, p: open.ref.prompt, t: null }));
}

/** Opens the dialog of `value` for a request (a click, `/rollcall`) already verified; a notice comes back as text. */
export async function openAnswerDialog(deps: MattermostDeps, connection: ChatConnection, person: UserRow, value: string, trigger: unknown): Promise<string | null> {
  const dialog = await dialogFor(deps, connection, person, value);
  if (typeof dialog === 'string') return dialog;
  if (typeof trigger !== 'string' || trigger === '' || trigger.length > 500) throw badRequest('malformed_request', 'The request has no trigger_id.');
  // A click (or a command) opens one dialog: the same trigger again does nothing.
  if (!(await deps.db.transaction((trx) => takeNonce(trx, `mattermost:trigger:${sha256Hex(trigger)}`, deps.now())))) throw unauthorized('credential_expired');
  const url = `${deps.config.publicUrl ?? `http://localhost:${deps.config.port}`}${REQUEST_PATHS.dialogs}`;
  try {
    await new MattermostApi(deps.http, connection.serverUrl ?? '', connection.botToken ?? '', IN_REQUEST_TIMEOUT_MS).call('POST', '/actions/dialogs/open', { trigger_id: trigger, url, dialog });
  } catch (err) {
    // Nothing was saved; the person clicks again.
    deps.logger.warn({ organization: connection.organizationUuid, err: String(err) }, 'mattermost dialogs/open failed');
    return 'Mattermost did not open the form: try again in a moment.';
  }
  return null;
}

export async function action(deps: MattermostDeps, raw: string): Promise<MattermostAnswer> {
  const request = await verifyAction(deps, raw);
  const person = await personOf(deps, request.connection, request.body.user_id);
  if (!person) return { status: 200, body: { ephemeral_text: NOT_KNOWN } };
  const notice = await openAnswerDialog(deps, request.connection, person, request.signed, request.body.trigger_id);
  return { status: 200, body: notice ? { ephemeral_text: notice } : {} };
}

export async function dialogSubmission(deps: MattermostDeps, raw: string): Promise<MattermostAnswer> {
  const { connection, body, signed: state } = await verifyDialog(deps, raw);
  if (body.cancelled === true) return { status: 200, body: {} };
  const person = await personOf(deps, connection, body.user_id);
  if (!person) return { status: 200, body: { error: NOT_KNOWN } };
  const now = deps.now();
  const outcome = await deps.db.transaction(async (trx) => {
    if (!(await takeNonce(trx, `mattermost:dialog:${state.n}`, now))) return 'replayed' as const;
    if (state.t) {
      if (!(await trx('chat_messages').where({ uuid: state.t, organization_uuid: person.organization_uuid }).first('uuid'))) return { state: 'invalid' } as const;
      await enqueueChatPost(trx, {
        organizationUuid: person.organization_uuid, platform: 'mattermost', botMessageId: state.t, edit: true, text: 'Rollcall test prompt: answered ✓',
        message: { kind: 'prompt', prompt: { ...testPromptCard(state.t, deps.config, now), answered: true } }, channels: [], users: [person], kind: 'chat.test_prompt',
      }, now);
      return { state: 'saved' } as const;
    }
    if (!state.c || !state.d) return { state: 'invalid' } as const;
    const ref: ChatAnswerRef = { checkin: state.c, date: state.d, prompt: state.p };
    return saveChatAnswer(trx, deps.config, person, ref, formValuesOf(body.submission), now);
  });
  if (outcome === 'replayed') throw unauthorized('credential_expired');
  switch (outcome.state) {
    case 'saved':
      deps.kick();
      return { status: 200, body: {} };
    case 'refused':
      return { status: 200, body: { errors: Object.fromEntries([...outcome.problems].map(([uuid, problem]) => [`q.${uuid}`, problem])) } };
    case 'closed':
      return { status: 200, body: { error: closedText(outcome.view.date) } };
    case 'not_yours':
      throw new ApiError(403, 'not_your_prompt', "This prompt is another person's.");
    default:
      return { status: 200, body: { error: ARCHIVED } };
  }
}
