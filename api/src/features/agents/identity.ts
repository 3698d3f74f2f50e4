import type { Executor } from '../../db/connection.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { bool } from '../../lib/json.ts';
import { slugify } from '../organization/service.ts';
import type { AgentRow } from '../../db/tables.ts';

export const AGENT_NAME_MAX = 128;
/** The spec's attribution alphabet (`invalid_agent_attribution`): letters, digits, space and . - _ ( ) ' # + / & , : */
const AGENT_NAME_PATTERN = /^[\p{L}\p{M}\p{Nd} .\-_()'#+/&,:]+$/u;

/** Why `name` is not a valid agent name, or null. Names are matched exactly and never truncated or trimmed. */
export function agentNameProblem(name: string): string | null {
  if (name.length === 0) return 'The agent name must not be empty.';
  if ([...name].length > AGENT_NAME_MAX) return `The agent name must have at most ${AGENT_NAME_MAX} characters; it is never truncated.`;
  if (!AGENT_NAME_PATTERN.test(name)) {
    return "The agent name may only contain letters, digits, spaces and . - _ ( ) ' # + / & , :";
  }
  if (name.trim() === '') return 'The agent name must contain a letter or digit.';
  return null;
}

/** 400 `invalid_agent_attribution` naming the field (spec Errors, CONTRACT §6). */
export function assertAgentName(name: string, parameter = 'agent_name'): void {
  const problem = agentNameProblem(name);
  if (problem) throw badRequest('invalid_agent_attribution', problem, { parameter });
}

export async function findAgent(db: Executor, organizationUuid: string, name: string): Promise<AgentRow | null> {
  return (await db('agents').where({ organization_uuid: organizationUuid, name }).first()) ?? null;
}

/** The agent of that exact name, or 404. A deactivated agent answers `invalid_agent_attribution`. */
export async function requireAgent(db: Executor, organizationUuid: string, name: string): Promise<AgentRow> {
  assertAgentName(name);
  const agent = await findAgent(db, organizationUuid, name);
  if (!agent) throw notFound();
  assertActive(agent);
  return agent;
}

function assertActive(agent: AgentRow): void {
  if (!bool(agent.is_active)) {
    throw badRequest('invalid_agent_attribution', `The agent "${agent.name}" is deactivated.`, { parameter: 'agent_name' });
  }
}

async function uniqueAgentSlug(db: Executor, organizationUuid: string, name: string): Promise<string> {
  const base = slugify(name).slice(0, 56) || 'agent';
  const base2 = base === 'org' && !/org/i.test(name) ? 'agent' : base;
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base2 : `${base2}-${n}`;
    const taken = await db('agents').where({ organization_uuid: organizationUuid, slug: candidate }).first('uuid');
    if (!taken) return candidate;
  }
}

/** Finds or creates the agent (CONTRACT §6: created on first interaction, matched on the exact name). */
export async function ensureAgent(db: Executor, organizationUuid: string, name: string, now: Date): Promise<AgentRow> {
  assertAgentName(name);
  const existing = await findAgent(db, organizationUuid, name);
  if (existing) {
    assertActive(existing);
    return existing;
  }
  const row: AgentRow = {
    uuid: uuidv7(now.getTime()),
    organization_uuid: organizationUuid,
    name,
    slug: await uniqueAgentSlug(db, organizationUuid, name),
    is_active: true,
    status: null,
    status_message: null,
    last_check_at: null,
    webhook_url: null,
    webhook_secret_encrypted: null,
    webhook_registered_at: null,
    claim_token_hash: null,
    contact_email: null,
    claimed_at: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await db('agents').insert(row);
  return row;
}

/** The agent's inbox (CONTRACT §6): `<agent-slug>.<org-slug>@<INBOUND_EMAIL_DOMAIN>`. */
export const inboxAddress = (agentSlug: string, orgSlug: string, domain: string): string =>
  `${agentSlug}.${orgSlug}@${domain}`.toLowerCase();
