import type { Executor } from '../../db/connection.ts';
import { ValidationFailed, conflict } from '../../lib/errors.ts';
import type { PageRequest } from '../../lib/page.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { bool } from '../../lib/json.ts';
import type { Actor } from '../../auth/credentials.ts';
import { assertCan } from '../../auth/policy.ts';
import { likePattern } from '../../db/sql.ts';
import { DEFAULT_TEMPLATE, defaultSchedule, findTemplate } from '../templates/catalog.ts';
import { localDate } from '../../lib/dates.ts';
import { holidayFor } from '../../lib/holidays.ts';
import { byFullName } from '../../lib/names.ts';
import { awayOn } from '../../db/time-off.ts';
import { readJson } from '../../lib/json.ts';
import { parseDays } from './schedule-days.ts';
import { conditionProblems, questionColumns, settingsColumns } from './columns.ts';
import { configuredParticipants, getVisibleCheckin, participantsOf, questionsOf, visibleCheckins } from './repository.ts';
import type { Participant, ParticipantUser } from './repository.ts';
import type { CheckinSettingsInput, CreateCheckinInput, QuestionInput, UpdateCheckinInput } from './schema.ts';
import type { CheckinRow, QuestionRow } from '../../db/tables.ts';

export interface CheckinDetail {
  row: CheckinRow;
  questions: QuestionRow[];
  participants: { users: ParticipantUser[]; teams: { uuid: string; name: string }[] };
  participantsCount: number;
  createdBy: ParticipantUser | null;
}

async function checkParticipants(db: Executor, actor: Actor, input: CheckinSettingsInput, problems: Record<string, string[]>) {
  const userUuids = [...new Set(input.participants?.user_uuids ?? [])];
  const teamUuids = [...new Set(input.participants?.team_uuids ?? [])];
  if (userUuids.length) {
    const found = new Set((await db('users').where('organization_uuid', actor.organization.uuid).whereIn('uuid', userUuids).select('uuid')).map((r: { uuid: string }) => r.uuid));
    input.participants!.user_uuids!.forEach((uuid, i) => {
      if (!found.has(uuid)) problems[`participants.user_uuids.${i}`] = ['No user with this id in your organization.'];
    });
  }
  if (teamUuids.length) {
    const found = new Set((await db('teams').where('organization_uuid', actor.organization.uuid).whereIn('uuid', teamUuids).select('uuid')).map((r: { uuid: string }) => r.uuid));
    input.participants!.team_uuids!.forEach((uuid, i) => {
      if (!found.has(uuid)) problems[`participants.team_uuids.${i}`] = ['No team with this id in your organization.'];
    });
  }
  return { userUuids, teamUuids };
}

async function replaceParticipants(db: Executor, checkinUuid: string, input: CheckinSettingsInput, userUuids: string[], teamUuids: string[]) {
  if (input.participants?.user_uuids) {
    await db('checkin_participant_users').where('checkin_uuid', checkinUuid).delete();
    if (userUuids.length) await db('checkin_participant_users').insert(userUuids.map((user_uuid) => ({ checkin_uuid: checkinUuid, user_uuid })));
  }
  if (input.participants?.team_uuids) {
    await db('checkin_participant_teams').where('checkin_uuid', checkinUuid).delete();
    if (teamUuids.length) await db('checkin_participant_teams').insert(teamUuids.map((team_uuid) => ({ checkin_uuid: checkinUuid, team_uuid })));
  }
}

function templateQuestions(templateUuid: string | null | undefined): QuestionInput[] {
  const template = (templateUuid && findTemplate(templateUuid)) || DEFAULT_TEMPLATE;
  return template.questions.map((q) => ({ ...q }));
}

/**
 * 409 `checkin_name_conflict` when another live (not archived) check-in of the organization has this name, case
 * aside: two "Daily stand-up"s in one list, one report channel and one e-mail subject cannot be told apart.
 */
async function assertNameFree(db: Executor, organizationUuid: string, name: string, except: string | null): Promise<void> {
  const clash = await db('checkins')
    .where({ organization_uuid: organizationUuid, is_archived: false })
    .andWhereRaw('lower(name) = ?', [name.trim().toLowerCase()])
    .modify((q) => void (except && q.andWhereNot('uuid', except)))
    .first('uuid');
  if (clash) throw conflict('checkin_name_conflict', `Your organization already has a check-in named "${name}"; choose another name or archive that one.`, { uuid: clash.uuid });
}

