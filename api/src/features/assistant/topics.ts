import { addDays, isoWeekday } from '../../lib/dates.ts';

/**
 * What a question is about, for the built-in assistant (and the `classification` of every answer). Keywords in
 * English, Spanish and Portuguese, tried in this order: the first that matches wins.
 */
export const TOPICS = ['blockers', 'kudos', 'tasks', 'agent_reports', 'updates', 'pending_checkins', 'change_request', 'help', 'greeting', 'unknown'] as const;
export type Topic = (typeof TOPICS)[number];

const KEYWORDS: [Topic, RegExp][] = [
  ['change_request', /^\s*(please\s+)?(give|send|create|add|mark|complete|post|delete|remove|update|answer|submit|fill)\b/i],
  ['blockers', /\b(block(ed|er|ers|ing|s)?|stuck|imped\w*|bloque\w*)\b/i],
  ['kudos', /\b(kudos|thank\w*|recogni[sz]\w*|prais\w*|shout-?outs?|agradec\w*)\b/i],
  ['tasks', /\b(tasks?|to-?dos?|tickets?|boards?|tarea\w*|tarefa\w*)\b/i],
  ['agent_reports', /\b(agents?|bots?|automation)\b/i],
  ['updates', /\b(did i|i did|i worked|worked on|my (updates?|answers?|responses?|reports?)|progress|summar\w*|reports?|updates?)\b/i],
  ['pending_checkins', /\b(pending|check-?ins?|stand-?ups?|follow-?ups?|due|waiting|owe|pendiente\w*|pendente\w*)\b/i],
  ['help', /\b(help|what can you do|how do i|commands?|ayuda|ajuda)\b/i],
  ['greeting', /^\s*(hi|hello|hey|good (morning|afternoon|evening)|hola|ol[aá]|oi)\b/i],
];

/** Questions that lean on the turn before ("and yesterday?", "what about last week?"). */
const FOLLOW_UP = /^\s*(and|also|what about|how about|y|e|more|details?|same)\b/i;

/** Topics a follow-up can carry over from the previous answer. */
const CARRIED: readonly Topic[] = ['blockers', 'kudos', 'agent_reports', 'updates', 'pending_checkins'];

export interface DayRange {
  from: string;
  to: string;
  /** How an answer names it: "today", "last week", "the last 7 days". */
  label: string;
}

/** The days a question asks about, in the caller's own calendar (`today` is their local day). */
export function rangeOf(question: string, today: string): DayRange | null {
  const monday = addDays(today, 1 - isoWeekday(today));
  if (/\b(yesterday|ayer|ontem)\b/i.test(question)) return { from: addDays(today, -1), to: addDays(today, -1), label: 'yesterday' };
  if (/\blast week\b|\bsemana pasada\b|\bsemana passada\b/i.test(question)) return { from: addDays(monday, -7), to: addDays(monday, -1), label: 'last week' };
  if (/\bthis week\b|\besta semana\b/i.test(question)) return { from: monday, to: today, label: 'this week' };
  if (/\b(today|hoy|hoje)\b/i.test(question)) return { from: today, to: today, label: 'today' };
  return null;
}

export const defaultRange = (today: string): DayRange => ({ from: addDays(today, -6), to: today, label: 'the last 7 days' });

/**
 * The topic of `question`; a question with no topic of its own that follows up the previous answer ("and
 * yesterday?") keeps that answer's topic, so a session's earlier turns matter.
 */
export function classify(question: string, previous: Topic | null): Topic {
  for (const [topic, pattern] of KEYWORDS) if (pattern.test(question)) return topic;
  if (previous && CARRIED.includes(previous) && (FOLLOW_UP.test(question) || rangeOf(question, '2000-01-03') !== null)) return previous;
  return 'unknown';
}

export const isTopic = (value: string | null): value is Topic => value !== null && (TOPICS as readonly string[]).includes(value);
