import { ApiError, ValidationFailed, unauthorized } from '../../../lib/errors.ts';
import { chatPlatformActor } from '../../../auth/credentials.ts';
import { takeNonce } from '../../chat-platform/nonces.ts';
import { todayOf } from '../../checkin-runs/chat-answers.ts';
import { giveKudos } from '../../kudos/service.ts';
import type { OrganizationRow, UserRow } from '../../../db/tables.ts';
import { fullName } from '../../../lib/names.ts';
import { personOf } from './people.ts';
import { signatureNonce } from './requests.ts';
import type { SlackDeps, VerifiedRequest } from './requests.ts';
import type { SlackAnswer } from './interactions.ts';
import { openAnswerModal } from './interactions.ts';

/**
 * The `/rollcall` slash command (POST /v1/integrations/slack/commands/): with nothing after it, opens the
 * person's next check-in of today; `kudos @someone message` gives kudos through the kudos service (the people
 * named are matched by e-mail); `status` lists today's check-ins; `help` says all this. Every answer, errors
 * included, is ephemeral: only the person sees it.
 */

const ephemeral = (text: string): SlackAnswer => ({ status: 200, body: { response_type: 'ephemeral', text } });

export const HELP = [
  '*/rollcall* opens your next check-in of today.',
  '*/rollcall status* lists your check-ins of today.',
  '*/rollcall kudos @someone Thanks for the review!* gives kudos (to one person or several).',
  '*/rollcall help* shows this.',
  'You can also reply to a check-in message, one answer per message.',
].join('\n');

const NOT_KNOWN = 'Rollcall has no active person with the e-mail address of your Slack account. Ask your Rollcall admin to invite you with that address.';

async function once(deps: SlackDeps, request: VerifiedRequest): Promise<void> {
  if (!(await deps.db.transaction((trx) => takeNonce(trx, signatureNonce(request.signature), deps.now())))) throw unauthorized('credential_expired');
}

async function openNext(deps: SlackDeps, request: VerifiedRequest, person: UserRow): Promise<SlackAnswer> {
  const today = await todayOf(deps.db, person, deps.now());
  const next = today.checkins.find((c) => c.state === 'pending') ?? today.checkins.find((c) => c.state === 'answered');
  if (!next) return ephemeral('Nothing to answer today. `/rollcall status` lists your check-ins.');
  await once(deps, request);
  await openAnswerModal(deps, request, person, next.prompt_uuid ? `p:${next.prompt_uuid}` : `c:${next.uuid}`);
  return ephemeral(`Opening ${next.name} for ${next.date}.`);
}

async function status(deps: SlackDeps, person: UserRow): Promise<SlackAnswer> {
  const today = await todayOf(deps.db, person, deps.now());
  if (today.checkins.length === 0) return ephemeral('No check-ins for you today.');
  const state = { answered: 'answered ✓', pending: 'waiting for your answers', closed: 'answered; the report has gone out' } as const;
  return ephemeral(today.checkins.map((c) => `• *${c.name}* (${c.date}): ${state[c.state]}`).join('\n'));
}

/** `kudos <@U1> <@U2|name> message`: the people by their Slack accounts (or e-mail addresses), then the message. */
async function kudos(deps: SlackDeps, request: VerifiedRequest, person: UserRow, text: string): Promise<SlackAnswer> {
  const receivers: UserRow[] = [];
  const unknown: string[] = [];
  const mentions = [...text.matchAll(/<@([UW][A-Z0-9]+)(?:\|[^>]*)?>|(?<![\w.])([^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)/g)];
  for (const m of mentions) {
    const user = m[1] ? await personOf(deps, request.connection, m[1]) : await deps.db('users').where({ organization_uuid: person.organization_uuid, is_active: true }).whereRaw('lower(email) = ?', [m[2].toLowerCase()]).first();
    if (user) receivers.push(user);
    else unknown.push(m[1] ? `<@${m[1]}>` : m[2]);
  }
  const content = text.replace(/<@[UW][A-Z0-9]+(?:\|[^>]*)?>|(?<![\w.])[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+/g, '').trim();
  if (unknown.length) return ephemeral(`Rollcall does not know ${unknown.join(', ')}: kudos go to people of your organization.`);
  if (receivers.length === 0 || content === '') return ephemeral('Name someone and say why: `/rollcall kudos @someone Thanks for the review!`');
  const organization: OrganizationRow = (await deps.db('organizations').where({ uuid: person.organization_uuid }).first())!;
  const now = deps.now();
  try {
    const given = await deps.db.transaction(async (trx) => {
      if (!(await takeNonce(trx, signatureNonce(request.signature), now))) return null;
      return giveKudos(trx, chatPlatformActor(person, organization, 'slack'), { content, receivers: [...new Set(receivers.map((r) => r.uuid))] }, now);
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

export async function command(deps: SlackDeps, request: VerifiedRequest): Promise<SlackAnswer> {
  const text = typeof request.body.text === 'string' ? request.body.text.trim() : '';
  const person = await personOf(deps, request.connection, request.body.user_id);
  if (!person) return ephemeral(NOT_KNOWN);
  const [word = '', ...rest] = text.split(/\s+/);
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
