import type { Trx } from '../db/connection.ts';
import type { DeliveryRow } from '../db/tables.ts';

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
