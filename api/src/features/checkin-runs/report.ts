import type { Knex } from 'knex';
import type { Config } from '../../lib/config.ts';
import type { Db, Executor } from '../../db/connection.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { bool, readJson, writeJson } from '../../lib/json.ts';
import { addDays, localDate } from '../../lib/dates.ts';
import { enqueueMany } from '../../outbox/deliveries.ts';
import { platformName, sendsDirectMessages } from '../chat-platform/connection.ts';
import { enqueueChatPost } from '../chat-platform/enqueue.ts';
import { ORGANIZATION_EVENTS } from '../webhooks/events.ts';
import { participantsOf, questionsOf } from '../checkins/repository.ts';
import type { Participant } from '../checkins/repository.ts';
import { answerWords, kindOf } from '../checkins/question-kinds.ts';
import { daysOpen } from '../checkins/blockers.ts';
import { withParts } from '../checkins/response-parts.ts';
import type { Answer } from '../checkins/response-parts.ts';
import { liveCheckins } from './ask.ts';
import { awayOn } from '../../db/time-off.ts';
import { reportEmail, reportText } from './messages.ts';
import type { ReportContent, ReportEntry, ReportPerson } from './messages.ts';
import { holidayOf, loopSettings, reportInstant, runsOn } from './schedule.ts';
import { saveConversationsOf } from './chat-conversation.ts';
import { TEAM } from './edit-window.ts';
import type { BlockerRow, CheckinReportRow, CheckinRow, ResponseRow } from '../../db/tables.ts';
import { byFullName } from '../../lib/names.ts';
import { languageOf, notificationsOf } from '../../lib/personal-settings.ts';

/**
 * The report. A team report per check-in and day at `time_for_report` (in the check-in's time zone; the day's
 * last minute when unset), or, with `send_reports_one_by_one`, each person's answer as it comes (within the
 * minute). It goes to every report channel through the connected chat platform, or by e-mail to the
 * participants when the check-in has no report channel. `checkin_reports` holds one row per report, whose
 * unique key makes each go once across processes; the row, the outbox rows and the `checkin.report.sent` event
 * are written in one transaction. An answer after the report is kept (the API has it, and the next report).
 */

export { TEAM };

/** Sends every report due by `now`; returns how many were sent. */
export async function reportDue(db: Db, config: Config, now: Date): Promise<number> {
  const checkins = await liveCheckins(db);
  let sent = 0;
  const team: { checkin: CheckinRow; date: string }[] = [];
  const oneByOne: CheckinRow[] = [];
  for (const checkin of checkins) {
    const settings = loopSettings(checkin);
    if (settings.oneByOne) {
      oneByOne.push(checkin);
      continue;
    }
    const date = localDate(now, checkin.timezone);
    if (runsOn(checkin, date, settings.frequency) && reportInstant(checkin, date, settings).getTime() <= now.getTime()) team.push({ checkin, date });
  }
  const done = await sentReports(db, team.map((t) => t.checkin.uuid), [...new Set(team.map((t) => t.date))], [TEAM]);
  for (const { checkin, date } of team) {
    if (done.has(`${checkin.uuid} ${date} ${TEAM}`)) continue;
    if (await db.transaction((trx) => sendReport(trx, config, checkin, date, null, now))) sent++;
  }
  if (oneByOne.length) sent += await postAnswersOneByOne(db, config, oneByOne, now);
  return sent;
}

async function sentReports(db: Executor, checkinUuids: string[], dates: string[], subjects: string[] | null): Promise<Set<string>> {
  const done = new Set<string>();
  for (let i = 0; i < checkinUuids.length; i += 500) {
    const query = db('checkin_reports').whereIn('checkin_uuid', checkinUuids.slice(i, i + 500)).whereIn('report_date', dates);
    if (subjects) query.whereIn('subject', subjects);
    for (const row of await query.select('checkin_uuid', 'report_date', 'subject')) done.add(`${row.checkin_uuid} ${row.report_date} ${row.subject}`);
  }
  return done;
}

