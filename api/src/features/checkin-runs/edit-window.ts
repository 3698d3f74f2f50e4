import type { Executor } from '../../db/connection.ts';

/** The subject of a check-in's team report of a day (`checkin_reports.subject`); one person's answer has their uuid. */
export const TEAM = 'team';

/**
 * The edit window every way of answering shares (the web page, e-mail replies, chat): a person's answer of a day
 * can change until a report with it in went out (the team's report of that day, or their answer posted alone).
 */
export async function reportedWith(db: Executor, checkinUuid: string, date: string, userUuid: string): Promise<boolean> {
  return Boolean(await db('checkin_reports').where({ checkin_uuid: checkinUuid, report_date: date }).whereIn('subject', [TEAM, userUuid]).first('uuid'));
}
