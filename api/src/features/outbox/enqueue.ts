import type { Executor } from '../../db/connection.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { writeJson } from '../../lib/json.ts';
import { isEventWanted } from '../webhooks/service.ts';
import { startEventRuns } from '../workflows/events.ts';

/**
 * Writing side of the outbox. Call these inside the transaction of the change that causes the message, so a
 * message exists exactly when its cause does; the delivery workers (jobs/) send it afterwards.
 */
export interface EmailMessage {
  to: string[];
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  headers?: Record<string, string>;
}

export async function enqueueEmail(
  db: Executor,
  params: { organizationUuid: string | null; kind: string; message: EmailMessage },
  now: Date,
): Promise<string> {
  const uuid = uuidv7(now.getTime());
  await db('deliveries').insert({
    uuid,
    organization_uuid: params.organizationUuid,
    channel: 'email',
    kind: params.kind,
    destination: params.message.to.join(', '),
    payload: writeJson(params.message),
    status: 'pending',
    attempts: 0,
    next_attempt_at: now.toISOString(),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  });
  return uuid;
}

/**
 * Records an organization event (CONTRACT §7) for the webhook dispatcher, which fans it out to subscriptions.
 * Only when an enabled subscription of the organization asks for the event: organization events exist for
 * webhooks alone, most organizations subscribe to few events or none, and a payload can be a whole day's
 * check-in response (each co-authored agent report wrote one). A subscription receives the events that happen
 * after it was created. Event workflows listening for it start their runs here, in the same transaction.
 * Returns the event's uuid, or null when no webhook wanted it.
 */
export async function recordEvent(
  db: Executor,
  params: { organizationUuid: string; event: string; payload: Record<string, unknown> },
  now: Date,
): Promise<string | null> {
  await startEventRuns(db, params.organizationUuid, params.event, params.payload, now);
  if (!(await isEventWanted(db, params.organizationUuid, params.event))) return null;
  const uuid = uuidv7(now.getTime());
  await db('organization_events').insert({
    uuid,
    organization_uuid: params.organizationUuid,
    event: params.event,
    payload: writeJson(params.payload),
    created_at: now.toISOString(),
    dispatched_at: null,
  });
  return uuid;
}
