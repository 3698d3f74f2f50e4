import type { Executor } from '../../db/connection.ts';

/**
 * Of `userUuids`, those who answered the check-in for `date`: every required question (`response_completed`). A day
 * answered in part, as an agent's co-authored lines leave it, is not answered yet.
 */
export async function answeredOn(db: Executor, checkinUuid: string, userUuids: string[], date: string): Promise<Set<string>> {
  const answered = new Set<string>();
  for (let i = 0; i < userUuids.length; i += 500) {
    const rows: { user_uuid: string }[] = await db('checkin_responses')
      .where({ checkin_uuid: checkinUuid, response_date: date, response_completed: true })
      .whereIn('user_uuid', userUuids.slice(i, i + 500))
      .select('user_uuid');
    for (const row of rows) answered.add(row.user_uuid);
  }
  return answered;
}