/** One by one: each response of the last days (participants' days can be a day off the check-in's) not yet posted. */
async function postAnswersOneByOne(db: Db, config: Config, checkins: CheckinRow[], now: Date): Promise<number> {
  const byUuid = new Map(checkins.map((c) => [c.uuid, c]));
  const dates = [...new Set(checkins.flatMap((c) => [-1, 0, 1].map((d) => addDays(localDate(now, c.timezone), d))))];
  const uuids = [...byUuid.keys()];
  const responses: Pick<ResponseRow, 'checkin_uuid' | 'user_uuid' | 'response_date'>[] = [];
  for (let i = 0; i < uuids.length; i += 500) {
    // A person's answer is posted once it answers every required question (not an agent's first co-authored line).
    responses.push(...(await db('checkin_responses').whereIn('checkin_uuid', uuids.slice(i, i + 500)).whereIn('response_date', dates).andWhere('response_completed', true).select('checkin_uuid', 'user_uuid', 'response_date')));
  }
  if (responses.length === 0) return 0;
  const done = await sentReports(db, uuids, dates, null);
  let sent = 0;
  for (const r of responses) {
    if (done.has(`${r.checkin_uuid} ${r.response_date} ${r.user_uuid}`)) continue;
    if (await db.transaction((trx) => sendReport(trx, config, byUuid.get(r.checkin_uuid)!, r.response_date, r.user_uuid, now))) sent++;
  }
  return sent;
}

/**
 * Responses (parts folded in) of the check-in, with their authors' names, in the order they came. A response with
 * no answer at all is no entry; one that leaves a required question unanswered is marked `complete: false`.
 */
async function reportEntries(db: Executor, checkin: CheckinRow, where: (q: Knex.QueryBuilder) => void): Promise<ReportEntry[]> {
  const query = db('checkin_responses as r').join('users as u', 'u.uuid', 'r.user_uuid').where('r.checkin_uuid', checkin.uuid).modify(where);
  const rows = await withParts(db, (await query.select('r.*', 'u.first_name', 'u.last_name', 'u.email')) as (ResponseRow & ReportPerson)[]);
  rows.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
  const questions = new Map((await questionsOf(db, checkin.uuid)).map((q) => [q.uuid, q]));
  // A scale's or mood's number reads with its top (4/5, 🙂 4/5); other answers as they are.
  const shown = (a: Answer) => {
    const q = questions.get(a.uuid);
    return q && q.question_type === 'numeric' && typeof a.response === 'number' && kindOf(q).presentation ? answerWords(q, a.response) : a.response;
  };
  return rows
    .map((row) => ({
      person: { uuid: row.user_uuid, first_name: row.first_name, last_name: row.last_name, email: row.email },
      answers: readJson<Answer[]>(row.answers, []).map((a) => ({ question: a.question, response: shown(a) })),
      hasIssue: bool(row.has_issue),
      complete: bool(row.response_completed),
    }))
    .filter((entry) => entry.answers.length > 0);
}

/**
 * What a report says: the day's answers (parts folded in), who is missing, who is away and who is on a public
 * holiday (their calendar, else the check-in's); `only` narrows it to
 * one person's answer. A team report also carries the answers given or changed for the previous report's day
 * after that report went: an answer after the report is in the next one.
 */
export async function reportContent(db: Executor, checkin: CheckinRow, date: string, only: string | null): Promise<ReportContent & { recipients: Participant[] }> {
  // By name, so every report (and engine) lists people in the same order.
  const people = [...((await participantsOf(db, [checkin.uuid])).get(checkin.uuid)?.values() ?? [])].sort(byFullName);
  const entries = await reportEntries(db, checkin, (q) => {
    q.andWhere('r.response_date', date);
    if (only) q.andWhere('r.user_uuid', only);
  });
  // One person's answer goes out once it is complete (postAnswersOneByOne); a team report shows a day answered in
  // part too, marked so, and its person is not counted as having answered.
  const answered = only ? entries.filter((e) => e.complete) : entries;
  const responded = new Set(answered.map((e) => e.person.uuid));
  const pending = only ? [] : people.filter((p) => !responded.has(p.uuid));
  const away = await awayOn(db, pending.map((p) => p.uuid), date);
  const settings = loopSettings(checkin);
  const onHoliday = new Set(pending.filter((p) => !away.has(p.uuid) && holidayOf(p, settings, date)).map((p) => p.uuid));
  let late: ReportContent['late'];
  if (!only) {
    const previous: CheckinReportRow | undefined = await db('checkin_reports').where({ checkin_uuid: checkin.uuid, subject: TEAM }).andWhere('report_date', '<', date).orderBy('report_date', 'desc').first();
    if (previous) {
      const entries = await reportEntries(db, checkin, (q) => void q.andWhere('r.response_date', previous.report_date).andWhere('r.updated_at', '>', previous.sent_at));
      if (entries.length) late = { date: previous.report_date, answered: entries };
    }
  }
  return {
    checkinName: checkin.name,
    date,
    anonymous: bool(checkin.is_anonymous),
    single: only !== null,
    answered,
    missing: pending.filter((p) => !away.has(p.uuid) && !onHoliday.has(p.uuid)).map(reportPerson),
    away: pending.filter((p) => away.has(p.uuid)).map(reportPerson),
    holiday: pending.filter((p) => onHoliday.has(p.uuid)).map(reportPerson),
    ...(late ? { late } : {}),
    ...(!only ? { blockers: await teamBlockers(db, checkin, date) } : {}),
    recipients: people,
  };
}