/**
 * What a new check-in's schedule is when the body leaves it out: its template's (a weekly template asks on Fridays,
 * a retrospective every other Friday), else what its frequency_type implies, else every weekday.
 */
function withDefaultSchedule(input: CreateCheckinInput): CreateCheckinInput {
  const template = input.template_uuid ? findTemplate(input.template_uuid) : undefined;
  const fallback = template && !input.frequency_type ? template.schedule : defaultSchedule(input.frequency_type);
  const daysGiven = input.schedule?.days !== undefined || input.frequency_on_days !== undefined;
  return {
    ...input,
    ...(daysGiven ? {} : { schedule: { ...input.schedule, days: fallback.days } }),
    ...(input.frequency !== undefined || daysGiven ? {} : { frequency: fallback.frequency }),
  };
}

export async function createCheckin(db: Executor, actor: Actor, body: CreateCheckinInput, now: Date): Promise<CheckinDetail> {
  return db.transaction(async (trx) => {
    assertCan(actor, 'checkins.manage');
    const input = withDefaultSchedule(body);
    const problems: Record<string, string[]> = {};
    if (input.template_uuid && !findTemplate(input.template_uuid)) problems.template_uuid = ['No template with this id.'];
    const { userUuids, teamUuids } = await checkParticipants(trx, actor, input, problems);
    const columns = settingsColumns(input, null, problems);
    const questions = input.questions && input.questions.length > 0 ? input.questions : templateQuestions(input.template_uuid);
    const questionRows = questions.map((q, i) => {
      const { columns: qc, problems: qp } = questionColumns(q, `questions.${i}.`, undefined, input.generate_short_question ?? false);
      Object.assign(problems, qp);
      return qc;
    });
    Object.assign(problems, conditionProblems(questionRows, (i) => `questions.${i}.`));
    if (Object.keys(problems).length) throw new ValidationFailed(problems);
    await assertNameFree(trx, actor.organization.uuid, input.name, null);

    const uuid = uuidv7(now.getTime());
    const stamp = now.toISOString();
    const template = input.template_uuid ? findTemplate(input.template_uuid) : undefined;
    await trx('checkins').insert({
      uuid,
      organization_uuid: actor.organization.uuid,
      name: input.name,
      active: true,
      is_archived: false,
      archived_at: null,
      frequency_type: template?.frequency_type ?? 'daily',
      days: '1,2,3,4,5',
      time: '09:00',
      timezone: actor.organization.timezone,
      start_on: null,
      end_on: null,
      is_anonymous: false,
      allow_past_responses: false,
      allow_future_responses: false,
      template_uuid: null,
      report_channels: '[]',
      created_by_uuid: actor.user.uuid,
      created_at: stamp,
      updated_at: stamp,
      ...columns,
    });
    await trx('checkin_questions').insert(questionRows.map((q, position) => ({ uuid: uuidv7(now.getTime()), checkin_uuid: uuid, position, ...q, created_at: stamp, updated_at: stamp })));
    await replaceParticipants(trx, uuid, input, userUuids, teamUuids);
    return checkinDetail(trx, actor, uuid);
  });
}

