import type { Context } from 'koa';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { GetPromptResult, Prompt, ReadResourceResult, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { Dispatch, RestAnswer, RestCall } from './dispatch.ts';
import { toolError } from './calls.ts';

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

const BOARD_TASKS = /^rollcall:\/\/plan\/boards\/([^/?#]+)\/tasks$/;

export async function readResource(dispatch: Dispatch, ctx: Context, uri: string): Promise<ReadResourceResult> {
  const board = BOARD_TASKS.exec(uri)?.[1];
  if (board === undefined || !/^[A-Za-z0-9-]+$/.test(board)) throw new McpError(ErrorCode.InvalidParams, `not_found: no resource ${uri}`, { code: 'not_found', status: 404 });
  const body = await rest(dispatch, ctx, { method: 'GET', path: `/v1/plan/boards/${board}/tasks/`, query: { page_size: '100' } });
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
