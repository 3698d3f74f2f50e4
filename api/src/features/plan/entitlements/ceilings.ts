import type { Executor } from '../../../db/connection.ts';
import { ApiError } from '../../../lib/errors.ts';
import type { PlanName } from '../../../db/tables.ts';
import { lockOrganization } from '../../../outbox/plan-changes.ts';
import type { PlanWrite } from '../frame/context.ts';

/**
 * Board and project ceilings per organization plan (spec Limits: the free plan has 3 boards and 1 project).
 * Free and basic organizations share the starter ceilings: both lack the API integrations (their members reach
 * Plan through the command-line client's sign-in); pro and enterprise have none. Archived boards and projects
 * do not count; restoring one counts again.
 */
export const PLAN_CEILINGS: Record<PlanName, { boards: number | null; projects: number | null }> = {
  free: { boards: 3, projects: 1 },
  basic: { boards: 3, projects: 1 },
  pro: { boards: null, projects: null },
  enterprise: { boards: null, projects: null },
};

const REFUSALS = {
  boards: { table: 'plan_boards', code: 'task_boards_limit_reached', noun: 'boards' },
  projects: { table: 'plan_projects', code: 'task_projects_limit_reached', noun: 'projects' },
} as const;

export async function liveCount(db: Executor, organizationUuid: string, kind: 'boards' | 'projects'): Promise<number> {
  const [{ count }] = await db(REFUSALS[kind].table).where({ organization_uuid: organizationUuid }).whereNull('archived_at').count({ count: '*' });
  return Number(count);
}

/**
 * 402 when one more live board (or project) would pass the plan's ceiling. Takes the organization's Plan row
 * lock first, so two concurrent creations cannot both pass the count.
 */
export async function assertCeiling(w: PlanWrite, kind: 'boards' | 'projects'): Promise<void> {
  const limit = PLAN_CEILINGS[w.actor.organization.plan]?.[kind] ?? null;
  if (limit === null) return;
  await lockOrganization(w.db, w.actor.organization.uuid, w.now);
  const current = await liveCount(w.db, w.actor.organization.uuid, kind);
  if (current >= limit) {
    const { code, noun } = REFUSALS[kind];
    throw new ApiError(402, code, `Your plan allows ${limit} live ${noun}; archive one or upgrade.`, { extra: { limit, current } });
  }
}
