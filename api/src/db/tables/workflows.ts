/** Workflows, their runs and the runs' actions (migration 0501). */

export const TRIGGER_TYPES = ['api_trigger', 'schedule', 'event'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];
export const ACTION_TYPES = ['send_message', 'send_email', 'http_request'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export interface WorkflowRow {
  uuid: string;
  organization_uuid: string;
  name: string;
  description: string | null;
  trigger_type: TriggerType;
  /** JSON: schedule `{cron, timezone}`, event `{event, match?}`, api_trigger `{}`. */
  trigger_config: string;
  /** JSON array of the actions, header values left out. */
  actions: string;
  /** Sealed JSON `{signing_secret, headers: {<action index>: {name: value}}}`. */
  secrets_encrypted: string;
  active: boolean | number;
  total_runs: number;
  last_run_at: string | null;
  /** Schedules: the minute up to which the schedule has been looked at. */
  schedule_checked_at: string | null;
  created_by_uuid: string | null;
  created_at: string;
  updated_at: string;
}

export interface RunRow {
  uuid: string;
  organization_uuid: string;
  workflow_uuid: string;
  trigger: TriggerType;
  event: string | null;
  payload: string;
  triggered_by_uuid: string | null;
  created_at: string;
}

export interface RunActionRow {
  uuid: string;
  run_uuid: string;
  position: number;
  type: ActionType;
  destination: string | null;
  /** Set when the action could not be queued at all. */
  error: string | null;
  created_at: string;
}
