import type { Context, Middleware, Next } from 'koa';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema, GetPromptRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema, ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool as ListedTool } from '@modelcontextprotocol/sdk/types.js';
import { lookupCredential, presentedCredential } from '../auth/credentials.ts';
import type { Actor } from '../auth/credentials.ts';
import { isAgentKey } from '../auth/policy.ts';
import { AGENT_HEADER } from '../http/plan/answers.ts';
import type { Deps } from '../http/deps.ts';
import { ApiError, badRequest, unauthorized } from '../lib/errors.ts';
import { VERSION } from '../lib/version.ts';
import { inputSchema, restCall, toolError, toolResult } from './calls.ts';
import type { Dispatch } from './dispatch.ts';
import { TOOLS } from './tools.ts';
import { clientNameOf, initializeClientName, sessionIdFor } from './client-name.ts';
import { MCP_PATH } from './path.ts';
import { PROMPTS, RESOURCE_TEMPLATES, getPrompt, readResource } from './context.ts';

const INSTRUCTIONS =
  'Rollcall: report your work (report), check in your health (health_check), read and acknowledge the messages people send you, ' +
  'answer your check-ins (list_checkins, answer_checkin), and pick up Plan tasks (search_tasks, list_board_tasks, get_task, create_task, update_task, move_task, comment_task; board_snapshot and board_delta keep a copy of a board). ' +
  'A refusal is a tool error whose structured content carries the API\'s code and detail; a 429 carries retry_after in seconds.';

/** The listed tools, built once: their input schemas come from the routes' yup schemas. */
const LISTED: ListedTool[] = TOOLS.map((tool) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: inputSchema(tool) as ListedTool['inputSchema'],
  annotations: { title: tool.title, ...tool.annotations },
}));
const BY_NAME = new Map(TOOLS.map((tool) => [tool.name, tool]));
/**
 * One JSON Schema validator for every request: the SDK builds a new Ajv instance per Server otherwise, which was
 * 9% of the server's CPU on a stream of tool calls (a Server is built per request: the transport is stateless).
 */
const VALIDATOR = new AjvJsonSchemaValidator();

/**
 * The Model Context Protocol endpoint (Streamable HTTP, stateless: every POST is answered on its own, as JSON, so
 * any process behind the load balancer can take it). The request's credential is the API's own (X-API-KEY or
 * Authorization: Bearer); a missing or unknown one is refused here with the REST answer (401). Each tool call
 * then runs its REST route through `dispatch`, so every check of that route applies to it.
 */
export function mcpEndpoint(deps: Pick<Deps, 'db' | 'clock' | 'credentialCache' | 'logger'>, dispatch: Dispatch): Middleware {
  async function callTool(ctx: Context, name: string, args: Record<string, unknown>, agentName: string | null): Promise<CallToolResult> {
    const tool = BY_NAME.get(name);
    if (!tool) return toolError({ status: 404, body: { detail: `There is no tool named ${name}.`, code: 'unknown_tool' }, headers: {} });
    const call = restCall(tool, args);
    if ('status' in call) return toolError(call);
    if (agentName !== null) call.headers = { ...call.headers, [AGENT_HEADER]: encodeURIComponent(agentName) };
    const answer = await dispatch(ctx, call);
    return answer.status >= 400 ? toolError(answer) : toolResult(tool, answer);
  }

  // Not async: every other request passes through without a promise of its own.
  return function mcp(ctx: Context, next: Next): Promise<void> {
    return ctx.path === MCP_PATH ? answer(ctx) : next();
  };

  async function answer(ctx: Context): Promise<void> {
    // The metrics' route label (http/request-context.ts), as a router sets it.
    (ctx as Context & { _matchedRoute?: string })._matchedRoute = MCP_PATH;
    if (ctx.method !== 'POST') {
      // Stateless: no stream to resume (GET) and no session to end (DELETE).
      ctx.set('Allow', 'POST');
      throw new ApiError(405, 'method_not_allowed', `Method "${ctx.method}" not allowed: ${MCP_PATH} takes POST (Streamable HTTP, stateless).`);
    }
    const actor = await requireKnownCredential(deps, ctx);
    // The client's own name attributes its writes when it names no agent (client-name.ts); an agent key is the agent.
    const sessionId = sessionIdFor(initializeClientName(ctx.request.body));
    if (sessionId) ctx.res.setHeader('Mcp-Session-Id', sessionId);
    const agentName = ctx.headers[AGENT_HEADER] === undefined && !isAgentKey(actor) ? clientNameOf(ctx.headers['mcp-session-id']) : null;

    const server = new Server({ name: 'rollcall', version: VERSION }, { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: VALIDATOR });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: LISTED }));
    server.setRequestHandler(CallToolRequestSchema, (request) => callTool(ctx, request.params.name, request.params.arguments ?? {}, agentName));
    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
    server.setRequestHandler(ReadResourceRequestSchema, (request) => readResource(dispatch, ctx, request.params.uri, deps.clock.now()));
    server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: PROMPTS }));
    server.setRequestHandler(GetPromptRequestSchema, (request) =>
      getPrompt(dispatch, ctx, request.params.name, request.params.arguments ?? {}, deps.clock.now().toISOString().slice(0, 10)),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    ctx.res.on('close', () => void server.close());
    await server.connect(transport);
    ctx.respond = false;
    await transport.handleRequest(ctx.req, ctx.res, ctx.request.body);
  }
}

/** A present, well-formed, known credential (the plan and scope checks are each tool's REST route's). */
async function requireKnownCredential(deps: Pick<Deps, 'db' | 'clock' | 'credentialCache'>, ctx: Context): Promise<Actor> {
  const presented = presentedCredential(ctx.headers);
  if (presented === 'absent') throw unauthorized('credential_absent');
  if (presented === 'malformed') throw unauthorized('credential_malformed');
  if (presented === 'ambiguous') throw badRequest('credential_ambiguous', 'Send one credential: X-API-KEY or Authorization: Bearer, not both.');
  const now = deps.clock.now();
  const cached = deps.credentialCache.get(presented.hash, now.getTime());
  if (cached) return cached;
  const generation = deps.credentialCache.generation;
  const resolution = await lookupCredential(deps.db, presented, now);
  if (!resolution.ok) throw unauthorized(resolution.code);
  deps.credentialCache.set(presented.hash, resolution.actor, now.getTime(), generation);
  return resolution.actor;
}
