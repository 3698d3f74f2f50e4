import { randomUUID } from 'node:crypto';
import { agentNameProblem } from '../features/agents/identity.ts';

/**
 * The agent name an MCP client gives itself (`clientInfo.name` of its `initialize`), carried to its later requests.
 *
 * The server is stateless, and only `initialize` carries `clientInfo`: a tool call says nothing of its client. So
 * the answer to `initialize` gives the client an `Mcp-Session-Id`, which every client sends back on each later
 * request (the protocol requires it), holding a random part and the name itself: any process reads the name back
 * from the header with nothing stored. It is what the client declared, no more trusted than an
 * `X-Service-Agent-Name` header it could send instead; the credential still decides what the call may do.
 */

const SEPARATOR = '.';

/** `clientInfo.name` of an `initialize` request body (or of one in a batch); undefined for any other request. */
export function initializeClientName(body: unknown): string | undefined {
  for (const message of Array.isArray(body) ? body : [body]) {
    if (!isRecord(message) || message.method !== 'initialize' || !isRecord(message.params)) continue;
    const info = Object.hasOwn(message.params, 'clientInfo') ? message.params.clientInfo : undefined;
    const name = isRecord(info) && Object.hasOwn(info, 'name') ? info.name : undefined;
    return typeof name === 'string' ? name : undefined;
  }
  return undefined;
}

/** The session id given at `initialize`: visible ASCII, a random uuid and the name in base64url. None for a name Rollcall would refuse. */
export function sessionIdFor(clientName: string | undefined): string | undefined {
  if (clientName === undefined || agentNameProblem(clientName) !== null) return undefined;
  return `${randomUUID()}${SEPARATOR}${Buffer.from(clientName, 'utf8').toString('base64url')}`;
}

/** The client's name from the `Mcp-Session-Id` a request sends back; null when it holds none (or not one of ours). */
export function clientNameOf(sessionId: string | string[] | undefined): string | null {
  if (typeof sessionId !== 'string' || sessionId.length > 1024) return null;
  const encoded = sessionId.split(SEPARATOR)[1];
  if (!encoded || !/^[A-Za-z0-9_-]+$/.test(encoded)) return null;
  const name = Buffer.from(encoded, 'base64url').toString('utf8');
  return agentNameProblem(name) === null ? name : null;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
