import { ApiError, ValidationFailed, badRequest, unauthorized } from '../../../lib/errors.ts';
import { fullName } from '../../../lib/names.ts';
import { sha256Hex } from '../../../lib/secrets.ts';
import { chatPlatformActor } from '../../../auth/credentials.ts';
import { takeNonce } from '../../chat-platform/nonces.ts';
import { activeUserByEmail } from '../../chat-platform/people.ts';
import { todayOf } from '../../checkin-runs/chat-answers.ts';
import { giveKudos } from '../../kudos/service.ts';
import type { OrganizationRow, UserRow } from '../../../db/tables.ts';
import { MattermostApi } from './api.ts';
import { openAnswerDialog } from './interactions.ts';
import type { MattermostAnswer } from './interactions.ts';
import { answerValue } from './messages.ts';
import { NOT_KNOWN, personOf } from './people.ts';
import { IN_REQUEST_TIMEOUT_MS, verifyCommand } from './requests.ts';
import type { MattermostDeps, VerifiedRequest } from './requests.ts';

/**
 * The `/rollcall` slash command (POST /v1/integrations/mattermost/commands/): alone, it opens the person's next
 * check-in of today in the dialog; `status` lists today's check-ins; `kudos @someone message` gives kudos through
 * the kudos service (people named by username or e-mail, matched by e-mail); `help` says so. Every answer is
 * ephemeral.
 */
const ephemeral = (text: string): MattermostAnswer => ({ status: 200, body: { response_type: 'ephemeral', text } });

export const HELP = [
  '**/rollcall** opens your next check-in of today.',
  '**/rollcall status** lists your check-ins of today.',
  '**/rollcall kudos @someone Thanks for the review!** gives kudos (to one person or several).',
  '**/rollcall help** shows this.',
].join('\n');

async function openNext(deps: MattermostDeps, request: VerifiedRequest<null>, person: UserRow): Promise<MattermostAnswer> {
  const today = await todayOf(deps.db, person, deps.now());
  const next = today.checkins.find((c) => c.state === 'pending') ?? today.checkins.find((c) => c.state === 'answered');
  if (!next) return ephemeral('Nothing to answer today. `/rollcall status` lists your check-ins.');
  const value = answerValue(next.prompt_uuid ? { prompt: next.prompt_uuid } : { checkin: next.uuid });
  const notice = await openAnswerDialog(deps, request.connection, person, value, request.body.trigger_id);
  return ephemeral(notice ?? `Opening ${next.name} for ${next.date}.`);
}

async function status(deps: MattermostDeps, person: UserRow): Promise<MattermostAnswer> {
  const today = await todayOf(deps.db, person, deps.now());
  if (today.checkins.length === 0) return ephemeral('No check-ins for you today.');
  const state = { answered: 'answered ✓', pending: 'waiting for your answers', closed: 'answered; the report has gone out' } as const;
  return ephemeral(today.checkins.map((c) => `- **${c.name}** (${c.date}): ${state[c.state]}`).join('\n'));
}

const MENTION = /(?<![\w.])@([a-z0-9][a-z0-9._-]{0,63})|(?<![\w.@])([^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)/gi;

/** `kudos @otto mia@acme.test message`: the people by their Mattermost usernames (or e-mail addresses), then the message. */
async function kudos(deps: MattermostDeps, request: VerifiedRequest<null>, person: UserRow, text: string): Promise<MattermostAnswer> {
  const api = new MattermostApi(deps.http, request.connection.serverUrl ?? '', request.connection.botToken ?? '', IN_REQUEST_TIMEOUT_MS);
  const receivers: UserRow[] = [];
  const unknown: string[] = [];
  for (const [whole, username, email] of [...text.matchAll(MENTION)].slice(0, 20)) {
    const user = username
      ? await personOf(deps, request.connection, await api.userIdByUsername(username.replace(/[._-]+$/, '')).catch(() => null))
      : await activeUserByEmail(deps.db, person.organization_uuid, email);
    if (user) receivers.push(user);
    else unknown.push(whole);
  }
  const content = text.replace(MENTION, '').trim();
  if (unknown.length) return ephemeral(`Rollcall does not know ${unknown.join(', ')}: kudos go to people of your organization.`);
  if (receivers.length === 0 || content === '') return ephemeral('Name someone and say why: `/rollcall kudos @someone Thanks for the review!`');
  const organization: OrganizationRow = (await deps.db('organizations').where({ uuid: person.organization_uuid }).first())!;
  const trigger = typeof request.body.trigger_id === 'string' ? request.body.trigger_id : '';
  if (!trigger) throw badRequest('malformed_request', 'The command has no trigger_id.');
  const now = deps.now();
  try {
    const given = await deps.db.transaction(async (trx) => {
      if (!(await takeNonce(trx, `mattermost:trigger:${sha256Hex(trigger)}`, now))) return null;
      return giveKudos(trx, chatPlatformActor(person, organization, 'mattermost'), { content, receivers: [...new Set(receivers.map((r) => r.uuid))] }, now);
    });
    if (!given) throw unauthorized('credential_expired');
    deps.kick();
    return ephemeral(`🎉 Kudos sent to ${given.receivers.map((r) => fullName(r)).join(', ')}.`);
  } catch (err) {
    if (err instanceof ApiError && err.status !== 401) return ephemeral(err.message);
    if (err instanceof ValidationFailed) return ephemeral(Object.values(err.fields).flat().join(' '));
    throw err;
  }
}

export async function command(deps: MattermostDeps, raw: string, headers: Record<string, string | string[] | undefined>): Promise<MattermostAnswer> {
  const request = await verifyCommand(deps, raw, headers);
  const person = await personOf(deps, request.connection, request.body.user_id);
  if (!person) return ephemeral(NOT_KNOWN);
  const [word = '', ...rest] = (typeof request.body.text === 'string' ? request.body.text.trim() : '').split(/\s+/);
  switch (word.toLowerCase()) {
    case '':
      return openNext(deps, request, person);
    case 'status':
      return status(deps, person);
    case 'help':
      return ephemeral(HELP);
    case 'kudos':
      return kudos(deps, request, person, rest.join(' '));
    default:
      return ephemeral(`Unknown: \`/rollcall ${word.slice(0, 40)}\`.\n${HELP}`);
  }
}
