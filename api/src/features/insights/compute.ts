import { addDays } from '../../lib/dates.ts';
import type { PromptFact, ResponseFact, ValueCount } from './facts.ts';

/*
 * The numbers of insights, from the facts of a period, without the database (docs/checkins.md, "Insights"):
 *
 * - expected: each day a person was asked (a prompt: the check-in loop does not ask on days off, time off or
 *   before a person joined), and each day someone answered without being asked;
 * - answered: a response that answers every required question (`response_completed`);
 * - on time: answered before the first reminder went out and before the end of the day asked (the prompt's
 *   `remind_until`); answered without a prompt, before the end of the day it answers for;
 * - minutes to answer: from the prompt to the response's first save, for answers to a prompt;
 * - streaks: runs of expected days answered, in date order; today's day, not answered yet, does not break one.
 */

export interface Period {
  from: string;
  to: string;
  /** The local day now: a day from here on that is not answered yet is pending, not missed. */
  today: string;
}

interface Tally {
  expected: number;
  answered: number;
  onTime: number;
  minutes: number;
  timed: number;
}

const tally = (): Tally => ({ expected: 0, answered: 0, onTime: 0, minutes: 0, timed: 0 });
const ratio = (part: number, whole: number): number | null => (whole === 0 ? null : Math.round((part / whole) * 1000) / 1000);
const average = (sum: number, count: number, digits = 1): number | null => (count === 0 ? null : Math.round((sum / count) * 10 ** digits) / 10 ** digits);

export const rates = (t: Tally) => ({
  expected: t.expected,
  answered: t.answered,
  answered_on_time: t.onTime,
  participation_rate: ratio(t.answered, t.expected),
  on_time_rate: ratio(t.onTime, t.answered),
  average_minutes_to_answer: average(t.minutes, t.timed),
});

export type Rates = ReturnType<typeof rates>;

export interface DayNumbers extends Rates {
  date: string;
  blockers_reported: number;
}

export interface PersonNumbers extends Rates {
  user_uuid: string;
  current_streak: number;
  longest_streak: number;
}

export interface Participation {
  totals: Rates & { blockers_reported: number };
  days: DayNumbers[];
  people: PersonNumbers[];
}

/** One expected day of one person in one check-in, and how it went. */
interface Item {
  date: string;
  checkin: string;
  answered: boolean;
}

/** Every day of the period, in order. */
export function daysOf(period: Pick<Period, 'from' | 'to'>): string[] {
  const days: string[] = [];
  // Bounded whatever the strings: a period is at most a year (service.ts checks it before).
  for (let day = period.from; day <= period.to && days.length <= 366; day = addDays(day, 1)) days.push(day);
  return days;
}

/**
 * Participation overall, per day and per person. `endOfDay(checkin, date)` is the instant a day of a check-in
 * ends (ISO); `people` are listed even with nothing expected of them (current participants), `perPerson` false
 * lists nobody (an anonymous check-in).
 */
export function participation(
  period: Period,
  prompts: PromptFact[],
  responses: ResponseFact[],
  endOfDay: (checkin: string, date: string) => string,
  people: string[],
): Participation {
  const total = tally();
  const byDay = new Map<string, Tally & { blockers: number }>(daysOf(period).map((d) => [d, { ...tally(), blockers: 0 }]));
  const byPerson = new Map<string, { tally: Tally; items: Item[] }>(people.map((u) => [u, { tally: tally(), items: [] }]));
  const person = (user: string) => {
    let entry = byPerson.get(user);
    if (!entry) byPerson.set(user, (entry = { tally: tally(), items: [] }));
    return entry;
  };
  const asked = new Map<string, PromptFact>();
  for (const p of prompts) asked.set(`${p.checkin_uuid}|${p.user_uuid}|${p.date}`, p);
  let blockers = 0;

  const count = (user: string, date: string, checkin: string, answered: boolean, onTime: boolean, minutes: number | null) => {
    const day = byDay.get(date);
    const entry = person(user);
    for (const t of day ? [total, day, entry.tally] : [total, entry.tally]) {
      t.expected++;
      if (!answered) continue;
      t.answered++;
      if (onTime) t.onTime++;
      if (minutes !== null) {
        t.minutes += minutes;
        t.timed++;
      }
    }
    entry.items.push({ date, checkin, answered });
  };

  for (const r of responses) {
    const key = `${r.checkin_uuid}|${r.user_uuid}|${r.date}`;
    const prompt = asked.get(key);
    asked.delete(key);
    if (r.has_issue) {
      blockers++;
      const day = byDay.get(r.date);
      if (day) day.blockers++;
    }
    // A day not over yet and not answered in full is pending, as an unanswered prompt of today is.
    if (!r.completed && r.date >= period.today) continue;
    let onTime = false;
    let minutes: number | null = null;
    if (r.completed) {
      if (prompt) {
        onTime = prompt.reminders_sent === 0 && r.created_at <= prompt.remind_until;
        const waited = Date.parse(r.created_at) - Date.parse(prompt.prompted_at);
        if (waited >= 0) minutes = waited / 60_000;
      } else {
        onTime = r.created_at < endOfDay(r.checkin_uuid, r.date);
      }
    }
    count(r.user_uuid, r.date, r.checkin_uuid, r.completed, onTime, minutes);
  }
  // Prompts nobody answered: expected, not answered; today's are pending (not counted until the day is over).
  for (const p of asked.values()) {
    if (p.date >= period.today) continue;
    count(p.user_uuid, p.date, p.checkin_uuid, false, false, null);
  }

  const days = [...byDay].map(([date, t]) => ({ date, ...rates(t), blockers_reported: t.blockers }));
  const list = [...byPerson].map(([user, { tally: t, items }]) => ({ user_uuid: user, ...rates(t), ...streaks(items) }));
  return { totals: { ...rates(total), blockers_reported: blockers }, days, people: list };
}

