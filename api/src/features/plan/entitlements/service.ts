import type { Config } from '../../../lib/config.ts';
import { bool, readJson } from '../../../lib/json.ts';
import { READ_ONLY_SETTING } from '../../../db/settings.ts';
import type { PlanRead } from '../frame/context.ts';
import { actsAsPerson, planScopes as effectiveScopes } from '../../../auth/policy.ts';
import { PLAN_CEILINGS, liveCount } from './ceilings.ts';

/**
 * GET /v1/plan/entitlements/: answered whether or not the beta is on, so a client can tell why it gets 402, what
 * its plan allows (ceilings: null is unlimited) and uses, and what this credential may do.
 */
export async function entitlements(r: PlanRead, minuteLimits: Config['planMinuteLimits']) {
  const { organization } = r.actor;
  const enabled = bool(organization.plan_beta_enabled);
  const ceilings = PLAN_CEILINGS[organization.plan] ?? PLAN_CEILINGS.free;
  const readOnly = await r.db('instance_settings').where({ key: READ_ONLY_SETTING }).first('value');
  const boards = await liveCount(r.db, organization.uuid, 'boards');
  return {
    plan: organization.plan,
    enabled,
    // The DailyBot client's summary: why Plan is off, the boards used of the plan's ceiling, whether labels are on.
    reason: enabled ? null : 'plan_upgrade_required',
    boards: { used: boards, limit: ceilings.boards },
    labels: { enabled },
    read_only: readJson<boolean>(readOnly?.value, false) === true,
    features: {
      projects: enabled,
      goals: enabled,
      boards: enabled,
      tasks: enabled,
    },
    limits: {
      boards: ceilings.boards,
      projects: ceilings.projects,
      bulk_items: 100,
      favorites: 50,
      personal_views_per_board: 20,
      notification_routes: 10,
      report_schedules: 10,
      tasks_per_column: 5000,
      attachment_bytes_presigned: 25 * 1024 * 1024,
      attachment_bytes_multipart: 5 * 1024 * 1024,
      attachments_per_object: 50,
    },
    usage: { boards, projects: await liveCount(r.db, organization.uuid, 'projects') },
    rate_limits: {
      reads_per_minute: minuteLimits.reads,
      writes_per_minute: minuteLimits.writes,
      bulk_per_minute: minuteLimits.bulk,
      delta_per_minute: minuteLimits.delta,
    },
    credential: {
      scopes: effectiveScopes(r.actor),
      acts_as_person: actsAsPerson(r.actor),
    },
  };
}
