import { ApiError, badRequest, unauthorized } from '../../../lib/errors.ts';
import { kindOf } from '../../checkins/question-kinds.ts';
import { activeUserByEmail, rememberPerson, userOfAccount } from '../../chat-platform/people.ts';
import { takeNonce } from '../../chat-platform/nonces.ts';
import { enqueueChatPost } from '../../chat-platform/enqueue.ts';
import { answerTestPrompt } from '../../chat-platform/test-prompt.ts';
import { conversationReply } from '../../checkin-runs/chat-conversation.ts';
import { openChatAnswer, saveChatAnswer } from '../../checkin-runs/chat-answers.ts';
import type { FormValues } from '../../checkin-runs/answer-service.ts';
import type { Executor } from '../../../db/connection.ts';
import type { UserRow } from '../../../db/tables.ts';
import { SUBMIT_MARK } from './cards.ts';
import { TeamsConnector } from './connector.ts';
import { IN_REQUEST_TIMEOUT_MS, activityNonce } from './requests.ts';
import type { TeamsDeps, VerifiedActivity } from './requests.ts';

/**
 * A verified activity (POST /v1/integrations/teams/messages/): a card's "Save" (a message whose `value` holds the
 * inputs and our mark) saves through the responses service; a person's text in their chat with the bot answers
 * one question at a time, as in Slack; anything else (the bot installed, a member added) is acknowledged. The work
 * is done in one transaction with the activity's nonce (its conversation and id) before Teams gets its 200: an
 * activity delivered twice does nothing more. What Teams must be told afterwards (the card turned "Answered ✓",
 * a problem, the next question) goes through the delivery outbox.
 */

const NOT_KNOWN = 'Rollcall has no active person with the e-mail address of your Microsoft Teams account. Ask your Rollcall admin to invite you with that address.';
const GONE = 'This check-in can no longer be answered here: it was archived, or you no longer take part in it.';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The Rollcall person who sent an activity: by their Microsoft Entra object id once matched, else their e-mail as
 * the conversation's roster gives it (asked while the request waits), remembered. Null when unknown.
 */
async function personOf(deps: TeamsDeps, v: VerifiedActivity): Promise<UserRow | null> {
  const from = isObject(v.activity.from) ? v.activity.from : {};
  const aad = typeof from.aadObjectId === 'string' && UUID.test(from.aadObjectId.toLowerCase()) ? from.aadObjectId.toLowerCase() : null;
  const org = v.connection.organizationUuid;
  if (aad) {
    const known = await userOfAccount(deps.db, org, 'microsoft_teams', aad);
    if (known) return known;
  }
  const conversation = isObject(v.activity.conversation) ? v.activity.conversation.id : undefined;
  if (typeof from.id !== 'string' || typeof conversation !== 'string') return null;
  let member;
  try {
    member = await new TeamsConnector(deps.http, deps.config, v.connection, IN_REQUEST_TIMEOUT_MS).member(conversation, from.id);
  } catch (err) {
    deps.logger.warn({ organization: org, err: String(err) }, 'microsoft teams member lookup failed: the person of an activity is unknown');
    return null;
  }
  const id = member?.aadObjectId?.toLowerCase() ?? aad;
  if (!member?.email || !id) return null;
  await rememberPerson(deps.db, { organizationUuid: org, platform: 'microsoft_teams', email: member.email }, id, deps.now());
  return (await activeUserByEmail(deps.db, org, member.email)) ?? null;
}

/** A card's inputs as the web page's form values (`q.<uuid>` → values; a multi-select's values are comma-separated). */
export function formValuesOf(value: Record<string, unknown>, multi: ReadonlySet<string>): FormValues {
  const values: FormValues = new Map();
  for (const [id, input] of Object.entries(value)) {
    if (!id.startsWith('q.') || typeof input !== 'string' || input.includes('\u0000')) continue;
    values.set(id, multi.has(id) ? input.split(',').filter(Boolean) : [input]);
  }
  return values;
}

/** A message to the person (or, for someone Rollcall does not know, to the conversation they wrote in). */
function tell(trx: Executor, deps: TeamsDeps, v: VerifiedActivity, person: UserRow | null, text: string, now: Date) {
  const conversation = (v.activity.conversation as { id: string }).id;
  return enqueueChatPost(trx, {
    organizationUuid: v.connection.organizationUuid, platform: 'microsoft_teams', text, channels: person ? [] : [conversation], users: person ? [person] : [], kind: 'teams.notice',
  }, now);
}

type Outcome = 'replayed' | 'done' | { refused: ApiError };

