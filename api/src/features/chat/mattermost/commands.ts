import { todayOf } from '../../checkin-runs/chat-answers.ts';
import type { UserRow } from '../../../db/tables.ts';
import { openAnswerDialog } from './interactions.ts';
import type { MattermostAnswer } from './interactions.ts';
import { answerValue } from './messages.ts';
import { NOT_KNOWN, personOf } from './people.ts';
import { verifyCommand } from './requests.ts';
import type { MattermostDeps, VerifiedRequest } from './requests.ts';

/**
 * The `/rollcall` slash command (POST /v1/integrations/mattermost/commands/): alone, it opens the person's next
 * check-in of today in the dialog; `status` lists today's check-ins; `help` says so. Every answer is ephemeral.
 */
const ephemeral = (text: string): MattermostAnswer => ({ status: 200, body: { response_type: 'ephemeral', text } });

export const HELP = [
  '**/rollcall** opens your next check-in of today.',
  '**/rollcall status** lists your check-ins of today.',
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

export async function command(deps: MattermostDeps, raw: string, headers: Record<string, string | string[] | undefined>): Promise<MattermostAnswer> {
  const request = await verifyCommand(deps, raw, headers);
  const person = await personOf(deps, request.connection, request.body.user_id);
  if (!person) return ephemeral(NOT_KNOWN);
  const word = (typeof request.body.text === 'string' ? request.body.text.trim() : '').split(/\s+/)[0] ?? '';
  switch (word.toLowerCase()) {
    case '':
      return openNext(deps, request, person);
    case 'status':
      return status(deps, person);
    case 'help':
      return ephemeral(HELP);
    default:
      return ephemeral(`Unknown: \`/rollcall ${word.slice(0, 40)}\`.\n${HELP}`);
  }
}
