import type { Db } from '../../db/connection.ts';
import type { Actor } from '../../auth/credentials.ts';
import { notFound } from '../../lib/errors.ts';
import { writeJson } from '../../lib/json.ts';
import { notificationsOf } from '../../lib/personal-settings.ts';
import { replaceTimeOff, timeOffOf } from '../../db/time-off.ts';
import type { TimeOff } from '../../db/time-off.ts';
import type { UserRow } from '../../db/tables.ts';
import type { UpdateMeInput } from './schema.ts';

/** PATCH /v1/me/: the caller's own settings, in one transaction; answers their row and time off as saved. */
export async function updateMe(db: Db, actor: Actor, input: UpdateMeInput, now: Date): Promise<{ user: UserRow; timeOff: TimeOff[] }> {
  return db.transaction(async (trx) => {
    const row: UserRow | undefined = await trx('users').where({ uuid: actor.user.uuid, organization_uuid: actor.organization.uuid }).first();
    if (!row) throw notFound();
    const changes: Record<string, unknown> = { updated_at: now.toISOString() };
    for (const field of ['first_name', 'last_name', 'timezone', 'language', 'holiday_calendar'] as const) {
      if (input[field] !== undefined) changes[field] = input[field];
    }
    if (input.notifications !== undefined) {
      const given = Object.fromEntries(Object.entries(input.notifications).filter(([, value]) => value !== undefined));
      changes.notifications = writeJson({ ...notificationsOf(row), ...given });
    }
    await trx('users').where({ uuid: row.uuid }).update(changes);
    if (input.time_off !== undefined) await replaceTimeOff(trx, row, input.time_off, now);
    const user = (await trx('users').where({ uuid: row.uuid }).first())!;
    return { user, timeOff: await timeOffOf(trx, row.uuid) };
  });
}
