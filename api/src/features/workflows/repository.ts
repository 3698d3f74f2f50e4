import type { ActionType, HTTP_METHODS, TriggerType } from './schema.ts';

export interface WorkflowRow {
  uuid: string;
  organization_uuid: string;
  name: string;
  description: string | null;
  trigger_type: TriggerType;
  trigger_config: string;
  actions: string;
  secrets_encrypted: string;
  active: boolean | number;
  total_runs: number;
  last_run_at: string | null;
  schedule_checked_at: string | null;
  created_by_uuid: string | null;
  created_at: string;
  updated_at: string;
}

export interface TriggerConfig {
  cron?: string;
  timezone?: string;
  event?: string;
  match?: Record<string, string | number | boolean | null>;
}

/** An action as stored: everything but header values, which are sealed with the signing secret. */
export type StoredAction =
  | { type: Extract<ActionType, 'send_message'>; message: string; target_users: string[]; target_channels: string[]; target_teams: string[] }
  | { type: Extract<ActionType, 'send_email'>; to: string[]; subject: string; body_html: string }
  | { type: Extract<ActionType, 'http_request'>; url: string; method: (typeof HTTP_METHODS)[number]; content_type: string; body: string | null; header_names: string[] };

/** What `secrets_encrypted` holds: the Standard Webhooks signing secret and each http_request action's headers by index. */
export interface WorkflowSecrets {
  signing_secret: string;
  headers: Record<string, Record<string, string>>;
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
  error: string | null;
  created_at: string;
}

export const isActive = (row: Pick<WorkflowRow, 'active'>) => row.active === true || row.active === 1;
