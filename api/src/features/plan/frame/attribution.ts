import type { Actor } from '../../../auth/credentials.ts';
import { isAgentKey } from '../../../auth/policy.ts';
import type { Executor } from '../../../db/connection.ts';
import { badRequest } from '../../../lib/errors.ts';
import { bool } from '../../../lib/json.ts';
import { agentNameProblem, findAgent } from '../../agents/identity.ts';

const refuse = (detail: string) => badRequest('invalid_agent_attribution', detail, { parameter: 'X-Service-Agent-Name' });

/**
 * Reads `X-Service-Agent-Name`: percent-encoded UTF-8 (so the raw header is ASCII), decoded, then held to the
 * spec's alphabet and 128 characters; never truncated. Null when the header is absent. Each refusal is 400
 * `invalid_agent_attribution` whose detail names the case.
 */
export function decodeAgentHeader(raw: string | string[] | undefined): string | null {
  if (raw === undefined) return null;
  if (Array.isArray(raw)) throw refuse('Send X-Service-Agent-Name once.');
  // eslint-disable-next-line no-control-regex
  if (/[^\x20-\x7e]/.test(raw)) throw refuse('X-Service-Agent-Name must be percent-encoded UTF-8 (ASCII on the wire).');
  let name: string;
  try {
    name = decodeURIComponent(raw);
  } catch {
    throw refuse('X-Service-Agent-Name is not decodable as percent-encoded UTF-8.');
  }
  const problem = agentNameProblem(name);
  if (problem) throw refuse(problem);
  return name;
}

/**
 * The agent a change is attributed to, beside the person whose credential made it. An agent-type key already is
 * the agent and may not name one; a name of a deactivated agent is refused. A name the organization has not seen
 * is recorded as given (agents come into being on their first report or health check).
 */
export async function resolveAgentName(db: Executor, actor: Actor, raw: string | string[] | undefined): Promise<string | null> {
  const name = decodeAgentHeader(raw);
  if (name === null) return null;
  if (isAgentKey(actor)) {
    throw refuse('An agent key is the agent itself: it may not send X-Service-Agent-Name.');
  }
  const agent = await findAgent(db, actor.organization.uuid, name);
  if (agent && !bool(agent.is_active)) throw refuse(`The agent "${name}" is deactivated.`);
  return name;
}
