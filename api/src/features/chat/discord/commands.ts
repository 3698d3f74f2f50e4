import { ApiError, ValidationFailed, badRequest } from '../../../lib/errors.ts';
import { fullName } from '../../../lib/names.ts';
import { chatPlatformActor } from '../../../auth/credentials.ts';
import { takeNonce } from '../../chat-platform/nonces.ts';
import { linkPageUrl, linkedUser, requestLink } from '../../chat-platform/linked-accounts.ts';
import type { ChatConnection } from '../../chat-platform/connection.ts';
import { todayOf } from '../../checkin-runs/chat-answers.ts';
import { giveKudos } from '../../kudos/service.ts';
import type { OrganizationRow, UserRow } from '../../../db/tables.ts';
import { ephemeral, openCheckinForm } from './answers.ts';
import type { DiscordAnswer } from './answers.ts';
import { isObject } from './requests.ts';
import type { DiscordDeps } from './requests.ts';
import { unauthorized } from '../../../lib/errors.ts';

/**
 * The `/rollcall` command (an application command with subcommands, as Discord has no free text after a command):
 * `answer` opens the person's next check-in of today in the form, `status` lists today's check-ins, `kudos` gives
 * kudos through the kudos service (to the person chosen, and anyone mentioned in the message), `link` links the
 * person's Discord account to Rollcall, `help` says so. Every answer is ephemeral. The command is registered
 * once with the definition below (docs/chat.md, "Discord").
 */
export const ROLLCALL_COMMAND = {
  name: 'rollcall',
  description: 'Your check-ins in Rollcall',
  type: 1,
  contexts: [0, 1],
  options: [
    { type: 1, name: 'answer', description: 'Answer your next check-in of today' },
    { type: 1, name: 'status', description: 'Your check-ins of today and where each stands' },
    {
      type: 1, name: 'kudos', description: 'Give kudos',
      options: [
        { type: 6, name: 'to', description: 'Who the kudos are for (mention more people in the message)', required: true },
        { type: 3, name: 'message', description: 'What for', required: true, max_length: 1000 },
      ],
    },
    { type: 1, name: 'link', description: 'Link your Discord account to Rollcall (once)' },
    { type: 1, name: 'help', description: 'What /rollcall does' },
  ],
};

export const HELP = [
  '**/rollcall answer** opens your next check-in of today.',
  '**/rollcall status** lists your check-ins of today.',
  '**/rollcall kudos** gives kudos (mention more people in the message to thank several).',
  '**/rollcall link** links your Discord account to Rollcall: do it once, then your check-ins come here.',
  '**/rollcall help** shows this.',
].join('\n');

export const NOT_LINKED = 'Your Discord account is not linked to Rollcall yet. Type `/rollcall link`, open the link it gives you and confirm, signed in to Rollcall. Then your check-ins come here.';

const publicBase = (deps: DiscordDeps) => deps.config.publicUrl ?? `http://localhost:${deps.config.port}`;

async function link(deps: DiscordDeps, connection: ChatConnection, user: { id: string; name: string }, nonce: string): Promise<DiscordAnswer> {
  const now = deps.now();
  const token = await deps.db.transaction(async (trx) => {
    if (!(await takeNonce(trx, nonce, now))) throw unauthorized('credential_expired');
    return requestLink(trx, { organizationUuid: connection.organizationUuid, platform: 'discord', externalId: user.id, externalName: user.name }, now);
  });
  const url = linkPageUrl(publicBase(deps), token);
  return ephemeral(
    `Open this link, signed in to Rollcall, and confirm: your Discord account **${user.name}** is then linked to you. It works once, for 15 minutes; only you see it.\n${url}`,
    [{ type: 1, components: [{ type: 2, style: 5, label: 'Link my account', url }] }],
  );
}

/** Takes an interaction that changes nothing once too: the same interaction again is refused (401), whatever it asks. */
export async function takeOnce(deps: DiscordDeps, nonce: string): Promise<void> {
  if (!(await deps.db.transaction((trx) => takeNonce(trx, nonce, deps.now())))) throw unauthorized('credential_expired');
}

async function status(deps: DiscordDeps, person: UserRow, nonce: string): Promise<DiscordAnswer> {
  await takeOnce(deps, nonce);
  const today = await todayOf(deps.db, person, deps.now());
  if (today.checkins.length === 0) return ephemeral('No check-ins for you today.');
  const state = { answered: 'answered ✓', pending: 'waiting for your answers', closed: 'answered; the report has gone out' } as const;
  return ephemeral(today.checkins.map((c) => `- **${c.name}** (${c.date}): ${state[c.state]}`).join('\n').slice(0, 2000));
}

