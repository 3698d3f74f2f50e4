/** Agents and what they send and receive (migrations 0300–0306). */

export const MESSAGE_TYPES = ['text', 'command', 'system', 'email'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
export const SENDER_TYPES = ['human', 'agent', 'system'] as const;
export type SenderType = (typeof SENDER_TYPES)[number];

export interface AgentRow {
  uuid: string;
  organization_uuid: string;
  name: string;
  /** Names the agent's inbox: `<agent-slug>.<org-slug>@INBOUND_EMAIL_DOMAIN`. */
  slug: string;
  is_active: boolean | number;
  status: string | null;
  status_message: string | null;
  last_check_at: string | null;
  webhook_url: string | null;
  webhook_secret_encrypted: string | null;
  webhook_registered_at: string | null;
  claim_token_hash: string | null;
  contact_email: string | null;
  claimed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ReportRow {
  uuid: string;
  organization_uuid: string;
  agent_uuid: string;
  reported_by_uuid: string | null;
  content: string;
  /** JSON `{completed, in_progress, blockers}` or null. */
  structured: string | null;
  metadata: string | null;
  is_milestone: boolean | number;
  /** JSON array of `{uuid, name, full_name}`. */
  co_authors: string;
  created_at: string;
}

export interface HealthCheckRow {
  uuid: string;
  agent_uuid: string;
  status: string;
  message: string | null;
  created_at: string;
}

export interface MessageRow {
  uuid: string;
  organization_uuid: string;
  agent_uuid: string;
  sender_type: string;
  sender_name: string;
  sender_user_uuid: string | null;
  message_type: string;
  content: string;
  metadata: string | null;
  email_message_id: string | null;
  delivered: boolean | number;
  delivered_at: string | null;
  read_at: string | null;
  expires_at: string | null;
  created_at: string;
}

export interface AgentEmailRow {
  uuid: string;
  organization_uuid: string;
  agent_uuid: string;
  message_id: string;
  subject: string;
  /** JSON array of addresses. */
  recipients: string;
  metadata: string | null;
  delivery_uuid: string | null;
  created_at: string;
}

export interface RegistrationChallengeRow {
  uuid: string;
  answer_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}
