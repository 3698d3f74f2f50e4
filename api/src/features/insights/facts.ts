import type { Executor } from '../../db/connection.ts';
import { bool } from '../../lib/json.ts';

/*
 * What insights read, narrowly: the prompts of a period (who was asked which day, when, how often reminded) and
 * its responses (who answered which day, when, complete or not, with a blocker), each through its covering index
 * (migration 1150); and the typed answers already grouped by day, question and value. Nothing parses a
 * response's JSON.
 */

/** Which rows: check-ins, a period of their local days, and optionally only some people. */
export interface FactsFilter {
  checkinUuids: string[];
  from: string;
  to: string;
  /** Only these people (a team's members, or the caller alone); undefined: everyone. */
  userUuids?: string[];
}

export interface PromptFact {
  checkin_uuid: string;
  user_uuid: string;
  date: string;
  prompted_at: string;
  reminders_sent: number;
  remind_until: string;
}

export interface ResponseFact {
  checkin_uuid: string;
  user_uuid: string;
  date: string;
  completed: boolean;
  has_issue: boolean;
  created_at: string;
}

/** Typed answers of one day and question with one value, counted. */
export interface ValueCount {
  checkin_uuid: string;
  date: string;
  question_uuid: string;
  value_number: number | null;
  value_text: string | null;
  count: number;
}

function narrowed<Q extends { whereIn: (column: string, values: string[]) => Q }>(query: Q, column: string, values: string[] | undefined): Q {
  return values ? query.whereIn(column, values) : query;
}

export async function promptFacts(db: Executor, filter: FactsFilter): Promise<PromptFact[]> {
  const query = db('checkin_prompts')
    .whereIn('checkin_uuid', filter.checkinUuids)
    .andWhere('run_date', '>=', filter.from)
    .andWhere('run_date', '<=', filter.to)
    .select('checkin_uuid', 'user_uuid', 'run_date as date', 'prompted_at', 'reminders_sent', 'remind_until');
  return narrowed(query, 'user_uuid', filter.userUuids) as unknown as Promise<PromptFact[]>;
}

export async function responseFacts(db: Executor, filter: FactsFilter): Promise<ResponseFact[]> {
  const query = db('checkin_responses')
    .whereIn('checkin_uuid', filter.checkinUuids)
    .andWhere('response_date', '>=', filter.from)
    .andWhere('response_date', '<=', filter.to)
    .select('checkin_uuid', 'user_uuid', 'response_date as date', 'response_completed as completed', 'has_issue', 'created_at');
  const rows = (await narrowed(query, 'user_uuid', filter.userUuids)) as (Omit<ResponseFact, 'completed' | 'has_issue'> & { completed: boolean | number; has_issue: boolean | number })[];
  for (const row of rows) {
    (row as ResponseFact).completed = bool(row.completed);
    (row as ResponseFact).has_issue = bool(row.has_issue);
  }
  return rows as ResponseFact[];
}

/** The typed answers of the period, counted per check-in, day, question and value (in the index's order). */
export async function valueCounts(db: Executor, filter: FactsFilter, questionUuids: string[]): Promise<ValueCount[]> {
  if (questionUuids.length === 0) return [];
  const query = db('checkin_answer_values')
    .whereIn('checkin_uuid', filter.checkinUuids)
    .andWhere('response_date', '>=', filter.from)
    .andWhere('response_date', '<=', filter.to)
    .whereIn('question_uuid', questionUuids)
    .groupBy('checkin_uuid', 'response_date', 'question_uuid', 'value_number', 'value_text')
    .select('checkin_uuid', 'response_date as date', 'question_uuid', 'value_number', 'value_text')
    .count({ count: '*' });
  const rows = (await narrowed(query, 'user_uuid', filter.userUuids)) as (Omit<ValueCount, 'count'> & { count: number | string })[];
  return rows.map((row) => ({ ...row, value_number: row.value_number === null ? null : Number(row.value_number), count: Number(row.count) }));
}

/** How many responses answered each multiple-choice question (a response may pick several values). */
export async function answeredCounts(db: Executor, filter: FactsFilter, questionUuids: string[]): Promise<Map<string, number>> {
  if (questionUuids.length === 0) return new Map();
  const query = db('checkin_answer_values')
    .whereIn('checkin_uuid', filter.checkinUuids)
    .andWhere('response_date', '>=', filter.from)
    .andWhere('response_date', '<=', filter.to)
    .whereIn('question_uuid', questionUuids)
    .groupBy('question_uuid')
    .select('question_uuid')
    .countDistinct({ count: 'response_uuid' });
  const rows = (await narrowed(query, 'user_uuid', filter.userUuids)) as { question_uuid: string; count: number | string }[];
  return new Map(rows.map((row) => [row.question_uuid, Number(row.count)]));
}

/** Tracked moods (features/mood) of some people over a period, averaged per day. */
export async function trackedMoods(db: Executor, userUuids: string[], from: string, to: string): Promise<{ date: string; sum: number; count: number }[]> {
  const result: { date: string; sum: number; count: number }[] = [];
  for (let i = 0; i < userUuids.length; i += 500) {
    const rows = (await db('mood_entries')
      .whereIn('user_uuid', userUuids.slice(i, i + 500))
      .andWhere('date', '>=', from)
      .andWhere('date', '<=', to)
      .groupBy('date')
      .select('date')
      .sum({ sum: 'score' })
      .count({ count: '*' })) as { date: string; sum: number | string; count: number | string }[];
    for (const row of rows) result.push({ date: row.date, sum: Number(row.sum), count: Number(row.count) });
  }
  return result;
}
