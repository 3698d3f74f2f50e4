import type { Executor } from '../../db/connection.ts';
import type { Actor } from '../../auth/credentials.ts';
import { addDays, localDate, startOfLocalDay } from '../../lib/dates.ts';
import { MAX_PAGE_SIZE } from '../../lib/page.ts';
import { bool, readJson } from '../../lib/json.ts';
import type { QuestionRow } from '../../db/tables.ts';
import { pendingCheckins } from '../cli/service.ts';
import { listKudos } from '../kudos/service.ts';
import { fullName } from '../users/repository.ts';
import type { Answer } from '../checkins/responses-service.ts';
import type { DayRange, Topic } from './topics.ts';

/** What a source reads with: the caller, their local today and the days asked about. */
export interface Reading {
  db: Executor;
  actor: Actor;
  now: Date;
  timeZone: string;
  today: string;
  range: DayRange;
}

/**
 * One kind of the caller's own data the assistant can speak about. `read` gives lines for a person (at most
 * MAX_LINES); `intro` and `nothing` frame them in the built-in answer, `title` in the language model's context.
 * A source whose data this server does not have says so with `unavailable`, and the assistant says it plainly.
 */
export interface Source {
  topic: Topic;
  title: string;
  /** Whether the question's days matter (pending check-ins are always today's). */
  ranged: boolean;
  read?(reading: Reading): Promise<string[]>;
  intro?(count: number, range: DayRange): string;
  nothing?(range: DayRange): string;
  unavailable?: string;
}

export const MAX_LINES = 20;
const clip = (text: string, max = 200) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The caller's own check-in answers on the days asked about, newest first, with their check-in's name and questions. */
async function ownResponses({ db, actor, range }: Reading) {
  const rows = await db('checkin_responses')
    .whereIn('checkin_uuid', db('checkins').where({ organization_uuid: actor.organization.uuid }).select('uuid'))
    .andWhere({ user_uuid: actor.user.uuid })
    .andWhere('response_date', '>=', range.from)
    .andWhere('response_date', '<=', range.to);
  if (rows.length === 0) return [];
  const checkinUuids = [...new Set(rows.map((r) => r.checkin_uuid))];
  const names = new Map((await db('checkins').whereIn('uuid', checkinUuids).select('uuid', 'name')).map((c) => [c.uuid, c.name as string]));
  const blockerQuestions = new Set(
    (await db('checkin_questions').whereIn('checkin_uuid', checkinUuids).select('uuid', 'is_blocker') as Pick<QuestionRow, 'uuid' | 'is_blocker'>[])
      .filter((q) => bool(q.is_blocker))
      .map((q) => q.uuid),
  );
  return rows
    .sort((a, b) => (a.response_date === b.response_date ? (a.uuid < b.uuid ? 1 : -1) : a.response_date < b.response_date ? 1 : -1))
    .map((row) => ({
      date: row.response_date,
      checkin: names.get(row.checkin_uuid) ?? 'A check-in',
      hasIssue: bool(row.has_issue),
      answers: readJson<Answer[]>(row.answers, []).filter((a) => typeof a.response === 'string' ? a.response.trim() !== '' : a.response !== null && a.response !== undefined),
      isBlocker: (answer: Answer) => blockerQuestions.has(answer.uuid),
    }));
}

const pending: Source = {
  topic: 'pending_checkins',
  title: 'Check-ins waiting for an answer today',
  ranged: false,
  async read({ db, actor, now, today }) {
    return (await pendingCheckins(db, actor, now)).map(({ checkin, questions, date }) =>
      `${checkin.name} (${plural(questions.length, 'question')}${date === today ? '' : `, for ${date}`})`,
    );
  },
  intro: (count) => `You have ${plural(count, 'check-in')} waiting for an answer today:`,
  nothing: () => 'Nothing is waiting for your answer today.',
};

const blockers: Source = {
  topic: 'blockers',
  title: 'Blockers the caller reported',
  ranged: true,
  async read(reading) {
    return (await ownResponses(reading))
      .filter((r) => r.hasIssue)
      .flatMap((r) => r.answers.filter(r.isBlocker).map((a) => `${r.date}, ${r.checkin}: ${clip(String(a.response))}`));
  },
  intro: (_count, range) => `Blockers you reported ${range.label}:`,
  nothing: (range) => `You reported no blockers ${range.label}.`,
};

