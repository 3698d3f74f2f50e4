import cron from 'node-cron';
import type { ScheduledTask } from 'node-cron';
import type { Db } from '../../db/connection.ts';
import { readJson } from '../../lib/json.ts';
import type { TriggerConfig, WorkflowRow } from './repository.ts';
import { startRun } from './runs.ts';

/** How far back a schedule looks for a minute it missed (the server was down, the tick came late). */
export const CATCH_UP_MINUTES = 60;

/**
 * node-cron's own matcher for each schedule, in the workflow's time zone. The tasks are never started: the
 * minute job (jobs/index.ts) asks them whether a minute matches, with the app's clock, so tests drive schedules
 * with a ManualClock and production with node-cron's own minute tick.
 */
const matchers = new Map<string, { key: string; task: ScheduledTask }>();

function matcherFor(workflow: WorkflowRow, config: TriggerConfig): ScheduledTask {
  const key = `${config.cron}|${config.timezone}`;
  const cached = matchers.get(workflow.uuid);
  if (cached?.key === key) return cached.task;
  void cached?.task.destroy();
  const task = cron.createTask(config.cron ?? '', () => {}, { timezone: config.timezone, name: `workflow-${workflow.uuid}` });
  matchers.set(workflow.uuid, { key, task });
  return task;
}

/**
 * Fires every active schedule workflow whose cron expression matched a minute since it was last looked at
 * (at most CATCH_UP_MINUTES back; several missed minutes make one run). Each workflow is claimed with a
 * conditional update of `schedule_checked_at` in the run's own transaction, so one minute never runs twice.
 * Returns the number of runs started.
 */
export async function runScheduledWorkflows(db: Db, now: Date): Promise<number> {
  const minute = Math.floor(now.getTime() / 60_000) * 60_000;
  const workflows: WorkflowRow[] = await db('workflows').where({ trigger_type: 'schedule', active: true });
  const live = new Set(workflows.map((w) => w.uuid));
  for (const [uuid, { task }] of matchers) {
    if (!live.has(uuid)) {
      void task.destroy();
      matchers.delete(uuid);
    }
  }
  let started = 0;
  for (const workflow of workflows) {
    const config = readJson<TriggerConfig>(workflow.trigger_config, {});
    if (!config.cron) continue;
    const checked = workflow.schedule_checked_at ? Date.parse(workflow.schedule_checked_at) : minute - 60_000;
    const matcher = matcherFor(workflow, config);
    let due: number | null = null;
    for (let m = Math.max(checked + 60_000, minute - CATCH_UP_MINUTES * 60_000); m <= minute; m += 60_000) {
      if (matcher.match(new Date(m))) due = m;
    }
    if (due === null) continue;
    const scheduledFor = new Date(due).toISOString();
    const fired = await db.transaction(async (trx) => {
      const claimed = await trx('workflows')
        .where({ uuid: workflow.uuid })
        .andWhere((w) => (workflow.schedule_checked_at ? w.where('schedule_checked_at', workflow.schedule_checked_at) : w.whereNull('schedule_checked_at')))
        .update({ schedule_checked_at: new Date(minute).toISOString() });
      if (!claimed) return false;
      await startRun(trx, workflow, { type: 'schedule', payload: { scheduled_for: scheduledFor, timezone: config.timezone ?? 'UTC' } }, now);
      return true;
    });
    if (fired) started++;
  }
  return started;
}
