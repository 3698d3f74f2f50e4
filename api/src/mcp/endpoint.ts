import type { Context, Middleware, Next } from 'koa';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema, ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, JSONRPCRequest, Tool as ListedTool } from '@modelcontextprotocol/sdk/types.js';
import { isAgentKey } from '../auth/policy.ts';
import { AGENT_HEADER, CLIENT_AGENT_HEADER } from '../http/plan/answers.ts';
import type { Deps } from '../http/deps.ts';
import type { Middlewares } from '../http/middlewares.ts';
import { ApiError } from '../lib/errors.ts';
import { VERSION } from '../lib/version.ts';
import { inputSchema, restCall, toolError, toolResult } from './calls.ts';
import type { Dispatch } from './dispatch.ts';
import { TOOLS } from './tools.ts';
import { clientNameOf, initializeClientName, sessionIdFor } from './client-name.ts';
import { MCP_PATH } from './path.ts';
import { PROMPTS, RESOURCE_TEMPLATES, getPrompt, readResource } from './context.ts';

const INSTRUCTIONS =
  'Rollcall: report your work (report), check in your health (health_check), read and acknowledge the messages people send you, ' +
  'answer your check-ins (list_checkins, get_checkin for a check-in\'s questions, answer_checkin), and pick up Plan tasks (search_tasks, list_board_tasks, get_task, create_task, update_task, move_task, comment_task; board_snapshot and board_delta keep a copy of a board). ' +
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

/** The methods that run REST routes (`dispatch`): each is counted against its route's budget, not against reads. */
const DISPATCHING = new Set(['tools/call', 'resources/read', 'prompts/get']);

/** Whether an /mcp request counts one read: unless every message in it runs a REST route, which counts itself. */
function countsAsRead(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.length === 0 || messages.some((m) => !(m && typeof m === 'object' && DISPATCHING.has((m as { method?: unknown }).method as string)));
}

/** -32602 with one short sentence (the SDK's own check would answer -32603 with its schema's whole report). */
function invalidParams(detail: string): McpError {
  return Object.assign(new McpError(ErrorCode.InvalidParams, detail), { message: `Invalid params: ${detail}` });
}

/** A tools/call's name and arguments, checked: a name, and arguments that are an object (absent: none). */
function toolCallParams(request: JSONRPCRequest): { name: string; args: Record<string, unknown> } {
  const params = request.params as unknown;
  if (!params || typeof params !== 'object' || Array.isArray(params)) throw invalidParams('params must be an object with the tool\'s name and arguments.');
  const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string') throw invalidParams('name must be the name of a tool (a string).');
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) throw invalidParams('arguments must be an object of the tool\'s arguments.');
  return { name, args: (args ?? {}) as Record<string, unknown> };
}

/**
 * The Model Context Protocol endpoint (Streamable HTTP, stateless: every POST is answered on its own, as JSON, so
 * any process behind the load balancer can take it). Every request, whatever its method, is admitted as a REST
 * request is (`authenticate.callerOf`, http/auth.ts): the API's own credential (X-API-KEY or Authorization: Bearer;
 * not the web app's session cookie), the owner and plan checks, the key's scopes, with REST's refusals. A request
 * that runs no REST route (initialize, tools/list, …) counts one unit of the credential's hourly reads; each tool
 * call, resource read and prompt runs its REST route through `dispatch`, so every check of that route applies to
 * it, its budget included.
 */
export function mcpEndpoint(deps: Pick<Deps, 'db' | 'clock' | 'credentialCache' | 'logger'>, mw: Pick<Middlewares, 'authenticate' | 'rateLimit'>, dispatch: Dispatch): Middleware {
  const countRead = mw.rateLimit('reads');
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
    const actor = await mw.authenticate.callerOf(ctx);
    if (countsAsRead(ctx.request.body)) {
      ctx.state.actor = actor;
      await countRead(ctx, () => Promise.resolve());
    }
    // The client's own name attributes its writes when it names no agent (client-name.ts); an agent key is the agent.
    const sessionId = sessionIdFor(initializeClientName(ctx.request.body));
    if (sessionId) ctx.res.setHeader('Mcp-Session-Id', sessionId);
    const namesAgent = ctx.headers[AGENT_HEADER] !== undefined || ctx.headers[CLIENT_AGENT_HEADER] !== undefined;
    const agentName = !namesAgent && !isAgentKey(actor) ? clientNameOf(ctx.headers['mcp-session-id']) : null;

    const server = new Server({ name: 'rollcall', version: VERSION }, { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: VALIDATOR });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: LISTED }));
    // tools/call is checked here, not by the SDK's schema (see invalidParams); any other unknown method is the SDK's.
    server.fallbackRequestHandler = async (request) => {
      if (request.method !== 'tools/call') throw new McpError(ErrorCode.MethodNotFound, 'Method not found');
      const { name, args } = toolCallParams(request);
      return callTool(ctx, name, args, agentName);
    };
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
