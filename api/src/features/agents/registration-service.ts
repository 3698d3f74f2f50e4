import { randomInt } from 'node:crypto';
import type { Db, Executor } from '../../db/connection.ts';
import { ValidationFailed, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { randomBase62, sha256Hex } from '../../lib/secrets.ts';
import { isValidTimeZone } from '../../lib/time.ts';
import type { Actor } from '../../auth/credentials.ts';
import { assertActor } from '../../auth/policy.ts';
import { issueKey } from '../api-keys/service.ts';
import { createOrganization } from '../organization/service.ts';
import { createUser } from '../users/repository.ts';
import { assertAgentName, ensureAgent, inboxAddress } from './identity.ts';
import type { ClaimInput, RegisterInput } from './schema.ts';
import type { AgentRow } from '../../db/tables.ts';

export const CHALLENGE_TTL_MS = 10 * 60_000;
export const CHALLENGE_FACTOR = 52;

/** GET /v1/agent/register/challenge/ (CONTRACT §6, §12): the instruction says `session is <N>.`; the answer is N × 52. */
export async function createChallenge(db: Db, now: Date) {
  const n = randomInt(100, 10_000);
  const uuid = uuidv7(now.getTime());
  const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_MS).toISOString();
  await db('agent_registration_challenges').insert({
    uuid,
    answer_hash: sha256Hex(String(n * CHALLENGE_FACTOR)),
    expires_at: expiresAt,
    used_at: null,
    created_at: now.toISOString(),
  });
  return { uuid, number: n, expiresAt };
}

/**
 * POST /v1/agent/register/ : a solved challenge creates a free-plan organization owned by an unclaimed agent key
 * (the agent's own user, named after it, with the agent's inbox as its address). The claim token is shown once.
 */
export async function register(db: Db, input: RegisterInput, options: { inboundDomain: string }, now: Date) {
  assertAgentName(input.agent_name);
  if (!isValidTimeZone(input.timezone)) throw new ValidationFailed({ timezone: ['Enter a valid IANA time zone, for example Europe/Paris.'] });
  return db.transaction(async (trx) => {
    const challenge = await trx('agent_registration_challenges').where({ uuid: input.challenge_id }).first();
    if (!challenge || challenge.used_at) {
      throw badRequest('challenge_invalid', 'Unknown or already used challenge_id; request a new challenge.', { parameter: 'challenge_id' });
    }
    await trx('agent_registration_challenges').where({ uuid: challenge.uuid }).update({ used_at: now.toISOString() });
    if (String(challenge.expires_at) <= now.toISOString()) {
      throw badRequest('challenge_expired', 'The challenge has expired; request a new one.', { parameter: 'challenge_id' });
    }
    if (sha256Hex(String(Number(String(input.answer).trim()))) !== challenge.answer_hash) {
      throw badRequest('challenge_failed', 'Wrong answer; request a new challenge.', { parameter: 'answer' });
    }
    const org = await createOrganization(trx, { name: input.org_name, plan: 'free', timezone: input.timezone }, now);
    const agent = await ensureAgent(trx, org.uuid, input.agent_name, now);
    const agentEmail = inboxAddress(agent.slug, org.slug, options.inboundDomain);
    const user = await createUser(
      trx,
      { organizationUuid: org.uuid, email: agentEmail, firstName: input.agent_name.slice(0, 150), lastName: '', role: 'admin', timezone: input.timezone },
      now,
    );
    const key = await issueKey(trx, { organizationUuid: org.uuid, ownerUuid: user.uuid, kind: 'agent', name: `agent: ${input.agent_name}`.slice(0, 200) }, now);
    const claimToken = `rclaim_${randomBase62(40)}`;
    await trx('agents')
      .where({ uuid: agent.uuid })
      .update({ claim_token_hash: sha256Hex(claimToken), contact_email: input.contact_email ?? null, updated_at: now.toISOString() });
    return { agentName: agent.name, agentEmail, orgName: org.name, apiKey: key.secret, claimToken };
  });
}

/**
 * POST /v1/agent/claim/ : a person attaches a self-registered agent to their organization. The agent, its
 * reports, messages and e-mails, and its agent keys move over; the keys are owned by the claimer from then on.
 */
/** What an unclaimed agent's claim link names (its agent and the organization it made); 404 for any other token. */
export async function claimable(db: Executor, token: string): Promise<{ agentName: string; orgName: string }> {
  const agent = await db('agents as a')
    .join('organizations as o', 'o.uuid', 'a.organization_uuid')
    .where('a.claim_token_hash', sha256Hex(token.trim()))
    .first('a.name as agent_name', 'o.name as org_name');
  if (!agent) throw notFound();
  return { agentName: agent.agent_name, orgName: agent.org_name };
}

export async function claim(db: Db, actor: Actor, input: ClaimInput, now: Date) {
  assertActor(actor, 'Claiming an agent needs a person: sign in, or use a personal API key.');
  return db.transaction(async (trx) => {
    const agent: AgentRow | undefined = await trx('agents').where({ claim_token_hash: sha256Hex(input.claim_token.trim()) }).first();
    if (!agent) throw notFound();
    const target = actor.organization.uuid;
    let slug = agent.slug;
    if (agent.organization_uuid !== target) {
      const clash = await trx('agents').where({ organization_uuid: target, name: agent.name }).first('uuid');
      if (clash) throw conflict('agent_name_conflict', `Your organization already has an agent named "${agent.name}".`);
      for (let n = 1; ; n++) {
        const candidate = n === 1 ? agent.slug : `${agent.slug}-${n}`;
        if (!(await trx('agents').where({ organization_uuid: target, slug: candidate }).first('uuid'))) {
          slug = candidate;
          break;
        }
      }
      const from = agent.organization_uuid;
      for (const table of ['agent_reports', 'agent_messages', 'agent_emails']) {
        await trx(table).where({ agent_uuid: agent.uuid }).update({ organization_uuid: target });
      }
      await trx('api_keys').where({ organization_uuid: from, kind: 'agent' }).update({ organization_uuid: target, owner_uuid: actor.user.uuid });
    }
    await trx('agents')
      .where({ uuid: agent.uuid })
      .update({ organization_uuid: target, slug, claim_token_hash: null, claimed_at: now.toISOString(), updated_at: now.toISOString() });
    return { agentName: agent.name, organization: actor.organization, claimedAt: now };
  });
}
