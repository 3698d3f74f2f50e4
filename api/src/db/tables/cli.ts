/** The command-line client's sign-in codes, exchange tokens, the audit of acting for others, assistant sessions (migrations 0400–0403). */

export interface CliSignInCodeRow {
  uuid: string;
  /** Lower case. */
  email: string;
  /** HMAC-SHA256 of `<uuid>:<code>` under a key derived from the instance's encryption key. */
  code_hash: string;
  failed_attempts: number;
  expires_at: string;
  spent_at: string | null;
  created_at: string;
}

export interface ExchangeTokenRow {
  uuid: string;
  organization_uuid: string;
  /** The member the token acts as. */
  user_uuid: string;
  /** The admin who issued it. */
  issued_by_uuid: string;
  issued_by_credential_uuid: string;
  /** SHA-256 of the token. */
  token_hash: string;
  expires_at: string;
  created_at: string;
}

export const AUDIT_ACTIONS = ['exchange_token.issued', 'exchange_token.used'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEventRow {
  uuid: string;
  organization_uuid: string;
  action: AuditAction;
  /** The person the request acted as. */
  actor_uuid: string | null;
  /** The admin behind it (who issued the exchange token). */
  admin_uuid: string | null;
  /** The credential that made the request. */
  credential_uuid: string | null;
  exchange_token_uuid: string | null;
  method: string | null;
  path: string | null;
  status: number | null;
  created_at: string;
}

export interface AssistantSessionRow {
  uuid: string;
  organization_uuid: string;
  user_uuid: string;
  created_at: string;
  updated_at: string;
}

export type TurnRole = 'user' | 'assistant';

export interface AssistantTurnRow {
  uuid: string;
  session_uuid: string;
  role: TurnRole;
  content: string;
  classification: string | null;
  created_at: string;
}
