import type { Executor } from '../../db/connection.ts';
import { bool, readJson } from '../../lib/json.ts';
import { isoWeekday, localDate } from '../../lib/dates.ts';
import { sortByThenUuid, questionsOf } from './repository.ts';
import type { ParticipantUser } from './repository.ts';
import { forWrite } from '../../db/locks.ts';
import { recordResponseEvent, saveResponse } from './responses-service.ts';
import { isAnswered, signalsIssue } from './answer-rules.ts';
import { answersOf, appendPart, appendedText, hasPart, partsBasis } from './response-parts.ts';
import type { Answer } from './response-parts.ts';
import { scheduledOn } from './service.ts';
import type { CheckinRow, QuestionRow, ResponseRow } from '../../db/tables.ts';

/** A user's stand-up for one local day: the check-in, its questions (in order) and that day (YYYY-MM-DD). */
export interface ActiveStandup {
  checkin: CheckinRow;
  questions: QuestionRow[];
  date: string;
}

/** A user as the stand-up lookup needs them; callers that already loaded the row save a query. */
export type StandupUser = ParticipantUser & { organization_uuid: string; is_active: boolean | number };

/**
 * CONTRACT §6: the user's active daily stand-up is the first active check-in (by creation) they take part in
 * (directly or through an active team) whose schedule includes today in the check-in's own time zone.
 * Archived and paused check-ins never count. Null when there is none.
 *
 * Single-table lookups, joined and ordered here rather than in SQL: every co-authored agent report runs this,
 * and SQLite as better-sqlite3 builds it (with STAT4) prepares a statement with a join or an ORDER BY again on
 * every run, 50–80 µs instead of 3–7 µs (measured; see sortByThenUuid).
 */
export async function activeDailyStandup(db: Executor, userOrUuid: string | StandupUser, now: Date): Promise<ActiveStandup | null> {
  for (const checkin of await liveCheckinsOf(db, userOrUuid)) {
    const date = localDate(now, checkin.timezone);
    if (scheduledOn(checkin, date, isoWeekday(date))) {
      return { checkin, questions: await questionsOf(db, checkin.uuid), date };
    }
  }
  return null;
}

/** Every check-in the user takes part in whose schedule includes today (in its own time zone), by creation. */
export async function todaysStandups(db: Executor, userOrUuid: string | StandupUser, now: Date): Promise<ActiveStandup[]> {
  const today: ActiveStandup[] = [];
  for (const checkin of await liveCheckinsOf(db, userOrUuid)) {
    const date = localDate(now, checkin.timezone);
    if (scheduledOn(checkin, date, isoWeekday(date))) today.push({ checkin, questions: await questionsOf(db, checkin.uuid), date });
  }
  return today;
}

/** The active, unarchived check-ins an active user takes part in (directly or through an active team), by creation. */
async function liveCheckinsOf(db: Executor, userOrUuid: string | StandupUser): Promise<CheckinRow[]> {
  const user: Pick<StandupUser, 'uuid' | 'organization_uuid' | 'is_active'> | undefined =
    typeof userOrUuid === 'string' ? await db('users').where({ uuid: userOrUuid }).first('uuid', 'organization_uuid', 'is_active') : userOrUuid;
  if (!user || !bool(user.is_active)) return [];
  // Direct participations and team memberships in one statement (a UNION ALL of single-table selects).
  const memberships: { id: string; kind: 'checkin' | 'team' }[] = await db('checkin_participant_users')
    .where({ user_uuid: user.uuid })
    .select('checkin_uuid as id', db.raw("'checkin' as kind"))
    .unionAll((q) => q.from('team_members').where({ user_uuid: user.uuid }).select('team_uuid as id', db.raw("'team' as kind")));
  const checkinUuids = new Set(memberships.filter((m) => m.kind === 'checkin').map((m) => m.id));
  const teamUuids = memberships.filter((m) => m.kind === 'team').map((m) => m.id);
  if (teamUuids.length) {
    const activeTeams: string[] = (await db('teams').whereIn('uuid', teamUuids).andWhere({ active: true }).select('uuid')).map((row: { uuid: string }) => row.uuid);
    if (activeTeams.length) {
      for (const row of await db('checkin_participant_teams').whereIn('team_uuid', activeTeams).select('checkin_uuid')) checkinUuids.add(row.checkin_uuid);
    }
  }
  if (checkinUuids.size === 0) return [];
  const live: CheckinRow[] = await db('checkins')
    .whereIn('uuid', [...checkinUuids])
    .andWhere({ organization_uuid: user.organization_uuid, active: true, is_archived: false });
  return sortByThenUuid(live, (c) => c.created_at);
}

/** Lines to merge: each a list, or one text of one or more lines. */
export interface MergeLines {
  completed?: string[] | string;
  in_progress?: string[] | string;
  blockers?: string[] | string;
  content?: string;
}

export interface MergeResult {
  response: ResponseRow;
  created: boolean;
  /** Question uuid → the lines written into it. */
  written: Record<string, string[]>;
}

const asLines = (value: string[] | string | undefined): string[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : value.split(/\r?\n/)).map((line) => line.trim()).filter((line) => line !== '');

