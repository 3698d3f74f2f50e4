import type { Knex } from 'knex';
import type { Db, Executor } from '../../db/connection.ts';
import type { Actor } from '../../auth/credentials.ts';
import { assertCan } from '../../auth/policy.ts';
import { badRequest, forbidden } from '../../lib/errors.ts';
import { bool } from '../../lib/json.ts';
import { localDate } from '../../lib/dates.ts';
import type { PageRequest } from '../../lib/page.ts';
import type { Config } from '../../lib/config.ts';
import { getVisibleCheckin, isParticipant } from '../checkins/repository.ts';
import { loopSettings } from './schedule.ts';
import { answerUrl, newAnswerToken, storeAnswerTokens } from './tokens.ts';
import { accountsOf } from '../chat-platform/people.ts';
import { directMessagePlatform } from './chat-cards.ts';
import type { CheckinReportRow, CheckinRow, DeliveryRow, PromptRow } from '../../db/tables.ts';

/** What the runs list shows of an outbox row. */
export type RunDelivery = Pick<DeliveryRow, 'uuid' | 'channel' | 'kind' | 'destination' | 'status' | 'attempts' | 'last_error' | 'delivered_at' | 'subject_uuid'>;

export interface RunPrompt extends PromptRow {
  first_name: string;
  last_name: string;
  email: string;
  answered_at: string | null;
  /** Whether the chat platform has an account with their e-mail (direct-message platforms); null: not looked up. */
  chat_account: 'found' | 'not_found' | null;
}

export interface RunDay {
  date: string;
  prompts: RunPrompt[];
  reports: CheckinReportRow[];
  answered: number;
  deliveries: Map<string, RunDelivery[]>;
}

/**
 * GET /v1/checkins/{uuid}/runs/: each day the check-in ran, newest first: who was asked and reminded (with each
 * e-mail's and message's delivery status from the outbox), who answered, and each report with where it went.
 * Admins and managers; an anonymous check-in's run does not say who answered.
 */
export async function listRuns(db: Db, actor: Actor, checkinUuid: string, range: { from?: string; to?: string }, page: PageRequest): Promise<{ checkin: CheckinRow; count: number; days: RunDay[] }> {
  const checkin = await getVisibleCheckin(db, actor, checkinUuid);
  assertCan(actor, 'checkins.manage');
  const inRange = (column: string) => (q: Knex.QueryBuilder) => {
    if (range.from) q.andWhere(column, '>=', range.from);
    if (range.to) q.andWhere(column, '<=', range.to);
  };
  const promptDates = await db('checkin_prompts').where({ checkin_uuid: checkinUuid }).modify(inRange('run_date')).distinct('run_date');
  const reportDates = await db('checkin_reports').where({ checkin_uuid: checkinUuid }).modify(inRange('report_date')).distinct('report_date');
  const all = [...new Set([...promptDates.map((r: { run_date: string }) => r.run_date), ...reportDates.map((r: { report_date: string }) => r.report_date)])].sort().reverse();
  const dates = all.slice(page.offset, page.offset + page.limit);
  if (dates.length === 0) return { checkin, count: all.length, days: [] };
  const prompts: RunPrompt[] = await db('checkin_prompts as p')
    .join('users as u', 'u.uuid', 'p.user_uuid')
    .where('p.checkin_uuid', checkinUuid)
    .whereIn('p.run_date', dates)
    .select('p.*', 'u.first_name', 'u.last_name', 'u.email');
  const reports: CheckinReportRow[] = await db('checkin_reports').where({ checkin_uuid: checkinUuid }).whereIn('report_date', dates);
  // Answered: every required question (a day answered in part, as an agent's co-authored lines leave it, is not).
  const responses: { user_uuid: string; response_date: string; created_at: string }[] = await db('checkin_responses')
    .where({ checkin_uuid: checkinUuid, response_completed: true })
    .whereIn('response_date', dates)
    .select('user_uuid', 'response_date', 'created_at');
  const answeredAt = new Map(responses.map((r) => [`${r.response_date} ${r.user_uuid}`, r.created_at]));
  const deliveries = await deliveriesOf(db, [...prompts.map((p) => p.uuid), ...reports.map((r) => r.uuid)]);
  const platform = await directMessagePlatform(db, checkin.organization_uuid);
  const accounts = platform ? await accountsOf(db, checkin.organization_uuid, platform, prompts.map((p) => p.email)) : new Map<string, boolean>();
  const account = (email: string) => {
    const found = accounts.get(email.toLowerCase());
    return found === undefined ? null : found ? ('found' as const) : ('not_found' as const);
  };
  const days = dates.map((date) => ({
    date,
    prompts: prompts
      .filter((p) => p.run_date === date)
      .map((p) => ({ ...p, answered_at: answeredAt.get(`${date} ${p.user_uuid}`) ?? null, chat_account: account(p.email) }))
      .sort((a, b) => (a.prompted_at < b.prompted_at ? -1 : a.prompted_at > b.prompted_at ? 1 : a.uuid < b.uuid ? -1 : 1)),
    reports: reports.filter((r) => r.report_date === date).sort((a, b) => (a.sent_at < b.sent_at ? -1 : 1)),
    answered: responses.filter((r) => r.response_date === date).length,
    deliveries,
  }));
  return { checkin, count: all.length, days };
}

async function deliveriesOf(db: Executor, subjects: string[]): Promise<Map<string, RunDelivery[]>> {
  const bySubject = new Map<string, RunDelivery[]>();
  for (let i = 0; i < subjects.length; i += 500) {
    const rows: RunDelivery[] = await db('deliveries')
      .whereIn('subject_uuid', subjects.slice(i, i + 500))
      .select('uuid', 'channel', 'kind', 'destination', 'status', 'attempts', 'last_error', 'delivered_at', 'subject_uuid');
    for (const row of rows.sort((a, b) => (a.uuid < b.uuid ? -1 : 1))) bySubject.set(row.subject_uuid!, [...(bySubject.get(row.subject_uuid!) ?? []), row]);
  }
  return bySubject;
}

/**
 * POST /v1/checkins/{uuid}/answer-link/: a fresh web answer link for the caller's answer of today (their day,
 * with use_participant_timezone), as the prompt e-mail carries; `rollcall checkins today` shows it.
 */
export async function createAnswerLink(db: Db, config: Config, actor: Actor, checkinUuid: string, now: Date) {
  return db.transaction(async (trx) => {
    const checkin = await getVisibleCheckin(trx, actor, checkinUuid);
    if (!(await isParticipant(trx, checkin.uuid, actor.user.uuid))) throw forbidden('not_a_participant', 'You do not take part in this check-in.');
    if (bool(checkin.is_archived)) throw badRequest('checkin_archived', 'This check-in is archived.');
    if (!bool(checkin.active)) throw badRequest('checkin_inactive', 'This check-in is paused.');
    const timeZone = loopSettings(checkin).personalTimeZones ? (actor.user.timezone ?? checkin.timezone) : checkin.timezone;
    const date = localDate(now, timeZone);
    const { token, row } = newAnswerToken({ checkinUuid: checkin.uuid, userUuid: actor.user.uuid, date, timeZone }, now);
    await storeAnswerTokens(trx, [row]);
    return { checkin, url: answerUrl(config, token), date, expiresAt: row.expires_at };
  });
}
