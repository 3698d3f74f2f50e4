import type { Template } from './catalog.ts';

/** The §7 question shape, for template reads (template questions have stable pseudo-ids by position). */
export function presentTemplate(template: Template) {
  return {
    uuid: template.uuid,
    id: template.uuid,
    name: template.name,
    description: template.description,
    frequency_type: template.frequency_type,
    questions: template.questions.map((q, index) => ({
      index,
      question: q.question,
      short_question: q.short_question,
      question_type: q.question_type,
      required: q.required,
      is_blocker: q.is_blocker,
      choices: (q.options ?? []).map((label) => ({ label, value: label })),
    })),
  };
}
