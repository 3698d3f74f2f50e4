import type { Insights } from './service.ts';

/** The insights body (docs/checkins.md, "Insights"; openapi.ts `Insights`). */
export function presentInsights(insights: Insights) {
  const { participation: numbers, period, subject } = insights;
  const { blockers_reported: blockersReported, ...totals } = numbers.totals;
  return {
    [subject.kind]: { uuid: subject.uuid, id: subject.uuid, name: subject.name },
    from: period.from,
    to: period.to,
    timezone: insights.timezone,
    scope: insights.scope,
    checkins: insights.checkins.map((c) => ({ uuid: c.uuid, id: c.uuid, name: c.name, timezone: c.timezone, is_anonymous: c.anonymous })),
    ...totals,
    days: numbers.days,
    people: numbers.people.map(({ user_uuid: uuid, ...rest }) => ({ user: insights.names.get(uuid) ?? { uuid, full_name: '' }, ...rest })),
    mood: insights.mood,
    blockers: {
      // Counted from the answers to blocker questions (`has_issue`); resolving blockers is not tracked yet.
      source: 'answers',
      reported: blockersReported,
      resolved: null,
    },
    questions: insights.questions.map((q) => ({
      uuid: q.question.uuid,
      checkin_uuid: q.question.checkin_uuid,
      index: q.question.index,
      question: q.question.question,
      question_type: q.question.question_type,
      presentation: q.question.presentation,
      answered: q.answered,
      mean: q.mean,
      min: q.min,
      max: q.max,
      distribution: q.distribution,
      days: q.days,
    })),
  };
}
