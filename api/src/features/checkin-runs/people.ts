import type { Executor } from '../../db/connection.ts';
import type { ReportPerson } from './messages.ts';

/** A participant as the loop needs them: names, address, and the time zone their day runs in. */
export interface Participant extends ReportPerson {
  timezone: string | null;
}

/**
 * The effective participants of each check-in (active users, directly or through active teams), with their
 * time zones: two indexed joins for any number of check-ins (500 per statement).
 */
export async function participantsWithZones(db: Executor, checkinUuids: string[]): Promise<Map<string, Map<string, Participant>>> {
  const result = new Map<string, Map<string, Participant>>(checkinUuids.map((uuid) => [uuid, new Map()]));
  const columns = ['u.uuid', 'u.first_name', 'u.last_name', 'u.email', 'u.timezone'];
  for (let i = 0; i < checkinUuids.length; i += 500) {
    const batch = checkinUuids.slice(i, i + 500);
    const direct = await db('checkin_participant_users as cpu')
      .join('users as u', 'u.uuid', 'cpu.user_uuid')
      .whereIn('cpu.checkin_uuid', batch)
      .andWhere('u.is_active', true)
      .select('cpu.checkin_uuid', ...columns);
    const viaTeams = await db('checkin_participant_teams as cpt')
      .join('teams as t', 't.uuid', 'cpt.team_uuid')
      .join('team_members as tm', 'tm.team_uuid', 'cpt.team_uuid')
      .join('users as u', 'u.uuid', 'tm.user_uuid')
      .whereIn('cpt.checkin_uuid', batch)
      .andWhere('t.active', true)
      .andWhere('u.is_active', true)
      .select('cpt.checkin_uuid', ...columns);
    for (const row of [...direct, ...viaTeams]) {
      result.get(row.checkin_uuid)!.set(row.uuid, { uuid: row.uuid, first_name: row.first_name, last_name: row.last_name, email: row.email, timezone: row.timezone });
    }
  }
  return result;
}

/** Of `userUuids`, those who have a response to the check-in for `date`. */
export async function answeredOn(db: Executor, checkinUuid: string, userUuids: string[], date: string): Promise<Set<string>> {
  const answered = new Set<string>();
  for (let i = 0; i < userUuids.length; i += 500) {
    const rows: { user_uuid: string }[] = await db('checkin_responses')
      .where({ checkin_uuid: checkinUuid, response_date: date })
      .whereIn('user_uuid', userUuids.slice(i, i + 500))
      .select('user_uuid');
    for (const row of rows) answered.add(row.user_uuid);
  }
  return answered;
}
