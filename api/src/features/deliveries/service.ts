import type { Executor } from '../../db/connection.ts';
import { invalidFilter, notFound } from '../../lib/errors.ts';
import type { PageRequest } from '../../lib/page.ts';
import { resetForRedelivery } from '../../outbox/deliveries.ts';
import { enableSubscription } from '../webhooks/service.ts';
import type { Actor } from '../../auth/credentials.ts';
import { CHANNELS, DELIVERY_STATUSES } from '../../db/tables.ts';
import type { Channel, DeliveryAttemptRow, DeliveryRow, DeliveryStatus } from '../../db/tables.ts';

export interface DeliveryFilters {
  status?: DeliveryStatus;
  channel?: Channel;
}

const isOneOf = <T extends string>(values: readonly T[], value: string): value is T => (values as readonly string[]).includes(value);

export function parseFilters(query: Record<string, unknown>): DeliveryFilters {
  const status = typeof query.status === 'string' && query.status !== '' ? query.status : undefined;
  const channel = typeof query.channel === 'string' && query.channel !== '' ? query.channel : undefined;
  if (status && !isOneOf(DELIVERY_STATUSES, status)) throw invalidFilter('status', `status must be one of: ${DELIVERY_STATUSES.join(', ')}.`);
  if (channel && !isOneOf(CHANNELS, channel)) throw invalidFilter('channel', `channel must be one of: ${CHANNELS.join(', ')}.`);
  return { status: status as DeliveryStatus | undefined, channel: channel as Channel | undefined };
}

function visible(db: Executor, actor: Actor, filters: DeliveryFilters) {
  const q = db('deliveries').where({ organization_uuid: actor.organization.uuid });
  if (filters.status) q.andWhere({ status: filters.status });
  if (filters.channel) q.andWhere({ channel: filters.channel });
  return q;
}

export async function listDeliveries(db: Executor, actor: Actor, filters: DeliveryFilters, page: PageRequest) {
  const [{ count }] = await visible(db, actor, filters).count({ count: '*' });
  const rows: DeliveryRow[] = await visible(db, actor, filters).select().orderBy('uuid', 'desc').limit(page.limit).offset(page.offset);
  return { count: Number(count), rows };
}

export async function getDelivery(db: Executor, actor: Actor, uuid: string): Promise<{ row: DeliveryRow; attempts: DeliveryAttemptRow[] }> {
  const row: DeliveryRow | undefined = await visible(db, actor, {}).andWhere({ uuid }).first();
  if (!row) throw notFound();
  const attempts: DeliveryAttemptRow[] = await db('delivery_attempts').where({ delivery_uuid: uuid }).orderBy('attempt');
  return { row, attempts };
}

/**
 * Sends a delivery again from the start of the retry schedule (same payload, same webhook-id). A webhook
 * subscription disabled by a 410 is enabled again: redelivering is the admin saying the endpoint is back.
 */
export async function redeliver(db: Executor, actor: Actor, uuid: string, now: Date) {
  const { row } = await getDelivery(db, actor, uuid);
  await resetForRedelivery(db, uuid, now);
  if (row.channel === 'webhook' && row.ref_uuid) await enableSubscription(db, actor.organization.uuid, row.ref_uuid, now);
  return getDelivery(db, actor, uuid);
}
