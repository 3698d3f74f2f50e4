import type { Config } from '../../lib/config.ts';
import type { Db, Executor } from '../../db/connection.ts';
import { localDate } from '../../lib/dates.ts';
import { bool } from '../../lib/json.ts';
import { fullName } from '../../lib/names.ts';
import { escapeHtml } from '../../lib/html.ts';
import { enqueueEmail } from '../../outbox/deliveries.ts';
import { daysBetween } from '../checkins/blockers.ts';
import { participantsOf } from '../checkins/repository.ts';
import { loopSettings } from './schedule.ts';
import type { BlockerRow, CheckinRow, UserRow } from '../../db/tables.ts';

/**
 * The forgotten blocker: a blocker still open `blocker_alert_days` after it was reported (a check-in setting,
 * default 3; null turns it off) is e-mailed once to the check-in's managers: whoever created the check-in and
 * the participants who are admins or managers, or the organization's admins when there are none. `alerted_at`
 * is set in the transaction that writes the e-mail, so each blocker is told once, across processes.
 */

type Manager = Pick<UserRow, 'uuid' | 'first_name' | 'last_name' | 'email'>;

const MANAGER_ROLES = ['admin', 'manager'];

async function managersOf(trx: Executor, checkin: CheckinRow): Promise<Manager[]> {
  const participants = [...((await participantsOf(trx, [checkin.uuid])).get(checkin.uuid)?.keys() ?? [])];
  const candidates = [...new Set([...(checkin.created_by_uuid ? [checkin.created_by_uuid] : []), ...participants])];
  const found: Manager[] = [];
  for (let i = 0; i < candidates.length; i += 500) {
    found.push(...(await trx('users').whereIn('uuid', candidates.slice(i, i + 500)).whereIn('role', MANAGER_ROLES).where({ is_active: true, organization_uuid: checkin.organization_uuid }).select('uuid', 'first_name', 'last_name', 'email')));
  }
  if (found.length) return found;
  return trx('users').where({ organization_uuid: checkin.organization_uuid, role: 'admin', is_active: true }).select('uuid', 'first_name', 'last_name', 'email');
}

function alertEmail(to: string[], checkin: CheckinRow, blocker: BlockerRow, person: Manager, days: number, url: string) {
  const who = bool(checkin.is_anonymous) ? 'Someone' : fullName(person);
  const lines = [
    `${who} has been blocked for ${days} days in ${checkin.name}:`,
    blocker.text,
    `Reported on ${blocker.opened_on} (${blocker.question}). It is still open.`,
    `See the check-in's open blockers: ${url}`,
  ];
  return {
    to,
    subject: `Still blocked after ${days} days: ${bool(checkin.is_anonymous) ? checkin.name : `${fullName(person)} in ${checkin.name}`}`,
    text: `${lines.join('\n\n')}\n`,
    html: lines.map((line, i) => (i === 1 ? `<blockquote>${escapeHtml(line).replace(/\n/g, '<br>')}</blockquote>` : `<p>${escapeHtml(line)}</p>`)).join('\n'),
  };
}

/** Sends the alerts due by `now`; returns how many blockers were told about. */
export async function alertForgottenBlockers(db: Db, config: Config, now: Date): Promise<number> {
  const open: BlockerRow[] = await db('checkin_blockers').whereNull('resolved_at').whereNull('alerted_at').select('*');
  if (open.length === 0) return 0;
  const checkins = new Map<string, CheckinRow>();
  for (const uuid of new Set(open.map((b) => b.checkin_uuid))) {
    const row: CheckinRow | undefined = await db('checkins').where({ uuid, is_archived: false, active: true }).first();
    if (row) checkins.set(uuid, row);
  }
  let told = 0;
  for (const blocker of open) {
    const checkin = checkins.get(blocker.checkin_uuid);
    const after = checkin ? loopSettings(checkin).blockerAlertDays : null;
    if (!checkin || after === null) continue;
    const days = daysBetween(blocker.opened_on, localDate(now, checkin.timezone));
    if (days < after) continue;
    told += await db.transaction(async (trx) => {
      const claimed = await trx('checkin_blockers').where({ uuid: blocker.uuid }).whereNull('alerted_at').whereNull('resolved_at').update({ alerted_at: now.toISOString() });
      if (!claimed) return 0;
      const person: Manager | undefined = await trx('users').where({ uuid: blocker.user_uuid }).first('uuid', 'first_name', 'last_name', 'email');
      const managers = (await managersOf(trx, checkin)).filter((m) => m.email && m.uuid !== blocker.user_uuid);
      if (!person || managers.length === 0) return 1;
      const url = `${config.publicUrl ?? ''}/app/`;
      for (const manager of managers) {
        await enqueueEmail(trx, { organizationUuid: checkin.organization_uuid, kind: 'checkin.blocker_alert', message: alertEmail([manager.email], checkin, blocker, person, days, url) }, now);
      }
      return 1;
    });
  }
  return told;
}
