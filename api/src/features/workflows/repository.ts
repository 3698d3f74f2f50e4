import type { HTTP_METHODS } from './schema.ts';
import type { ActionType, RunActionRow, RunRow, WorkflowRow } from '../../db/tables.ts';
export type { RunActionRow, RunRow, WorkflowRow };

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

export const isActive = (row: Pick<WorkflowRow, 'active'>) => row.active === true || row.active === 1;
