import type { QuestionType } from '../../db/tables.ts';
import { notFound } from '../../lib/errors.ts';
import type { PageRequest } from '../../lib/page.ts';

export interface TemplateQuestion {
  question: string;
  short_question: string;
  question_type: QuestionType;
  required: boolean;
  is_blocker: boolean;
  options?: string[];
}

export interface Template {
  uuid: string;
  name: string;
  description: string;
  frequency_type: string;
  /**
   * When a check-in made from it asks, unless the create body says: `schedule.days` (0 = Sunday) and every how
   * many weeks. A weekly template asks once a week (Friday), not every weekday. Not part of the template's JSON.
   */
  schedule: { days: number[]; frequency: number };
  questions: TemplateQuestion[];
}

const WEEKDAYS = { days: [1, 2, 3, 4, 5], frequency: 1 };
const FRIDAYS = { days: [5], frequency: 1 };
const EVERY_OTHER_FRIDAY = { days: [5], frequency: 2 };

/** The days a check-in of this frequency_type asks when nothing else says: every weekday for a daily one, else Friday. */
export const defaultSchedule = (frequencyType: string | null | undefined): { days: number[]; frequency: number } =>
  frequencyType === 'weekly' ? FRIDAYS : frequencyType === 'biweekly' ? EVERY_OTHER_FRIDAY : WEEKDAYS;

const text = (question: string, short_question: string, extra: Partial<TemplateQuestion> = {}): TemplateQuestion => ({
  question, short_question, question_type: 'text', required: true, is_blocker: false, ...extra,
});

/**
 * The built-in check-in templates (GET /v1/templates/). Fixed ids, so a check-in's template_uuid keeps
 * meaning across instances; a check-in created from one copies its questions.
 */
export const TEMPLATES: Template[] = [
  {
    uuid: '01900000-0000-7000-8000-000000000001',
    name: 'Daily stand-up',
    description: 'What was done, what comes next, and what is in the way.',
    frequency_type: 'daily',
    schedule: WEEKDAYS,
    questions: [
      text('What did you complete since the last check-in?', 'Completed'),
      text('What are you working on today?', 'In progress'),
      text('Is anything blocking you?', 'Blockers', { required: false, is_blocker: true }),
    ],
  },
  {
    uuid: '01900000-0000-7000-8000-000000000002',
    name: 'Weekly check-in',
    description: 'A weekly look back and ahead.',
    frequency_type: 'weekly',
    schedule: FRIDAYS,
    questions: [
      text('What were your wins this week?', 'Wins'),
      text('What are your priorities for next week?', 'Priorities'),
      text('Do you need help with anything?', 'Help needed', { required: false, is_blocker: true }),
      { question: 'How was your week, from 1 to 5?', short_question: 'Week score', question_type: 'numeric', required: false, is_blocker: false },
    ],
  },
  {
    uuid: '01900000-0000-7000-8000-000000000003',
    name: 'Retrospective',
    description: 'What went well, what did not, and what to try next.',
    frequency_type: 'biweekly',
    schedule: EVERY_OTHER_FRIDAY,
    questions: [
      text('What went well?', 'Went well'),
      text('What did not go well?', 'To improve'),
      text('What should we try next?', 'Try next', { required: false }),
    ],
  },
  {
    uuid: '01900000-0000-7000-8000-000000000004',
    name: 'Team pulse',
    description: 'A short mood and workload survey.',
    frequency_type: 'weekly',
    schedule: FRIDAYS,
    questions: [
      { question: 'How is your workload?', short_question: 'Workload', question_type: 'multiple_choice', required: true, is_blocker: false, options: ['Too light', 'About right', 'Too heavy'] },
      { question: 'Did you feel supported this week?', short_question: 'Supported', question_type: 'boolean', required: true, is_blocker: false },
      text('Anything else you want to share?', 'Notes', { required: false }),
    ],
  },
];

export const DEFAULT_TEMPLATE = TEMPLATES[0];

export const findTemplate = (uuid: string): Template | undefined => TEMPLATES.find((t) => t.uuid === uuid);

/** A template, or 404 (the same body as any absent object). */
export function getTemplate(uuid: string): Template {
  const template = findTemplate(uuid);
  if (!template) throw notFound();
  return template;
}

/** The templates whose name contains `term` (case-insensitive), a page of them, and how many matched. */
export function listTemplates(term: string | undefined, page: PageRequest): { count: number; rows: Template[] } {
  const wanted = term?.toLowerCase();
  const matching = wanted ? TEMPLATES.filter((t) => t.name.toLowerCase().includes(wanted)) : TEMPLATES;
  return { count: matching.length, rows: matching.slice(page.offset, page.offset + page.limit) };
}