/** PATCH …/config/: what is present changes; `questions` replaces the list (a `uuid` keeps a question's identity). */
export async function updateCheckin(db: Executor, actor: Actor, uuid: string, input: UpdateCheckinInput, now: Date): Promise<CheckinDetail> {
  return db.transaction(async (trx) => {
    const current = await getVisibleCheckin(trx, actor, uuid);
    assertCan(actor, 'checkins.manage');
    const problems: Record<string, string[]> = {};
    if (input.template_uuid && !findTemplate(input.template_uuid)) problems.template_uuid = ['No template with this id.'];
    const { userUuids, teamUuids } = await checkParticipants(trx, actor, input, problems);
    const columns = settingsColumns(input, current, problems);
    const stamp = now.toISOString();
    let questionPlan: { uuid: string | null; columns: Record<string, unknown> }[] | null = null;
    if (input.questions) {
      const existing = new Map((await questionsOf(trx, uuid)).map((q) => [q.uuid, q]));
      questionPlan = input.questions.map((q, i) => {
        const current = q.uuid ? existing.get(q.uuid) : undefined;
        if (q.uuid && !current) problems[`questions.${i}.uuid`] = ['No question with this id in the check-in.'];
        const { columns: qc, problems: qp } = questionColumns(q, `questions.${i}.`, current, input.generate_short_question ?? false);
        Object.assign(problems, qp);
        return { uuid: current ? current.uuid : null, columns: qc };
      });
      if (questionPlan.length === 0) problems.questions = ['A check-in needs at least one question.'];
      Object.assign(problems, conditionProblems(questionPlan.map((q) => q.columns as unknown as QuestionRow), (i) => `questions.${i}.`));
    }
    if (Object.keys(problems).length) throw new ValidationFailed(problems);
    if (input.name !== undefined && !bool(current.is_archived)) await assertNameFree(trx, actor.organization.uuid, input.name, uuid);

    await trx('checkins').where({ uuid }).update({ ...columns, updated_at: stamp });
    if (questionPlan) {
      const keep = questionPlan.map((q) => q.uuid).filter((u): u is string => u !== null);
      await trx('checkin_questions').where('checkin_uuid', uuid).whereNotIn('uuid', keep).delete();
      for (const [position, q] of questionPlan.entries()) {
        if (q.uuid) await trx('checkin_questions').where({ uuid: q.uuid }).update({ ...q.columns, position, updated_at: stamp });
        else await trx('checkin_questions').insert({ uuid: uuidv7(now.getTime()), checkin_uuid: uuid, position, ...q.columns, created_at: stamp, updated_at: stamp });
      }
    }
    await replaceParticipants(trx, uuid, input, userUuids, teamUuids);
    return checkinDetail(trx, actor, uuid);
  });
}

export async function archiveCheckin(db: Executor, actor: Actor, uuid: string, now: Date): Promise<void> {
  await getVisibleCheckin(db, actor, uuid);
  assertCan(actor, 'checkins.manage');
  await db('checkins').where({ uuid }).update({ is_archived: true, archived_at: now.toISOString(), updated_at: now.toISOString() });
}

export async function checkinDetail(db: Executor, actor: Actor, uuid: string): Promise<CheckinDetail> {
  const row = await getVisibleCheckin(db, actor, uuid);
  const [questions, participants, effective] = [await questionsOf(db, uuid), await configuredParticipants(db, uuid), await participantsOf(db, [uuid])];
  const createdBy: ParticipantUser | null = row.created_by_uuid
    ? ((await db('users').where({ uuid: row.created_by_uuid }).first('uuid', 'first_name', 'last_name', 'email')) ?? null)
    : null;
  return { row, questions, participants, participantsCount: effective.get(uuid)!.size, createdBy };
}

export interface CheckinListFilters {
  search?: string;
  includeArchived: boolean;
  active?: boolean;
  date?: string;
  includeSummary: boolean;
  includePendingUsers: boolean;
}

export interface CheckinListItem {
  row: CheckinRow;
  participantsCount: number;
  summary?: { date: string; participants: number; responded: number; pending: number; away: number; holiday: number; existed: boolean; responseCompleted: boolean };
  pendingUsers?: ParticipantUser[];
  /** Of the pending, those on time off that day, and those on a public holiday of their calendar (issue 36). */
  awayUsers?: ParticipantUser[];
  holidayUsers?: ParticipantUser[];
}

/**
 * The list with, on request, each check-in's day summary: `date`, or each check-in's own today (its time
 * zone). Counting is batched per page: two participant queries, one response query and one time-off query per day.
 */
