import { readSource, sourceFor } from './sources.ts';
import type { Reading } from './sources.ts';
import type { Topic } from './topics.ts';

const CAN_DO = [
  'the check-ins waiting for your answer today ("what is pending?")',
  'blockers you reported ("was I blocked this week?")',
  'your check-in answers ("what did I do yesterday?")',
  'reports your agents sent ("what did my agents report today?")',
  'kudos you received and gave ("any kudos this week?")',
];
const UPDATE_COMMAND = 'rollcall update --done "…" --doing "…" --blocked "…"';

const whatICanDo = () => `I can tell you, from your own data:\n${CAN_DO.map((line) => `- ${line}`).join('\n')}`;

/**
 * The built-in assistant (no LLM_BASE_URL, or the model did not answer): it answers the topics it has data for
 * from the caller's own data, and says plainly what it cannot do. `reading` carries the days asked about.
 */
export async function builtInAnswer(topic: Topic, reading: Reading): Promise<string> {
  const firstName = reading.actor.user.first_name || reading.actor.user.email;
  switch (topic) {
    case 'greeting':
      return `Hello ${firstName}! ${whatICanDo()}`;
    case 'help':
      return `${whatICanDo()}\n\nI cannot make changes. To send a stand-up update, run: ${UPDATE_COMMAND}`;
    case 'change_request':
      return `I cannot make changes from the chat. To send a stand-up update into today's check-ins, run: ${UPDATE_COMMAND}`;
    case 'unknown':
      return `I cannot answer that: without a language model (the server's LLM_BASE_URL is not set) I only know your own data. ${whatICanDo()}`;
    default:
      return answerFromSource(topic, reading);
  }
}

async function answerFromSource(topic: Topic, reading: Reading): Promise<string> {
  const source = sourceFor(topic);
  if (!source) return whatICanDo();
  if (source.unavailable) return source.unavailable;
  const found = (await readSource(source, reading))!;
  if (found.total === 0) return source.nothing!(reading.range);
  const more = found.total > found.lines.length ? `\n…and ${found.total - found.lines.length} more.` : '';
  return `${source.intro!(found.total, reading.range)}\n${found.lines.map((line) => `- ${line}`).join('\n')}${more}`;
}

/** What the caller's client could run next, filtered to the commands it says it has (`available_commands`). */
export function suggestedActions(topic: Topic, available: unknown[] | undefined): { type: 'command'; command: string; description: string }[] {
  const suggestions =
    topic === 'pending_checkins' || topic === 'change_request' || topic === 'help'
      ? [{ type: 'command' as const, command: 'rollcall update', description: 'Send a stand-up update into today\'s check-ins' }]
      : [];
  if (!available) return suggestions;
  const names = new Set(
    available
      .map((entry) => (typeof entry === 'string' ? entry : typeof entry === 'object' && entry ? String((entry as Record<string, unknown>).name ?? (entry as Record<string, unknown>).command ?? '') : ''))
      .map((name) => name.replace(/^rollcall\s+/, '').trim().toLowerCase()),
  );
  return suggestions.filter((s) => names.has(s.command.replace(/^rollcall\s+/, '')));
}
