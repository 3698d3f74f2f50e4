import type { Trx } from '../../db/connection.ts';

export const CHANNELS = ['email', 'webhook', 'agent_webhook', 'chat', 'http_request'] as const;
export type Channel = (typeof CHANNELS)[number];
export const STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const;

export interface DeliveryRow {
  uuid: string;
  organization_uuid: string | null;
  channel: Channel;
  kind: string;
  destination: string;
  payload: string;
  status: (typeof STATUSES)[number];
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  last_status_code: number | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
  webhook_id: string | null;
  ordering_key: string | null;
  ref_uuid: string | null;
  subject_uuid: string | null;
  secret_encrypted: string | null;
  held_at: string | null;
}

/** What one attempt came to. `retry` is scheduled again (or fails when the schedule is exhausted). */
export interface SendResult {
  outcome: 'delivered' | 'retry' | 'failed' | 'gone';
  statusCode?: number | null;
  error?: string | null;
  /** The destination's Retry-After, honoured as a floor on the next delay. */
  retryAfterMs?: number | null;
  durationMs: number;
  /** Replaces the stored payload (multi-step chat deliveries record their progress so a retry resumes). */
  payload?: unknown;
}

export type Sender = (row: DeliveryRow, now: Date) => Promise<SendResult>;

/** Runs inside the transaction that marks the delivery, so a caller's own bookkeeping commits with it. */
export type DeliveryHook = (trx: Trx, row: DeliveryRow, now: Date) => Promise<void>;