export async function listCheckins(db: Executor, actor: Actor, filters: CheckinListFilters, page: PageRequest, now: Date): Promise<{ count: number; items: CheckinListItem[] }> {
  const filtered = () => {
    const query = visibleCheckins(db, actor);
    if (!filters.includeArchived) query.andWhere('c.is_archived', false);
    if (filters.active !== undefined) query.andWhere('c.active', filters.active);
    if (filters.search) query.andWhereRaw("lower(c.name) like ? escape '\\'", [likePattern(filters.search)]);
    return query;
  };
  const [{ count }] = await filtered().count({ count: '*' });
  const rows: CheckinRow[] = await filtered().select('c.*').orderBy('c.created_at').orderBy('c.uuid').limit(page.limit).offset(page.offset);
  const uuids = rows.map((r) => r.uuid);
  const participants = await participantsOf(db, uuids);
  const items: CheckinListItem[] = rows.map((row) => ({ row, participantsCount: participants.get(row.uuid)!.size }));
  if (filters.includeSummary || filters.includePendingUsers) {
    const dayOf = new Map(rows.map((r) => [r.uuid, filters.date ?? localDate(now, r.timezone)]));
    const days = [...new Set(dayOf.values())];
    const responses: { checkin_uuid: string; user_uuid: string; response_date: string; response_completed: number | boolean }[] = uuids.length
      ? await db('checkin_responses').whereIn('checkin_uuid', uuids).whereIn('response_date', days).select('checkin_uuid', 'user_uuid', 'response_date', 'response_completed')
      : [];
    const pendingOf = new Map<string, Participant[]>();
    for (const item of items) {
      const day = dayOf.get(item.row.uuid)!;
      const people = participants.get(item.row.uuid)!;
      // Responded: every required question answered (a day answered in part is still pending).
      const responded = new Set(responses.filter((r) => r.checkin_uuid === item.row.uuid && r.response_date === day && people.has(r.user_uuid) && bool(r.response_completed)).map((r) => r.user_uuid));
      // By name, so the lists read the same on every engine.
      pendingOf.set(item.row.uuid, [...people.values()].filter((p) => !responded.has(p.uuid)).sort(byFullName));
    }
    // Who is away: one query per day the page counts (usually one).
    const awayByDay = new Map<string, Set<string>>();
    for (const day of days) awayByDay.set(day, await awayOn(db, [...new Set(items.filter((i) => dayOf.get(i.row.uuid) === day).flatMap((i) => pendingOf.get(i.row.uuid)!.map((p) => p.uuid)))], day));
    for (const item of items) {
      const day = dayOf.get(item.row.uuid)!;
      const people = participants.get(item.row.uuid)!;
      const mine = responses.find((r) => r.checkin_uuid === item.row.uuid && r.response_date === day && r.user_uuid === actor.user.uuid);
      const pending = pendingOf.get(item.row.uuid)!;
      const awayThatDay = awayByDay.get(day)!;
      const away = new Set(pending.filter((p) => awayThatDay.has(p.uuid)).map((p) => p.uuid));
      const calendar = holidayCalendarOf(item.row);
      const onHoliday = pending.filter((p) => !away.has(p.uuid) && holidayFor(p.holiday_calendar, calendar, day));
      item.summary = {
        date: day, participants: people.size, responded: people.size - pending.length, pending: pending.length, away: away.size, holiday: onHoliday.length,
        // A day before the check-in was created (its local day) is one it could not have asked.
        existed: day >= localDate(new Date(item.row.created_at), item.row.timezone),
        responseCompleted: mine ? bool(mine.response_completed) : false,
      };
      if (filters.includePendingUsers) {
        // An anonymous check-in names nobody: who is pending would tell who answered.
        const anonymous = bool(item.row.is_anonymous);
        item.pendingUsers = anonymous ? [] : pending;
        item.awayUsers = anonymous ? [] : pending.filter((p) => away.has(p.uuid));
        item.holidayUsers = anonymous ? [] : onHoliday;
      }
    }
  }
  return { count: Number(count), items };
}

/** The check-in's public-holiday calendar (its `holiday_calendar` setting), or null. */
export function holidayCalendarOf(row: Pick<CheckinRow, 'settings'>): string | null {
  const value = readJson<Record<string, unknown>>(row.settings, {}).holiday_calendar;
  return typeof value === 'string' && value !== '' ? value : null;
}

/** Whether the check-in's schedule includes `date` (weekday, start_on, end_on). */
export function scheduledOn(row: CheckinRow, date: string, weekday: number): boolean {
  if (!parseDays(row.days).includes(weekday)) return false;
  if (row.start_on && date < row.start_on) return false;
  if (row.end_on && date > row.end_on) return false;
  return true;
}
