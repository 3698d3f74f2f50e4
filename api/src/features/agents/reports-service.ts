import type { Executor, Trx } from '../../db/connection.ts';
import type { GroupCommit } from '../../db/group-commit.ts';
import type { PageRequest } from '../../lib/page.ts';
import { isUuid, uuidv7 } from '../../lib/ids.ts';
import { writeJson } from '../../lib/json.ts';
import type { Actor } from '../../auth/credentials.ts';
import { activeDailyStandup, mergeIntoTodaysResponse } from '../checkins/standup.ts';
import type { MergeLines } from '../checkins/standup.ts';
import { fullName } from '../users/repository.ts';
import { assertAgentName, ensureAgent, findAgent } from './identity.ts';
import type { CoAuthor } from './presenter.ts';
import { pendingMessages } from './messages-service.ts';
import type { ReportInput } from './schema.ts';
import type { MessageRow, ReportRow, UserRow } from '../../db/tables.ts';

export const FREE_PLAN_AGENT_REPORTS_DAILY_CAP = 50;
const looksLikeUuid = (value: string): boolean => isUuid(value);

/**
 * Co-authors by uuid or e-mail, mixed (spec "Agent report"): active members of the caller's organization, in
 * the order given, each once. Identifiers that resolve to nobody are silently ignored.
 */
/**
 * The organization's active users the identifiers name (uuids and e-mail addresses, mixed), in the order given,
 * each once; and the identifiers that named nobody, as sent, so the answer can say which were not resolved.
 */
export async function resolveCoAuthors(db: Executor, organizationUuid: string, identifiers: string[]): Promise<{ users: UserRow[]; unresolved: string[] }> {
  const keyOf = (id: string) => (looksLikeUuid(id) ? id.toLowerCase() : id.trim().toLowerCase());
  const uuids = identifiers.filter((id) => looksLikeUuid(id)).map(keyOf);
  const emails = identifiers.filter((id) => !looksLikeUuid(id) && id.includes('@')).map(keyOf);
  const users: UserRow[] =
    uuids.length === 0 && emails.length === 0
      ? []
      : await db('users')
          .where({ organization_uuid: organizationUuid, is_active: true })
          .andWhere((q) => {
            if (uuids.length) q.orWhereIn('uuid', uuids);
            if (emails.length) q.orWhereIn('email', emails);
          });
  const seen = new Set<string>();
  const ordered: UserRow[] = [];
  const unresolved: string[] = [];
  for (const id of identifiers) {
    const key = keyOf(id);
    const user = users.find((u) => u.uuid === key || u.email === key);
    if (!user) {
      if (!unresolved.includes(id)) unresolved.push(id);
    } else if (!seen.has(user.uuid)) {
      seen.add(user.uuid);
      ordered.push(user);
    }
  }
  return { users: ordered, unresolved };
}

function mergeLines(input: ReportInput): MergeLines {
  const s = input.structured;
  const hasStructured = !!s && [s.completed, s.in_progress, s.blockers].some((list) => (list?.length ?? 0) > 0);
  if (!hasStructured) return { content: input.content };
  return { completed: s!.completed ?? [], in_progress: s!.in_progress ?? [], blockers: s!.blockers ?? [] };
}

/**
 * POST /v1/agent-reports/ (CONTRACT §6): stores the report, merges it into each co-author's active daily
 * stand-up with the ` (co-authored with <agent_name>)` suffix, and answers with the agent's pending messages
 * (not marked delivered: only a health answer or a read does that). A small write at a high rate: it goes
 * through the group commit, so it touches nothing outside its transaction (it may run again after a batch
 * rolled back).
 */
export function createReport(writes: GroupCommit, actor: Actor, input: ReportInput, now: Date): Promise<ReportResult> {
  return writes.run((trx) => createReportIn(trx, actor, input, now));
}

/** A stored report, its agent's name and the agent's pending messages. */
export interface ReportResult {
  report: ReportRow;
  agentName: string;
  pending: MessageRow[];
  /** The co_authors identifiers that named no active member of the organization (ignored, as the spec says). */
  unresolvedCoAuthors: string[];
}

async function createReportIn(trx: Trx, actor: Actor, input: ReportInput, now: Date): Promise<ReportResult> {
  const agent = await ensureAgent(trx, actor.organization.uuid, input.agent_name, now);
  const { users, unresolved } = await resolveCoAuthors(trx, actor.organization.uuid, input.co_authors ?? []);
  const coAuthors: CoAuthor[] = users.map((u) => ({ uuid: u.uuid, name: fullName(u), full_name: fullName(u) }));
  const row: ReportRow = {
    uuid: uuidv7(now.getTime()),
    organization_uuid: actor.organization.uuid,
    agent_uuid: agent.uuid,
    reported_by_uuid: actor.user.uuid,
    content: input.content,
    structured: input.structured ? writeJson(input.structured) : null,
    metadata: writeJson(input.metadata ?? {}),
    is_milestone: input.is_milestone ?? false,
    co_authors: writeJson(coAuthors),
    created_at: now.toISOString(),
  };
  await trx('agent_reports').insert(row);
  const lines = mergeLines(input);
  const suffix = ` (co-authored with ${agent.name})`;
  for (const user of users) {
    const standup = await activeDailyStandup(trx, user, now);
    if (standup) await mergeIntoTodaysResponse(trx, { userUuid: user.uuid, checkin: standup, lines, suffix, now, author: user });
  }
  return { report: row, agentName: agent.name, pending: await pendingMessages(trx, agent.uuid, now), unresolvedCoAuthors: unresolved };
}

/** GET /v1/agent-reports/?agent_name= : newest first; every agent of the organization without the filter. */
export async function listReports(db: Executor, actor: Actor, agentName: string | null, page: PageRequest): Promise<{ count: number; rows: (ReportRow & { agent_name: string })[] }> {
  const base = db('agent_reports as r').join('agents as a', 'a.uuid', 'r.agent_uuid').where('r.organization_uuid', actor.organization.uuid);
  if (agentName !== null) {
    assertAgentName(agentName);
    const agent = await findAgent(db, actor.organization.uuid, agentName);
    if (!agent) return { count: 0, rows: [] };
    base.andWhere('r.agent_uuid', agent.uuid);
  }
  const [{ count }] = await base.clone().count({ count: '*' });
  const rows: (ReportRow & { agent_name: string })[] = await base
    .clone()
    .select('r.*', 'a.name as agent_name')
    .orderBy('r.created_at', 'desc')
    .orderBy('r.uuid', 'desc')
    .limit(page.limit)
    .offset(page.offset);
  return { count: Number(count), rows };
}