/** "Save" on a prompt card: saved, or what stopped it told to the person; another person's prompt is refused. */
async function submit(deps: TeamsDeps, v: VerifiedActivity, value: Record<string, unknown>, nonce: string): Promise<Outcome> {
  const person = await personOf(deps, v);
  const now = deps.now();
  const prompt = typeof value.p === 'string' && UUID.test(value.p) ? value.p : null;
  const test = typeof value.t === 'string' && UUID.test(value.t) ? value.t : null;
  if (!prompt && !test) throw badRequest('malformed_request', 'The card names nothing Rollcall knows.');
  // Read first: a submission through another person's prompt is refused before anything is recorded.
  const opened = person && prompt ? await openChatAnswer(deps.db, person, { prompt }, now) : null;
  if (opened?.state === 'not_yours') throw new ApiError(403, 'not_your_prompt', 'This prompt is another person\'s.');
  const multi = new Set(opened?.state === 'ok' ? opened.view.questions.filter((q) => q.question_type === 'multiple_choice' && kindOf(q).multiple).map((q) => `q.${q.uuid}`) : []);
  const outcome = await deps.db.transaction(async (trx): Promise<Outcome> => {
    if (!(await takeNonce(trx, nonce, now))) return 'replayed' as const;
    if (!person) return tell(trx, deps, v, null, NOT_KNOWN, now).then(() => 'done' as const);
    if (test) {
      const answered = await answerTestPrompt(trx, deps.config, person, 'microsoft_teams', test, now);
      if (!answered) await tell(trx, deps, v, person, GONE, now);
      return 'done' as const;
    }
    if (opened?.state !== 'ok') return tell(trx, deps, v, person, GONE, now).then(() => 'done' as const);
    const saved = await saveChatAnswer(trx, deps.config, person, opened.ref, formValuesOf(value, multi), now);
    if (saved.state === 'not_yours') return { refused: new ApiError(403, 'not_your_prompt', 'This prompt is another person\'s.') };
    if (saved.state === 'refused') {
      const lines = saved.view.questions.filter((q) => saved.problems.has(q.uuid)).map((q) => `• ${q.question}: ${saved.problems.get(q.uuid)}`);
      await tell(trx, deps, v, person, `Not saved: ${saved.view.checkin.name} (${saved.view.date})\n${lines.join('\n')}`, now);
    } else if (saved.state === 'closed') {
      await tell(trx, deps, v, person, `The report for ${saved.view.date} has gone out: your answer can no longer be changed.`, now);
    } else if (saved.state === 'invalid') {
      await tell(trx, deps, v, person, GONE, now);
    }
    return 'done' as const;
  });
  return outcome ?? 'done';
}

/** A person's text in their chat with the bot: the next answer of the conversation (checkin-runs/chat-conversation.ts). */
async function message(deps: TeamsDeps, v: VerifiedActivity, text: string, nonce: string): Promise<Outcome> {
  const person = await personOf(deps, v);
  if (!person) {
    deps.logger.info({ organization: v.connection.organizationUuid }, 'microsoft teams message from a person Rollcall does not know (no active person with their e-mail)');
    return 'done';
  }
  const now = deps.now();
  return deps.db.transaction(async (trx) => {
    if (!(await takeNonce(trx, nonce, now))) return 'replayed' as const;
    await conversationReply(trx, deps.config, person, text, now);
    return 'done' as const;
  });
}

/** Teams' text of a message to a bot: without the bot's @mention and the HTML Teams wraps it in. */
const plainText = (text: string): string => text.replace(/<at>[^<]*<\/at>/g, '').replace(/<[^>]+>/g, '').replace(/&nbsp;/g, ' ').trim();

export async function handleActivity(deps: TeamsDeps, v: VerifiedActivity): Promise<void> {
  const { activity } = v;
  if (activity.type !== 'message') return;
  const nonce = activityNonce(activity);
  if (!nonce) throw badRequest('malformed_request', 'The activity has no id or conversation.');
  const value = activity.value;
  const personal = isObject(activity.conversation) && activity.conversation.conversationType === 'personal';
  let outcome: Outcome | null = null;
  if (isObject(value) && value.rollcall === SUBMIT_MARK) outcome = await submit(deps, v, value, nonce);
  else if (personal && typeof activity.text === 'string' && plainText(activity.text)) outcome = await message(deps, v, plainText(activity.text).slice(0, 10_000), nonce);
  if (outcome === 'replayed') throw unauthorized('credential_expired');
  if (outcome && typeof outcome === 'object') throw outcome.refused;
  if (outcome === 'done') deps.kick();
}

/** What the Bot Framework gets back for an activity taken (or ignored): 200 with an empty JSON object. */
export const acknowledgement = (): Record<string, never> => ({});