/** What a report (and its chat payload) carries of a person. */
const reportPerson = ({ uuid, first_name, last_name, email }: Participant): ReportPerson => ({ uuid, first_name, last_name, email });

/** The check-in's blockers reported before `date` and still open (the day's own show in its answers), longest open first, with their people (an anonymous report names nobody: the renderers). */
async function teamBlockers(db: Executor, checkin: CheckinRow, date: string): Promise<NonNullable<ReportContent['blockers']>> {
  const rows: (BlockerRow & ReportPerson)[] = await db('checkin_blockers as b').join('users as u', 'u.uuid', 'b.user_uuid')
    .where('b.checkin_uuid', checkin.uuid).whereNull('b.resolved_at').andWhere('b.opened_on', '<', date)
    .select('b.*', 'u.first_name', 'u.last_name', 'u.email');
  rows.sort((a, b) => (a.opened_at < b.opened_at ? -1 : a.opened_at > b.opened_at ? 1 : a.uuid < b.uuid ? -1 : 1));
  return rows.map((row) => ({ person: { uuid: row.user_uuid, first_name: row.first_name, last_name: row.last_name, email: row.email }, text: row.text, days: daysOpen(row, date) }));
}

/** Writes one report (team, or one person's answer) once: false when it had been sent. */
async function sendReport(trx: Executor, config: Config, checkin: CheckinRow, date: string, only: string | null, now: Date): Promise<boolean> {
  const uuid = uuidv7(now.getTime());
  const claimed = await trx('checkin_reports')
    .insert({ uuid, organization_uuid: checkin.organization_uuid, checkin_uuid: checkin.uuid, report_date: date, subject: only ?? TEAM, sent_at: now.toISOString(), destinations: '[]' })
    .onConflict(['checkin_uuid', 'report_date', 'subject'])
    .ignore()
    .returning(['uuid']);
  if (claimed.length === 0) return false;
  // A conversation left half-way in chat is saved as far as it got, so the report shows it.
  if (!only) await saveConversationsOf(trx, config, checkin, date, now);
  const content = await reportContent(trx, checkin, date, only);
  if (only && content.answered.length === 0) return true; // the answer was reset meanwhile: nothing to post
  const channels = readJson<{ id: string }[]>(checkin.report_channels, []).map((c) => c.id);
  const platform = channels.length ? await platformName(trx, checkin.organization_uuid) : null;
  let destinations: string[];
  if (platform) {
    const { recipients: _people, ...report } = content;
    const direct = await sendsDirectMessages(trx, checkin.organization_uuid, platform);
    await enqueueChatPost(trx, {
      organizationUuid: checkin.organization_uuid, platform, text: reportText(content), message: { kind: 'report', report },
      channels: direct ? channels : [], users: [], kind: 'checkin.report', subjectUuid: uuid,
    }, now);
    destinations = direct ? channels.map((id) => `${platform}:channel:${id}`) : [`${platform}:webhook`];
  } else {
    // By e-mail to the participants who want reports so (PATCH /v1/me/ notifications.report_emails).
    const to = content.recipients.filter((p) => p.email && notificationsOf(p).report_emails);
    await enqueueMany(trx, to.map((person) => ({
      organizationUuid: checkin.organization_uuid, channel: 'email' as const, kind: 'checkin.report', destination: person.email, payload: reportEmail(content, [person.email], languageOf(person)), webhookId: null, subjectUuid: uuid,
    })), now);
    destinations = to.map((person) => `email:${person.email}`);
  }
  await trx('checkin_reports').where({ uuid }).update({ destinations: writeJson(destinations) });
  await ORGANIZATION_EVENTS.record(trx, {
    organizationUuid: checkin.organization_uuid,
    event: 'checkin.report.sent',
    payload: {
      uuid,
      followup: { uuid: checkin.uuid, id: checkin.uuid, name: checkin.name },
      report_date: date,
      one_by_one: only !== null,
      destinations,
      answered: content.answered.filter((e) => e.complete).length,
      not_finished: content.answered.filter((e) => !e.complete).length,
      missing: content.missing.length,
      away: content.away.length,
      holiday: content.holiday?.length ?? 0,
      sent_at: now.toISOString(),
    },
  }, now);
  return true;
}
