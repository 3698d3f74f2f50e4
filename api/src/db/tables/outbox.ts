/** The outbox and what sends from it (migrations 0009, 0010, 0200–0203). */

export const CHANNELS = ['email', 'webhook', 'agent_webhook', 'chat', 'http_request'] as const;
export type Channel = (typeof CHANNELS)[number];
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export const ATTEMPT_OUTCOMES = ['delivered', 'retry', 'failed', 'gone'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** Written by outbox/ only (in the transaction of its cause); the webhook dispatcher turns it into deliveries. */
export interface OrganizationEventRow {
  uuid: string;
  organization_uuid: string;
  event: string;
  /** JSON. */
  payload: string;
  created_at: string;
  dispatched_at: string | null;
}

/** One message to send. Written by outbox/ only; sent by outbound/worker.ts. */
export interface DeliveryRow {
  uuid: string;
  organization_uuid: string | null;
  channel: Channel;
  /** What caused it: invitation, agent_email, followups.response.completed, chat.message, … */
  kind: string;
  /** Address(es) or URL; never a secret. */
  destination: string;
  /** JSON: the message or request body. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  last_status_code: number | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
  /** Standard Webhooks id, the same on every retry. */
  webhook_id: string | null;
  /** Deliveries sharing a key go out one at a time, oldest first. */
  ordering_key: string | null;
  /** The object the delivery belongs to: a webhook subscription, a chat message. */
  ref_uuid: string | null;
  /** What it is about: an agent message. */
  subject_uuid: string | null;
  secret_encrypted: string | null;
  /** When an e-mail held for want of SMTP_URL was logged. */
  held_at: string | null;
  /** PostgreSQL: the process sending it now (outbound/worker.ts), until `lease_expires_at`; null when no one is. */
  claimed_by: string | null;
  lease_expires_at: string | null;
}

export interface DeliveryAttemptRow {
  uuid: string;
  delivery_uuid: string;
  attempt: number;
  outcome: AttemptOutcome;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  started_at: string;
}

export interface SubscriptionRow {
  uuid: string;
  organization_uuid: string;
  created_by_uuid: string | null;
  hook_url: string;
  name: string;
  /** JSON array of event names and `prefix.*` wildcards. */
  subscriptions: string;
  /** JSON array of object uuids; empty: every object. */
  subscribed_objects: string;
  secret_encrypted: string;
  secret_generated: boolean | number;
  bearer_encrypted: string | null;
  disabled_at: string | null;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

export const PLATFORMS = ['slack', 'microsoft_teams', 'discord', 'google_chat', 'mattermost'] as const;
export type Platform = (typeof PLATFORMS)[number];

export interface ChatConnectionRow {
  organization_uuid: string;
  platform: Platform;
  /** Sealed JSON `{bot_token, signing_secret?}` or `{webhook_url}` (outbound/secret-box.ts). */
  credentials_encrypted: string;
  channel_name: string | null;
  created_at: string;
  updated_at: string;
  /** Whether requests from the platform can be verified (a signing secret was given; migration 0950). */
  can_receive: boolean | number;
  /** The platform's workspace (Slack team id), learned from the bot token when the first request comes. */
  external_team_id: string | null;
  /** Teams bot: the Bot Connector service of its activities, and the team whose roster finds people (migration 0980). */
  service_url?: string | null;
  roster_id?: string | null;
}

/** A person's account on the platform, found by e-mail (migration 0950); `found` false: none has that e-mail. */
export interface ChatPersonRow {
  organization_uuid: string;
  platform: Platform;
  /** Lower case. */
  email: string;
  external_id: string | null;
  found: boolean | number;
  looked_up_at: string;
}

/** A request from a platform already taken: its signature, or the platform's id of an event. */
export interface ChatRequestNonceRow {
  key: string;
  seen_at: string;
}

/** A link asked for in the platform (Discord `/rollcall link`), waiting for the person to confirm it (migration 1010). */
export interface ChatLinkRequestRow {
  token_hash: string;
  organization_uuid: string;
  platform: Platform;
  external_id: string;
  external_name: string | null;
  expires_at: string;
  created_at: string;
}

/** A person's platform account, linked by themselves (Discord: a bot cannot look people up by e-mail). */
export interface ChatLinkedAccountRow {
  organization_uuid: string;
  platform: Platform;
  external_id: string;
  user_uuid: string;
  external_name: string | null;
  linked_at: string;
}

/** The parts of an answer given so far over several forms (Discord modals: 5 inputs each). */
export interface ChatAnswerDraftRow {
  user_uuid: string;
  checkin_uuid: string;
  run_date: string;
  organization_uuid: string;
  /** JSON {"q.<question uuid>": [values]}. */
  values: string;
  updated_at: string;
}

export interface ChatMessageRow {
  uuid: string;
  organization_uuid: string;
  platform: Platform;
  /** JSON: what each target's platform answered (Slack channel and ts, Discord message id), for edits. */
  refs: string;
  created_at: string;
  updated_at: string;
}
