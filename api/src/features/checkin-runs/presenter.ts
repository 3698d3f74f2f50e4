import { bool, readJson } from '../../lib/json.ts';
import { fullName } from '../../lib/names.ts';
import { iso } from '../../lib/time.ts';
import type { CheckinRow } from '../../db/tables.ts';
import type { RunDay, RunDelivery } from './runs-service.ts';
import { TEAM } from './edit-window.ts';

const presentDelivery = (d: RunDelivery) => ({
  uuid: d.uuid, channel: d.channel, kind: d.kind, destination: d.destination, status: d.status, attempts: d.attempts, last_error: d.last_error, delivered_at: iso(d.delivered_at),
});

/** One day of GET /v1/checkins/{uuid}/runs/. An anonymous check-in's says how many answered, not who. */
export function presentRunDay(checkin: CheckinRow, day: RunDay) {
  const anonymous = bool(checkin.is_anonymous);
  return {
    date: day.date,
    asked: day.prompts.length,
    answered: day.answered,
    prompts: day.prompts.map((p) => ({
      uuid: p.uuid,
      user: { uuid: p.user_uuid, full_name: fullName(p) },
      timezone: p.timezone,
      prompted_at: iso(p.prompted_at),
      reminders_sent: p.reminders_sent,
      last_reminded_at: iso(p.last_reminded_at),
      next_reminder_at: iso(p.next_reminder_at),
      answered: anonymous ? null : p.answered_at !== null,
      answered_at: anonymous ? null : iso(p.answered_at),
      chat_account: p.chat_account,
      deliveries: (day.deliveries.get(p.uuid) ?? []).map(presentDelivery),
    })),
    reports: day.reports.map((r) => ({
      uuid: r.uuid,
      one_by_one: r.subject !== TEAM,
      user_uuid: r.subject === TEAM || anonymous ? null : r.subject,
      sent_at: iso(r.sent_at),
      destinations: readJson<string[]>(r.destinations, []),
      deliveries: (day.deliveries.get(r.uuid) ?? []).map(presentDelivery),
    })),
  };
}

export const presentAnswerLink = (r: { checkin: CheckinRow; url: string; date: string; expiresAt: string }) => ({
  followup_uuid: r.checkin.uuid,
  followup_name: r.checkin.name,
  response_date: r.date,
  url: r.url,
  expires_at: iso(r.expiresAt),
});