async function answerNext(deps: DiscordDeps, person: UserRow, nonce: string): Promise<DiscordAnswer> {
  const today = await todayOf(deps.db, person, deps.now());
  const next = today.checkins.find((c) => c.state === 'pending') ?? today.checkins.find((c) => c.state === 'answered');
  if (!next) {
    await takeOnce(deps, nonce);
    return ephemeral('Nothing to answer today. `/rollcall status` lists your check-ins.');
  }
  return openCheckinForm(deps, person, next.prompt_uuid ? { prompt: next.prompt_uuid } : { checkin: next.uuid }, nonce);
}

const optionsOf = (node: unknown): Record<string, unknown>[] => (isObject(node) && Array.isArray(node.options) ? node.options.filter(isObject).slice(0, 10) : []);

/** Kudos to `to` and anyone mentioned (`<@id>`) in the message: people whose linked account it is. */
async function kudos(deps: DiscordDeps, connection: ChatConnection, person: UserRow, sub: Record<string, unknown>, data: Record<string, unknown>, nonce: string): Promise<DiscordAnswer> {
  const options = optionsOf(sub);
  const to = options.find((o) => o.name === 'to')?.value;
  const message = options.find((o) => o.name === 'message')?.value;
  if (typeof to !== 'string' || typeof message !== 'string') return ephemeral('Choose someone and say why: `/rollcall kudos to:@someone message:Thanks for the review!`');
  const mentioned = [...message.matchAll(/<@!?(\d{15,21})>/g)].map((m) => m[1]);
  const ids = [...new Set([to, ...mentioned])].slice(0, 20);
  const resolved = isObject(data.resolved) && isObject(data.resolved.users) ? data.resolved.users : {};
  const nameOf = (id: string) => {
    const u = Object.hasOwn(resolved, id) ? resolved[id] : null;
    return isObject(u) && typeof u.username === 'string' ? `@${u.username}` : `<@${id}>`;
  };
  const receivers: UserRow[] = [];
  const unknown: string[] = [];
  for (const id of ids) {
    const user = await linkedUser(deps.db, connection.organizationUuid, 'discord', id);
    if (user) receivers.push(user);
    else unknown.push(nameOf(id));
  }
  if (unknown.length) return ephemeral(`${unknown.join(', ')} ${unknown.length === 1 ? 'has' : 'have'} not linked a Discord account to Rollcall (\`/rollcall link\`): kudos go to people of your organization.`);
  const content = message.replace(/<@!?\d{15,21}>/g, '').replace(/\s+/g, ' ').trim();
  if (content === '') return ephemeral('Say why: `/rollcall kudos to:@someone message:Thanks for the review!`');
  const organization: OrganizationRow = (await deps.db('organizations').where({ uuid: person.organization_uuid }).first())!;
  const now = deps.now();
  try {
    const given = await deps.db.transaction(async (trx) => {
      if (!(await takeNonce(trx, nonce, now))) throw unauthorized('credential_expired');
      return giveKudos(trx, chatPlatformActor(person, organization, 'discord'), { content, receivers: [...new Set(receivers.map((r) => r.uuid))] }, now);
    });
    deps.kick();
    return ephemeral(`🎉 Kudos sent to ${given.receivers.map((r) => fullName(r)).join(', ')}.`);
  } catch (err) {
    if (err instanceof ApiError && err.status !== 401) return ephemeral(err.message);
    if (err instanceof ValidationFailed) return ephemeral(Object.values(err.fields).flat().join(' '));
    throw err;
  }
}

/** `/rollcall …` (interaction type 2). */
export async function command(deps: DiscordDeps, connection: ChatConnection, user: { id: string; name: string }, data: Record<string, unknown>, nonce: string): Promise<DiscordAnswer> {
  if (data.name !== 'rollcall') throw badRequest('malformed_request', 'Rollcall has one command: /rollcall.');
  const sub = optionsOf(data)[0];
  const name = typeof sub?.name === 'string' ? sub.name : 'help';
  if (name === 'link') return link(deps, connection, user, nonce);
  const person = await linkedUser(deps.db, connection.organizationUuid, 'discord', user.id);
  if (name === 'help' || !person) {
    await takeOnce(deps, nonce);
    return ephemeral(name === 'help' ? HELP : NOT_LINKED);
  }
  if (name === 'status') return status(deps, person, nonce);
  if (name === 'answer') return answerNext(deps, person, nonce);
  if (name === 'kudos') return kudos(deps, connection, person, sub, data, nonce);
  await takeOnce(deps, nonce);
  return ephemeral(`Unknown: \`/rollcall ${name.slice(0, 40)}\`.\n${HELP}`);
}
