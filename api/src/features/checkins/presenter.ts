import { bool, readJson } from '../../lib/json.ts';
import { iso } from '../../lib/time.ts';
import { userRef } from '../users/presenter.ts';
import { isoToSundayZero, parseDays } from './schedule-days.ts';
import { STORED_SETTINGS } from './schema.ts';
import { kindOf } from './question-kinds.ts';
import { daysOpen } from './blockers.ts';
import type { BlockerView } from './blockers-service.ts';
import type { Answer, ResponseView } from './responses-service.ts';
import type { ReportChannel } from './columns.ts';
import type { CheckinDetail, CheckinListItem } from './service.ts';
import type { CheckinRow, QuestionFields, QuestionRow } from '../../db/tables.ts';

/** CONTRACT §7 question: `{uuid, index, question, question_type, required, is_blocker, choices}` and more. */
export function presentQuestion(row: QuestionFields) {
  const extras = readJson<{ variations?: string[]; logic?: unknown }>(row.extras, {});
  const kind = kindOf(row);
  return {
    uuid: row.uuid,
    id: row.uuid,
    index: row.position,
    question: row.question,
    short_question: row.short_question ?? null,
    question_type: row.question_type,
    required: bool(row.required),
    is_blocker: bool(row.is_blocker),
    choices: readJson<{ label: string; value: string }[]>(row.choices, []),
    variations: extras.variations ?? [],
    logic: extras.logic ?? null,
    multiple: kind.multiple,
    min: kind.min,
    max: kind.max,
    presentation: kind.presentation,
    min_label: kind.minLabel,
    max_label: kind.maxLabel,
  };
}

/** The list item of CONTRACT §7: both day notations (schedule.days 0 = Sunday; frequency_on_days ISO). */
export function presentCheckinItem(row: CheckinRow, participantsCount: number) {
  const isoDays = parseDays(row.days);
  return {
    uuid: row.uuid,
    id: row.uuid,
    name: row.name,
    active: bool(row.active),
    is_archived: bool(row.is_archived),
    frequency_type: row.frequency_type,
    frequency_on_days: isoDays,
    schedule: { days: isoToSundayZero(isoDays), time: row.time, timezone: row.timezone },
    is_anonymous: bool(row.is_anonymous),
    template_uuid: row.template_uuid ?? null,
    participants_count: participantsCount,
    start_on: row.start_on ?? null,
    end_on: row.end_on ?? null,
    created_at: iso(row.created_at),
  };
}

/** `GET …/detail/`: the item plus settings, questions, participants and report channels. */
export function presentCheckinDetail(detail: CheckinDetail) {
  const { row } = detail;
  const settings = { ...STORED_SETTINGS, ...readJson<Record<string, unknown>>(row.settings, {}) };
  return {
    ...presentCheckinItem(row, detail.participantsCount),
    archived_at: iso(row.archived_at),
    allow_past_responses: bool(row.allow_past_responses),
    allow_future_responses: bool(row.allow_future_responses),
    ...settings,
    questions: detail.questions.map(presentQuestion),
    participants: { users: detail.participants.users.map(userRef), teams: detail.participants.teams },
    report_channels: readJson<ReportChannel[]>(row.report_channels, []),
    created_by: detail.createdBy ? userRef(detail.createdBy) : null,
    updated_at: iso(row.updated_at),
  };
}


/** CONTRACT §12 response row; `user` is null on anonymous check-ins, in every read. */
export function presentResponse(checkin: CheckinRow, row: ResponseView) {
  const anonymous = bool(checkin.is_anonymous);
  return {
    uuid: row.uuid,
    id: row.uuid,
    followup_uuid: row.checkin_uuid,
    user: anonymous ? null : userRef({ uuid: row.user_uuid, first_name: row.first_name, last_name: row.last_name, email: row.email }),
    response_date: row.response_date,
    response_completed: bool(row.response_completed),
    has_issue: bool(row.has_issue),
    last_question_index: row.last_question_index ?? null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    responses: readJson<Answer[]>(row.answers, []).map((a) => ({ uuid: a.uuid, index: a.index, question: a.question, response: a.response })),
  };
}

/** An item of the check-in list, with the day's summary and pending people when the caller asked for them. */
export function presentCheckinListItem(item: CheckinListItem, include: { summary: boolean }) {
  const { summary, pendingUsers, awayUsers, holidayUsers } = item;
  return {
    ...presentCheckinItem(item.row, item.participantsCount),
    ...(summary && include.summary
      ? {
          response_completed: summary.responseCompleted,
          summary: {
            date: summary.date, participants: summary.participants, responded: summary.responded, pending: summary.pending,
            away: summary.away, holiday: summary.holiday, existed: summary.existed,
          },
        }
      : {}),
    ...(pendingUsers ? { pending_users: pendingUsers.map(userRef) } : {}),
    ...(awayUsers ? { away_users: awayUsers.map(userRef) } : {}),
    ...(holidayUsers ? { holiday_users: holidayUsers.map(userRef) } : {}),
  };
}

/** PUT …/questions/reorder/: the questions in their new order. */
export const presentQuestions = (rows: QuestionFields[]) => ({ questions: rows.map(presentQuestion) });

/** A blocker (GET …/blockers/): the person (null on anonymous check-ins), the words, when it opened and closed. */
export function presentBlocker(checkin: CheckinRow, row: BlockerView, today: string) {
  const anonymous = bool(checkin.is_anonymous);
  return {
    uuid: row.uuid,
    id: row.uuid,
    followup_uuid: row.checkin_uuid,
    user: anonymous ? null : userRef({ uuid: row.user_uuid, first_name: row.first_name, last_name: row.last_name, email: row.email }),
    question_uuid: row.question_uuid,
    question: row.question,
    text: row.text,
    state: row.resolved_at ? 'resolved' : 'open',
    opened_on: row.opened_on,
    opened_at: iso(row.opened_at),
    resolved_on: row.resolved_on ?? null,
    resolved_at: iso(row.resolved_at),
    resolved_by: row.resolved_by_uuid && row.resolver_first_name !== null && !(anonymous && row.resolved_by_uuid === row.user_uuid)
      ? userRef({ uuid: row.resolved_by_uuid, first_name: row.resolver_first_name, last_name: row.resolver_last_name ?? '', email: row.resolver_email ?? '' })
      : null,
    days_open: daysOpen(row, today),
  };
}
