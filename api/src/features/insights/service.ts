import type { Executor } from '../../db/connection.ts';
import { badRequest } from '../../lib/errors.ts';
import { bool, readJson } from '../../lib/json.ts';
import { addDays, isCalendarDate, localDate, startOfLocalDay } from '../../lib/dates.ts';
import type { Actor } from '../../auth/credentials.ts';
import { insightsReadBy } from '../../auth/policy.ts';
import type { CheckinRow, QuestionRow } from '../../db/tables.ts';
import { getVisibleCheckin, participantsOf, questionsOf } from '../checkins/repository.ts';
import { getTeam } from '../teams/service.ts';
import { fullName } from '../users/repository.ts';
import { aggregateQuestions, moodSeries, participation } from './compute.ts';
import type { Period, QuestionNumbers, TypedQuestion } from './compute.ts';
import { answeredCounts, promptFacts, responseFacts, trackedMoods, valueCounts } from './facts.ts';
import type { FactsFilter } from './facts.ts';

/** The longest period one request reads: a year, leap day included. */
export const MAX_PERIOD_DAYS = 366;
/** The period without from/to: the last 30 days, today included. */
export const DEFAULT_PERIOD_DAYS = 30;

/** A period asked for: either end may be absent (the default period ends today and runs 30 days). */
export interface PeriodInput {
  from?: string;
  to?: string;
}

/** The period in local days of `timeZone`, refused past MAX_PERIOD_DAYS (400 `invalid_date_range`). */
export function periodOf(input: PeriodInput, timeZone: string, now: Date): Period {
  const today = localDate(now, timeZone);
  const to = input.to ?? (input.from && addDays(input.from, DEFAULT_PERIOD_DAYS - 1) < today ? addDays(input.from, DEFAULT_PERIOD_DAYS - 1) : today);
  const from = input.from ?? addDays(to, -(DEFAULT_PERIOD_DAYS - 1));
  // A default start before year 0001 (to=0000-01-05) is no day the API writes: refused, never walked.
  if (!isCalendarDate(from) || !isCalendarDate(to)) throw badRequest('invalid_date_range', 'The period must lie within the years 0000 to 9999.', { parameter: isCalendarDate(from) ? 'to' : 'from' });
  if (from > to) throw badRequest('invalid_date_range', 'from is after to.', { parameter: 'from' });
  if (addDays(from, MAX_PERIOD_DAYS - 1) < to) throw badRequest('invalid_date_range', `The period is at most ${MAX_PERIOD_DAYS} days.`, { parameter: 'from' });
  return { from, to, today };
}

/** How a question asks (qtypes: `extras.presentation`, `min`, `max`, `multiple`), read leniently. */
function typedQuestion(q: QuestionRow): TypedQuestion | null {
  if (q.question_type !== 'numeric' && q.question_type !== 'boolean' && q.question_type !== 'multiple_choice') return null;
  const extras = readJson<Record<string, unknown>>(q.extras, {});
  const presentation = q.question_type === 'numeric' && (extras.presentation === 'scale' || extras.presentation === 'mood') ? extras.presentation : null;
  const bound = (name: string, fallback: number | null) => (typeof extras[name] === 'number' && Number.isInteger(extras[name]) ? (extras[name] as number) : fallback);
  return {
    uuid: q.uuid,
    checkin_uuid: q.checkin_uuid,
    index: q.position,
    question: q.question,
    question_type: q.question_type,
    presentation,
    min: presentation === 'mood' ? 1 : bound('min', presentation === 'scale' ? 1 : null),
    max: presentation === 'mood' ? 5 : bound('max', presentation === 'scale' ? 5 : null),
    choices: readJson<{ value: string }[]>(q.choices, []).map((c) => c.value),
    multiple: extras.multiple === true,
  };
}

export interface PersonRef {
  uuid: string;
  full_name: string;
}

export interface Insights {
  /** What the numbers are of: a check-in, or a team across its check-ins. */
  subject: { kind: 'checkin' | 'team'; uuid: string; name: string };
  period: Period;
  timezone: string;
  scope: 'all' | 'own';
  checkins: (Pick<CheckinRow, 'uuid' | 'name' | 'timezone'> & { anonymous: boolean })[];
  participation: ReturnType<typeof participation>;
  names: Map<string, PersonRef>;
  questions: QuestionNumbers[];
  mood: ReturnType<typeof moodSeries>;
}

