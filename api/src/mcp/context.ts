import type { Context } from 'koa';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { GetPromptResult, Prompt, ReadResourceResult, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { Dispatch, RestAnswer, RestCall } from './dispatch.ts';
import { toolError } from './calls.ts';
import { localDate } from '../lib/dates.ts';

/**
 * Resources and prompts: read-only context an agent pulls in, each again through its REST route (so the same
 * credential, scopes and budgets apply). Stateless: a resource is read on request; there is no subscription
 * (nothing could push a change to a client that holds no session).
 */
export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: 'rollcall://plan/boards/{board}/tasks',
    name: 'board-tasks',
    title: 'A board\'s tasks',
    description: 'The tasks of a Plan board, in board order (GET /v1/plan/boards/{board}/tasks/, first 100).',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'rollcall://checkins/{checkin}/standup',
    name: 'checkin-standup',
    title: 'Today\'s stand-up of a check-in',
    description: 'The answers to a check-in on its own today (the day in the check-in\'s time zone): GET /v1/checkins/{checkin}/responses/ for that day, first 100, with what the caller may read (participants read their team\'s).',
    mimeType: 'application/json',
  },
];

export const PROMPTS: Prompt[] = [
  {
    name: 'standup_from_reports',
    title: 'Write my stand-up from my reports today',
    description: 'Today\'s agent reports (GET /v1/agent-reports/), with the instruction to turn them into a stand-up: done, doing, blockers.',
    arguments: [{ name: 'agent_name', description: 'only this agent\'s reports (default: every agent of the organization)', required: false }],
  },
];

/** A refusal of the API as a JSON-RPC error of a resource read or a prompt, carrying the same fields as a tool error. */
function refused(answer: RestAnswer): McpError {
  const error = toolError(answer).structuredContent as Record<string, unknown>;
  return new McpError(ErrorCode.InvalidParams, `${error.code}: ${error.detail}`, error);
}

async function rest(dispatch: Dispatch, ctx: Context, call: RestCall): Promise<Record<string, unknown>> {
  const answer = await dispatch(ctx, call);
  if (answer.status >= 400) throw refused(answer);
  return answer.body as Record<string, unknown>;
}

const BOARD_TASKS = /^rollcall:\/\/plan\/boards\/([A-Za-z0-9-]+)\/tasks$/;
const CHECKIN_STANDUP = /^rollcall:\/\/checkins\/([A-Za-z0-9-]+)\/standup$/;

/** The REST read behind a resource URI, or null when the URI names none of ours. */
async function resourceBody(dispatch: Dispatch, ctx: Context, uri: string, now: Date): Promise<Record<string, unknown> | null> {
  const board = BOARD_TASKS.exec(uri)?.[1];
  if (board !== undefined) return rest(dispatch, ctx, { method: 'GET', path: `/v1/plan/boards/${board}/tasks/`, query: { page_size: '100' } });
  const checkin = CHECKIN_STANDUP.exec(uri)?.[1];
  if (checkin === undefined) return null;
  // "Today" is the check-in's day, as its answers are dated: read its time zone first (also the visibility check).
  const detail = await rest(dispatch, ctx, { method: 'GET', path: `/v1/checkins/${checkin}/`, query: {} });
  const day = localDate(now, (detail.schedule as { timezone: string }).timezone);
  return rest(dispatch, ctx, { method: 'GET', path: `/v1/checkins/${checkin}/responses/`, query: { date_start: day, date_end: day, page_size: '100' } });
}

export async function readResource(dispatch: Dispatch, ctx: Context, uri: string, now: Date): Promise<ReadResourceResult> {
  const body = await resourceBody(dispatch, ctx, uri, now);
  if (body === null) throw new McpError(ErrorCode.InvalidParams, `not_found: no resource ${uri}`, { code: 'not_found', status: 404 });
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body) }] };
}

export async function getPrompt(dispatch: Dispatch, ctx: Context, name: string, args: Record<string, string>, today: string): Promise<GetPromptResult> {
  if (name !== 'standup_from_reports') throw new McpError(ErrorCode.InvalidParams, `not_found: no prompt ${name}`, { code: 'not_found', status: 404 });
  const query: Record<string, string> = { page_size: '100' };
  if (args.agent_name) query.agent_name = args.agent_name;
  const body = await rest(dispatch, ctx, { method: 'GET', path: '/v1/agent-reports/', query });
  const reports = ((body.results as { created_at?: string; agent_name?: string; content?: string }[] | undefined) ?? []).filter((r) => r.created_at?.startsWith(today));
  const lines = reports.map((r) => `- ${r.created_at} ${r.agent_name}: ${r.content}`).join('\n');
  const text = reports.length
    ? `Write my stand-up for ${today} from these agent reports, as three short lists: done, doing, blockers. Keep each item to one line.\n\n${lines}`
    : `There are no agent reports for ${today}${args.agent_name ? ` from ${args.agent_name}` : ''}. Say so, and ask what I worked on.`;
  return { description: `Stand-up from ${reports.length} reports of ${today}`, messages: [{ role: 'user', content: { type: 'text', text } }] };
}
