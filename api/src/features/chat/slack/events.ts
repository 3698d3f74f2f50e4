import { unauthorized } from '../../../lib/errors.ts';
import { takeNonce } from '../../chat-platform/nonces.ts';
import { enqueueChatPost } from '../../chat-platform/enqueue.ts';
import { conversationReply } from '../../checkin-runs/chat-conversation.ts';
import { todayOf } from '../../checkin-runs/chat-answers.ts';
import type { Executor } from '../../../db/connection.ts';
import type { UserRow } from '../../../db/tables.ts';
import { personOf } from './people.ts';
import { signatureNonce } from './requests.ts';
import type { SlackDeps, VerifiedRequest } from './requests.ts';
import type { SlackAnswer } from './interactions.ts';

/**
 * The Events API (POST /v1/integrations/slack/events/): the URL check when the URL is pasted, a person's message
 * in their direct conversation with the app (answering one question at a time: checkin-runs/chat-conversation.ts),
 * and the App Home opened (its view published through the outbox). The work is done in the request's
 * transaction, with the request's nonce and the event's id, before Slack gets its 200: Slack's retries of an event
 * (a new signature, the same event id) do nothing more.
 */

const ack: SlackAnswer = { status: 200, body: '' };

type Work = (trx: Executor, person: UserRow, now: Date) => Promise<unknown>;

function workOf(deps: SlackDeps, event: Record<string, unknown>): Work | null {
  // A person's own message in the app's direct conversation: not the bot's, not an edit or a join notice.
  if (event.type === 'message' && event.channel_type === 'im' && event.bot_id === undefined && event.subtype === undefined && typeof event.text === 'string') {
    const text = event.text;
    return (trx, person, now) => conversationReply(trx, deps.config, person, text, now);
  }
  if (event.type === 'app_home_opened' && event.tab === 'home') {
    return async (trx, person, now) =>
      enqueueChatPost(trx, {
        organizationUuid: person.organization_uuid, platform: 'slack', text: "Today's check-ins", message: { kind: 'home', home: await todayOf(trx, person, now) },
        channels: [], users: [person], kind: 'slack.home',
      }, now);
  }
  return null;
}

export async function event(deps: SlackDeps, request: VerifiedRequest): Promise<SlackAnswer> {
  const { body } = request;
  if (body.type === 'url_verification') {
    const challenge = typeof body.challenge === 'string' ? body.challenge.slice(0, 500) : '';
    return { status: 200, body: { challenge } };
  }
  const inner = body.event;
  if (body.type !== 'event_callback' || typeof inner !== 'object' || inner === null || typeof body.event_id !== 'string') return ack;
  const work = workOf(deps, inner as Record<string, unknown>);
  if (!work) return ack;
  const person = await personOf(deps, request.connection, (inner as { user?: unknown }).user);
  if (!person) {
    deps.logger.info({ organization: request.connection.organizationUuid }, 'slack event from a person Rollcall does not know (no active person with their e-mail)');
    return ack;
  }
  const now = deps.now();
  const eventId = `slack:event:${body.event_id.slice(0, 80)}`;
  const outcome = await deps.db.transaction(async (trx) => {
    if (!(await takeNonce(trx, signatureNonce(request.signature), now))) return 'replayed';
    if (!(await takeNonce(trx, eventId, now))) return 'retried';
    await work(trx, person, now);
    return 'done';
  });
  if (outcome === 'replayed') throw unauthorized('credential_expired');
  if (outcome === 'done') deps.kick();
  return ack;
}