/**
 * CONTRACT §6 co-author merge into `userUuid`'s response for the stand-up's day: `completed` goes into the
 * first non-blocker question, `in_progress` into the second, `blockers` into the blocker question, `content`
 * into the first question. Only free-text questions take lines (a yes/no or numeric question cannot hold
 * them); lines without a fitting question go to the first text question, so nothing is lost. Every line ends
 * with `suffix` (" (co-authored with <agent_name>)"); an existing answer gets the lines appended (as parts:
 * response-parts.ts). Writes the followups.response.completed or .updated event in the same transaction. Null
 * when nothing fits at all. The response returned is the stored row: its `answers` without the parts.
 */
export async function mergeIntoTodaysResponse(
  trx: Executor,
  params: { userUuid: string; checkin: ActiveStandup; lines: MergeLines; suffix: string; now?: Date; author?: ParticipantUser },
): Promise<MergeResult | null> {
  const { checkin, questions, date } = params.checkin;
  const now = params.now ?? new Date();
  const textQuestions = questions.filter((q) => q.question_type === 'text');
  const nonBlockers = textQuestions.filter((q) => !bool(q.is_blocker));
  const blocker = textQuestions.find((q) => bool(q.is_blocker));
  const first = textQuestions[0];
  if (!first) return null;

  const suffix = params.suffix.trim();
  const written: Record<string, string[]> = {};
  const put = (question: QuestionRow | undefined, lines: string[]) => {
    if (lines.length === 0) return;
    const target = question ?? nonBlockers[0] ?? first;
    (written[target.uuid] ??= []).push(...lines.map((line) => (suffix ? `${line} ${suffix}` : line)));
  };
  put(nonBlockers[0], asLines(params.lines.completed));
  put(nonBlockers[1], asLines(params.lines.in_progress));
  put(blocker, asLines(params.lines.blockers));
  put(first, asLines(params.lines.content));
  if (Object.keys(written).length === 0) return null;

  // Locked (PostgreSQL) so merges into one response run one after another: each part's flags build on the last.
  const existing: ResponseRow | undefined = await forWrite(trx, trx('checkin_responses').where({ checkin_uuid: checkin.uuid, user_uuid: params.userUuid, response_date: date })).first();
  if (existing && existing.parts_basis === partsBasis(questions)) {
    const response = await appendToResponse(trx, { ...params.checkin, existing, written, author: params.author, now });
    return { response, created: false, written };
  }
  // A new response, or one whose snapshot predates the current questions: written whole, every answer rendered
  // with the current questions (the parts folded in and dropped).
  const previous = existing ? await answersOf(trx, existing) : [];
  const answers: Answer[] = questions
    .map((q) => {
      const added = written[q.uuid];
      const before = previous.find((a) => a.uuid === q.uuid);
      if (!added) return before ? { ...before, index: q.position, question: q.question } : null;
      return { uuid: q.uuid, index: q.position, question: q.question, response: appendedText(before?.response, added) };
    })
    .filter((a): a is Answer => a !== null);

  const response = await saveResponse(trx, { checkin, questions, userUuid: params.userUuid, date, answers, existing, author: params.author }, now);
  return { response, created: !existing, written };
}

/**
 * Appends the written lines to a response whose snapshot has the questions' current basis: one part per
 * question, and the flags worked out from what changed, so the cost does not grow with the day's answer. An
 * appended answer is never empty, and one that already held text, or gets several lines, always signals an
 * issue (the "no blockers" phrases are one line), so only the questions written decide the flags.
 */
async function appendToResponse(
  trx: Executor,
  params: ActiveStandup & { existing: ResponseRow; written: Record<string, string[]>; author?: ParticipantUser; now: Date },
): Promise<ResponseRow> {
  const { checkin, questions, existing, written, now } = params;
  const base = new Map(readJson<Answer[]>(existing.answers, []).map((a) => [a.uuid, a.response]));
  const held = new Map<string, Promise<boolean>>();
  // Whether the answer to `q` already holds text: in the snapshot, or through a part.
  const holdsText = (q: QuestionRow): Promise<boolean> => {
    const value = base.get(q.uuid);
    if (typeof value === 'string' && value.trim() !== '') return Promise.resolve(true);
    let known = held.get(q.uuid);
    if (!known) held.set(q.uuid, (known = hasPart(trx, existing.uuid, q.uuid)));
    return known;
  };
  let completed = bool(existing.response_completed);
  let hasIssue = bool(existing.has_issue);
  // The flags first: holdsText must not see this merge's own parts.
  for (const q of questions) {
    const lines = written[q.uuid];
    if (lines && !hasIssue && bool(q.is_blocker)) hasIssue = lines.length > 1 || signalsIssue(lines[0]) || (await holdsText(q));
  }
  if (!completed) {
    completed = true;
    for (const q of questions) {
      if (!bool(q.required) || written[q.uuid]) continue;
      const value = base.get(q.uuid);
      if (!isAnswered(value) && !(q.question_type === 'text' && (await holdsText(q)))) completed = false;
    }
  }
  for (const q of questions) {
    if (written[q.uuid]) await appendPart(trx, existing.uuid, q, written[q.uuid], now);
  }
  const stamp = now.toISOString();
  const row: ResponseRow = { ...existing, response_completed: completed, has_issue: hasIssue, updated_at: stamp };
  await trx('checkin_responses').where({ uuid: existing.uuid }).update({ response_completed: completed, has_issue: hasIssue, updated_at: stamp });
  await recordResponseEvent(trx, 'followups.response.updated', checkin, row, now, params.author, () => answersOf(trx, row));
  return row;
}
