import type { Trx } from '../db/connection.ts';
import type { Channel, DeliveryRow } from '../db/tables.ts';

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

/** What a feature adds to the worker (Feature.delivery): the senders of its channels and what follows their outcomes. */
export interface DeliveryPart {
  senders?: Partial<Record<Channel, Sender>>;
  /** A delivery of the channel succeeded. */
  onDelivered?: Partial<Record<Channel, DeliveryHook>>;
  /** The destination answered 410 Gone: disable the endpoint. */
  onGone?: Partial<Record<Channel, DeliveryHook>>;
  /** A delivery ended as failed (schedule exhausted, refused destination, 410). */
  onFailed?: Partial<Record<Channel, DeliveryHook>>;
  /** Work before each round of sending (the webhook dispatcher turns events into deliveries here). */
  beforeRound?: (() => Promise<unknown>)[];
}
