import type { Executor } from '../../db/connection.ts';
import { notFound } from '../../lib/errors.ts';
import type { PageRequest } from '../../lib/page.ts';
import { resetForRedelivery } from '../../outbox/deliveries.ts';
import { enableSubscription } from '../webhooks/service.ts';
import type { Actor } from '../../auth/credentials.ts';
import type { Channel, DeliveryAttemptRow, DeliveryRow, DeliveryStatus } from '../../db/tables.ts';

export interface DeliveryFilters {
  status?: DeliveryStatus;
  channel?: Channel;
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
