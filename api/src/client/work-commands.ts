import { ClientError, EXIT } from './api.ts';
import type { CommandContext } from './context.ts';

interface AgentMessage {
  id: string;
  content: string;
  message_type: string;
  sender_name: string;
  created_at: string;
}

const list = (values: string[] | undefined) => (values ?? []).map((v) => v.trim()).filter((v) => v !== '');

function agentName(flags: { agent?: string }): string {
  const name = flags.agent || process.env.ROLLCALL_AGENT_NAME;
  if (!name) throw new ClientError(EXIT.usage, 'name the agent: --agent NAME, or set ROLLCALL_AGENT_NAME.');
  return name;
}

/** `rollcall update`: a stand-up update into today's check-ins (POST /v1/cli/updates/). */
export async function update(ctx: CommandContext, flags: { done?: string[]; doing?: string[]; blocked?: string[]; message?: string }, words: string[]): Promise<void> {
  const message = flags.message ?? (words.length ? words.join(' ') : undefined);
  const body = { ...(message ? { message } : {}), done: list(flags.done), doing: list(flags.doing), blocked: list(flags.blocked) };
  if (!message && !body.done.length && !body.doing.length && !body.blocked.length) {
    throw new ClientError(EXIT.usage, 'nothing to send: give --done, --doing, --blocked or a message.');
  }
  const answer = await ctx.terminal.spin('Sending', () =>
    ctx.api().call<{ followups_count: number; attached_followups: { followup_name: string; action: string; unanswered_questions?: { question: string }[] }[]; detail: string }>('POST', '/v1/cli/updates/', body),
  );
  if (ctx.json) return ctx.terminal.json(answer);
  if (answer.followups_count === 0) return ctx.terminal.print(answer.detail);
  const names = answer.attached_followups.map((f) => `${f.followup_name} (${f.action === 'created' ? 'new answer' : 'added to your answer'})`);
  ctx.terminal.print(`${ctx.terminal.style('green', '✓')} Sent to ${names.join(', ')}.`);
  // An update fills the questions it fits; the required ones it left empty keep the check-in waiting.
  for (const f of answer.attached_followups) {
    const left = f.unanswered_questions ?? [];
    if (left.length) ctx.terminal.print(`  ${f.followup_name} still waits for: ${left.map((q) => q.question).join('; ')} (rollcall checkins today)`);
  }
}

function printMessages(ctx: CommandContext, messages: AgentMessage[]): void {
  for (const m of messages) {
    ctx.terminal.print(`  ${ctx.terminal.style('dim', m.created_at.slice(0, 16).replace('T', ' '))} ${ctx.terminal.style('bold', m.sender_name)}${m.message_type === 'text' ? '' : ` [${m.message_type}]`}: ${m.content}`);
  }
}

/** `rollcall report`: an agent report (POST /v1/agent-reports/), from text and/or --done, --doing, --blocked. */
export async function report(ctx: CommandContext, flags: { agent?: string; done?: string[]; doing?: string[]; blocked?: string[]; milestone?: boolean }, words: string[]): Promise<void> {
  const structured = { completed: list(flags.done), in_progress: list(flags.doing), blockers: list(flags.blocked) };
  const hasStructure = structured.completed.length + structured.in_progress.length + structured.blockers.length > 0;
  const content = words.join(' ').trim() || [...structured.completed.map((l) => `Done: ${l}`), ...structured.in_progress.map((l) => `Doing: ${l}`), ...structured.blockers.map((l) => `Blocked: ${l}`)].join('\n');
  if (!content) throw new ClientError(EXIT.usage, 'nothing to report: give the report as text, or --done, --doing, --blocked.');
  const body = { agent_name: agentName(flags), content, ...(hasStructure ? { structured } : {}), ...(flags.milestone ? { is_milestone: true } : {}) };
  const answer = await ctx.terminal.spin('Reporting', () => ctx.api().call<{ uuid: string; agent_name: string; pending_messages: AgentMessage[] }>('POST', '/v1/agent-reports/', body));
  if (ctx.json) return ctx.terminal.json(answer);
  ctx.terminal.print(`${ctx.terminal.style('green', '✓')} Report saved for ${answer.agent_name} (${answer.uuid}).`);
  if (answer.pending_messages.length) {
    ctx.terminal.print(`${answer.pending_messages.length} message(s) waiting:`);
    printMessages(ctx, answer.pending_messages);
  }
}

/**
 * `rollcall health`: a health check (POST /v1/agent-health/); prints the messages it hands over. `--unhealthy`
 * names the status the server records (`ok: false`); `--degraded`, its first name, still works.
 */
export async function health(ctx: CommandContext, flags: { agent?: string; unhealthy?: boolean; degraded?: boolean; message?: string }): Promise<void> {
  const body = { agent_name: agentName(flags), ok: !(flags.unhealthy || flags.degraded), ...(flags.message ? { message: flags.message } : {}) };
  const answer = await ctx.terminal.spin('Checking in', () => ctx.api().call<{ agent_name: string; status: string; pending_messages: AgentMessage[] }>('POST', '/v1/agent-health/', body));
  if (ctx.json) return ctx.terminal.json(answer);
  const state = answer.status === 'healthy' ? ctx.terminal.style('green', 'healthy') : ctx.terminal.style('yellow', answer.status);
  ctx.terminal.print(`${answer.agent_name}: ${state}. ${answer.pending_messages.length ? `${answer.pending_messages.length} message(s):` : 'No messages.'}`);
  printMessages(ctx, answer.pending_messages);
}

/** `rollcall messages`: an agent's unread messages (or --all), marked read with --mark-read. */
export async function messages(ctx: CommandContext, flags: { agent?: string; all?: boolean; 'mark-read'?: boolean }): Promise<void> {
  const name = agentName(flags);
  const api = ctx.api();
  const query = `?agent_name=${encodeURIComponent(name)}${flags.all ? '' : '&delivered=false'}`;
  const found = await ctx.terminal.spin('Reading', () => api.call<AgentMessage[]>('GET', `/v1/agent-messages/${query}`));
  const marked = flags['mark-read'] && found.length ? (await api.call<{ updated: number }>('POST', '/v1/agent-messages/read/', { message_ids: found.map((m) => m.id) })).updated : 0;
  if (ctx.json) return ctx.terminal.json(flags['mark-read'] ? { messages: found, marked_read: marked } : found);
  if (found.length === 0) return ctx.terminal.print(`No ${flags.all ? '' : 'unread '}messages for ${name}.`);
  ctx.terminal.print(`${found.length} ${flags.all ? '' : 'unread '}message(s) for ${name}:`);
  printMessages(ctx, found);
  if (flags['mark-read']) ctx.terminal.print(`Marked ${marked} as read.`);
}