/** The longest run of answered days, and the run that reaches the last expected day (0 when that day was missed). */
export function streaks(items: Item[]): { current_streak: number; longest_streak: number } {
  items.sort((a, b) => (a.date === b.date ? (a.checkin < b.checkin ? -1 : 1) : a.date < b.date ? -1 : 1));
  let run = 0;
  let longest = 0;
  for (const item of items) {
    run = item.answered ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return { current_streak: run, longest_streak: longest };
}

/** A typed question as insights aggregate it. */
export interface TypedQuestion {
  uuid: string;
  checkin_uuid: string;
  index: number;
  question: string;
  question_type: 'numeric' | 'boolean' | 'multiple_choice';
  presentation: 'scale' | 'mood' | null;
  min: number | null;
  max: number | null;
  choices: string[];
  multiple: boolean;
}

export interface QuestionNumbers {
  question: TypedQuestion;
  answered: number;
  mean: number | null;
  min: number | null;
  max: number | null;
  distribution: { value: number | string | boolean; count: number }[] | null;
  /** Scale and mood questions: the mean of each day with answers. */
  days: { date: string; mean: number; count: number }[] | null;
}

/** Numeric values over this many distinct ones are summarised by mean, min and max, without a distribution. */
const DISTRIBUTION_LIMIT = 20;

/** Count, mean, lowest, highest and distribution of each typed question; per-day means of scales and moods. */
export function aggregateQuestions(questions: TypedQuestion[], counts: ValueCount[], answered: Map<string, number>): QuestionNumbers[] {
  const byQuestion = new Map<string, ValueCount[]>(questions.map((q) => [q.uuid, []]));
  for (const row of counts) byQuestion.get(row.question_uuid)?.push(row);
  return questions.map((q) => {
    const rows = byQuestion.get(q.uuid)!;
    const values = new Map<string | number, number>();
    const perDay = new Map<string, { sum: number; count: number }>();
    let n = 0;
    let sum = 0;
    let lowest: number | null = null;
    let highest: number | null = null;
    for (const row of rows) {
      const value = q.question_type === 'multiple_choice' ? row.value_text : row.value_number;
      if (value === null) continue;
      values.set(value, (values.get(value) ?? 0) + row.count);
      n += row.count;
      if (typeof value === 'number') {
        sum += value * row.count;
        lowest = lowest === null || value < lowest ? value : lowest;
        highest = highest === null || value > highest ? value : highest;
        if (q.presentation) {
          const day = perDay.get(row.date) ?? { sum: 0, count: 0 };
          day.sum += value * row.count;
          day.count += row.count;
          perDay.set(row.date, day);
        }
      }
    }
    let distribution: QuestionNumbers['distribution'];
    if (q.question_type === 'multiple_choice') {
      const known = q.choices.map((value) => ({ value, count: values.get(value) ?? 0 }));
      const other = [...values].filter(([value]) => !q.choices.includes(value as string)).map(([value, count]) => ({ value, count }));
      distribution = [...known, ...other];
    } else if (q.question_type === 'boolean') {
      distribution = [{ value: true, count: values.get(1) ?? 0 }, { value: false, count: values.get(0) ?? 0 }];
    } else if (q.presentation && q.min !== null && q.max !== null && q.max - q.min <= DISTRIBUTION_LIMIT) {
      const steps = Array.from({ length: q.max - q.min + 1 }, (_, i) => q.min! + i);
      const extra = [...values.keys()].filter((v) => !steps.includes(v as number)) as number[];
      distribution = [...steps, ...extra].sort((a, b) => a - b).map((value) => ({ value, count: values.get(value) ?? 0 }));
    } else {
      distribution = values.size <= DISTRIBUTION_LIMIT ? ([...values] as [number, number][]).sort((a, b) => a[0] - b[0]).map(([value, count]) => ({ value, count })) : null;
    }
    const numeric = q.question_type !== 'multiple_choice';
    return {
      question: q,
      answered: q.multiple ? (answered.get(q.uuid) ?? 0) : n,
      mean: numeric ? average(sum, n, 2) : null,
      min: numeric ? lowest : null,
      max: numeric ? highest : null,
      distribution,
      days: q.presentation ? [...perDay].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([date, d]) => ({ date, mean: average(d.sum, d.count, 2)!, count: d.count })) : null,
    };
  });
}

/** Mood over time: the mood questions' answers when the check-in asks one, else the moods people tracked. */
export function moodSeries(questions: QuestionNumbers[], tracked: { date: string; sum: number; count: number }[]) {
  const moodQuestions = questions.filter((q) => q.question.presentation === 'mood');
  const perDay = new Map<string, { sum: number; count: number }>();
  const add = (date: string, sum: number, count: number) => {
    const day = perDay.get(date) ?? { sum: 0, count: 0 };
    day.sum += sum;
    day.count += count;
    perDay.set(date, day);
  };
  if (moodQuestions.length) for (const q of moodQuestions) for (const d of q.days ?? []) add(d.date, d.mean * d.count, d.count);
  else for (const row of tracked) add(row.date, row.sum, row.count);
  const days = [...perDay].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([date, d]) => ({ date, average: average(d.sum, d.count, 2)!, count: d.count }));
  const count = days.reduce((n, d) => n + d.count, 0);
  const sum = [...perDay.values()].reduce((s, d) => s + d.sum, 0);
  return { source: moodQuestions.length ? ('questions' as const) : ('tracked' as const), average: average(sum, count, 2), count, days };
}