const updates: Source = {
  topic: 'updates',
  title: 'The caller\'s check-in answers',
  ranged: true,
  async read(reading) {
    return (await ownResponses(reading)).flatMap((r) => r.answers.map((a) => `${r.date}, ${r.checkin}: ${a.question} ${clip(String(a.response))}`));
  },
  intro: (_count, range) => `Your check-in answers ${range.label}:`,
  nothing: (range) => `You answered no check-in ${range.label}.`,
};

const agentReports: Source = {
  topic: 'agent_reports',
  title: 'Reports the caller\'s agents sent',
  ranged: true,
  async read({ db, actor, timeZone, range }) {
    const rows = await db('agent_reports')
      .whereIn('agent_uuid', db('agents').where({ organization_uuid: actor.organization.uuid }).select('uuid'))
      .andWhere({ reported_by_uuid: actor.user.uuid })
      .andWhere('created_at', '>=', `${addDays(range.from, -1)}T00:00:00.000Z`)
      .select('agent_uuid', 'content', 'created_at', 'uuid');
    const inRange = rows
      .map((row) => ({ ...row, day: localDate(new Date(row.created_at), timeZone) }))
      .filter((row) => row.day >= range.from && row.day <= range.to)
      .sort((a, b) => (a.created_at === b.created_at ? (a.uuid < b.uuid ? 1 : -1) : a.created_at < b.created_at ? 1 : -1));
    const agents = new Map((await db('agents').whereIn('uuid', [...new Set(inRange.map((r) => r.agent_uuid))]).select('uuid', 'name')).map((a) => [a.uuid, a.name as string]));
    return inRange.map((row) => `${row.day}, ${agents.get(row.agent_uuid) ?? 'an agent'}: ${clip(row.content)}`);
  },
  intro: (count, range) => `Your agents sent ${plural(count, 'report')} ${range.label}:`,
  nothing: (range) => `Your agents sent no reports ${range.label}.`,
};

const kudos: Source = {
  topic: 'kudos',
  title: 'Kudos the caller received and gave',
  ranged: true,
  async read({ db, actor, timeZone, range }) {
    const filters = { side: 'both' as const, from: startOfLocalDay(range.from, timeZone), to: startOfLocalDay(addDays(range.to, 1), timeZone) };
    const { views } = await listKudos(db, actor, filters, { limit: MAX_PAGE_SIZE, offset: 0, style: 'offset' });
    return views.map(({ row, giver, receivers, teams, companyValue }) => {
      const day = localDate(new Date(row.created_at), timeZone);
      const value = companyValue ? ` (${companyValue.value})` : '';
      if (row.giver_uuid === actor.user.uuid) {
        const to = [...receivers.map((r) => fullName(r)), ...teams.map((t) => t.name)].join(', ');
        return `${day}, you to ${to}: ${clip(row.content)}${value}`;
      }
      return `${day}, from ${giver ? fullName(giver) : 'someone, anonymously'}: ${clip(row.content)}${value}`;
    });
  },
  intro: (count, range) => `${plural(count, 'kudos', 'kudos')} ${range.label}:`,
  nothing: (range) => `No kudos given or received ${range.label}.`,
};

/**
 * Extension point: tasks. Tasks belong to the Plan (`/v1/plan/`), whose boards and states are here but not its
 * tasks yet; once `features/plan/tasks/` serves them, replace this with a source reading the caller's open tasks
 * (owner = the caller) on boards they can see, due dates first.
 */
const tasks: Source = {
  topic: 'tasks',
  title: 'Tasks',
  ranged: false,
  unavailable: 'Plan tasks are not on this server yet, so I cannot see your tasks.',
};

/** Every source, in the order the language model's context lists them. */
export const SOURCES: readonly Source[] = [pending, blockers, updates, agentReports, kudos, tasks];

export const sourceFor = (topic: Topic): Source | undefined => SOURCES.find((source) => source.topic === topic);

/** A source's lines, at most MAX_LINES, with how many there were in all. */
export async function readSource(source: Source, reading: Reading): Promise<{ lines: string[]; total: number } | null> {
  if (!source.read) return null;
  const lines = await source.read(reading);
  return { lines: lines.slice(0, MAX_LINES), total: lines.length };
}