/** Reads and aggregates the facts of some check-ins over a period, for everyone in `people` (or the caller alone). */
async function gather(db: Executor, actor: Actor, params: { subject: Insights['subject']; checkins: CheckinRow[]; period: Period; timezone: string; people: string[]; restrictTo?: string[] }): Promise<Insights> {
  const scope = insightsReadBy(actor);
  const { checkins, period } = params;
  const userUuids = scope === 'own' ? [actor.user.uuid] : params.restrictTo;
  const filter: FactsFilter = { checkinUuids: checkins.map((c) => c.uuid), from: period.from, to: period.to, userUuids };
  const questions: TypedQuestion[] = [];
  for (const checkin of checkins) for (const q of await questionsOf(db, checkin.uuid)) questions.push(...[typedQuestion(q)].filter((x) => x !== null));
  const [prompts, responses, counts, answered] = [
    await promptFacts(db, filter),
    await responseFacts(db, filter),
    await valueCounts(db, filter, questions.map((q) => q.uuid)),
    await answeredCounts(db, filter, questions.filter((q) => q.multiple).map((q) => q.uuid)),
  ];
  const zones = new Map(checkins.map((c) => [c.uuid, c.timezone]));
  const ends = new Map<string, string>();
  const endOfDay = (checkin: string, date: string) => {
    const key = `${checkin}|${date}`;
    let end = ends.get(key);
    if (!end) ends.set(key, (end = startOfLocalDay(addDays(date, 1), zones.get(checkin)!).toISOString()));
    return end;
  };
  // Anonymous check-ins count in the totals but name nobody: their facts stay out of the per-person numbers.
  const anonymous = new Set(checkins.filter((c) => bool(c.is_anonymous)).map((c) => c.uuid));
  const listed = scope === 'own' ? [actor.user.uuid] : params.people;
  const numbers = participation(period, prompts, responses, endOfDay, listed);
  if (anonymous.size && scope === 'all') {
    const named = participation(period, prompts.filter((p) => !anonymous.has(p.checkin_uuid)), responses.filter((r) => !anonymous.has(r.checkin_uuid)), endOfDay, anonymous.size === checkins.length ? [] : listed);
    numbers.people = named.people;
  }
  const names = await namesOf(db, numbers.people.map((p) => p.user_uuid));
  const sortName = (uuid: string) => names.get(uuid)?.full_name.toLowerCase() ?? '';
  numbers.people.sort((a, b) => sortName(a.user_uuid).localeCompare(sortName(b.user_uuid)) || (a.user_uuid < b.user_uuid ? -1 : 1));
  const aggregated = aggregateQuestions(questions, counts, answered);
  const moodPeople = scope === 'own' ? [actor.user.uuid] : [...new Set([...params.people, ...numbers.people.map((p) => p.user_uuid)])];
  const tracked = aggregated.some((q) => q.question.presentation === 'mood') ? [] : await trackedMoods(db, moodPeople, period.from, period.to);
  return {
    subject: params.subject,
    period,
    timezone: params.timezone,
    scope,
    checkins: checkins.map((c) => ({ uuid: c.uuid, name: c.name, timezone: c.timezone, anonymous: bool(c.is_anonymous) })),
    participation: numbers,
    names,
    questions: aggregated,
    mood: moodSeries(aggregated, tracked),
  };
}

async function namesOf(db: Executor, uuids: string[]): Promise<Map<string, PersonRef>> {
  const names = new Map<string, PersonRef>();
  for (let i = 0; i < uuids.length; i += 500) {
    const rows = await db('users').whereIn('uuid', uuids.slice(i, i + 500)).select('uuid', 'first_name', 'last_name', 'email');
    for (const row of rows) names.set(row.uuid, { uuid: row.uuid, full_name: fullName(row) });
  }
  return names;
}

/** GET /v1/checkins/{uuid}/insights/: a check-in the caller sees (404 otherwise, as for an absent one). */
export async function checkinInsights(db: Executor, actor: Actor, checkinUuid: string, input: PeriodInput, now: Date): Promise<Insights> {
  const checkin = await getVisibleCheckin(db, actor, checkinUuid);
  const period = periodOf(input, checkin.timezone, now);
  const people = [...((await participantsOf(db, [checkin.uuid])).get(checkin.uuid)?.keys() ?? [])];
  return gather(db, actor, { subject: { kind: 'checkin', uuid: checkin.uuid, name: checkin.name }, checkins: [checkin], period, timezone: checkin.timezone, people: bool(checkin.is_anonymous) ? [] : people });
}

/**
 * GET /v1/teams/{uuid}/insights/: the check-ins the team takes part in (not archived), counting its members'
 * answers only. Days are each check-in's own local days; the default period ends today in the organization's time zone.
 */
export async function teamInsights(db: Executor, actor: Actor, teamUuid: string, input: PeriodInput, now: Date): Promise<Insights> {
  const team = await getTeam(db, actor, teamUuid);
  const timezone = actor.organization.timezone;
  const period = periodOf(input, timezone, now);
  const checkins: CheckinRow[] = await db('checkins as c')
    .join('checkin_participant_teams as cpt', 'cpt.checkin_uuid', 'c.uuid')
    .where('cpt.team_uuid', team.uuid)
    .andWhere('c.organization_uuid', actor.organization.uuid)
    .andWhere('c.is_archived', false)
    .orderBy('c.name')
    .orderBy('c.uuid')
    .select('c.*');
  const members: string[] = (await db('team_members as tm').join('users as u', 'u.uuid', 'tm.user_uuid').where('tm.team_uuid', team.uuid).andWhere('u.is_active', true).select('tm.user_uuid')).map((r) => r.user_uuid);
  return gather(db, actor, { subject: { kind: 'team', uuid: team.uuid, name: team.name }, checkins, period, timezone, people: members, restrictTo: members });
}
