import { iso } from '../../lib/time.ts';
import { fullName } from '../users/repository.ts';
import type { CompanyValueRow, KudosView, PersonRef } from './repository.ts';
import type { KudosSettings } from './service.ts';
import type { Standing, WallOfFame } from './wall-of-fame.ts';

/** A person as kudos show them (CONTRACT §12: `{uuid, full_name, image}`). */
export const personRef = (p: PersonRef) => ({ uuid: p.uuid, full_name: fullName(p), image: p.image ?? null });

/** A company value as the wall of fame names it (`{id, value, emoji}`), with its uuid and description. */
export function presentCompanyValue(row: CompanyValueRow) {
  return { uuid: row.uuid, id: row.uuid, value: row.value, emoji: row.emoji ?? null, description: row.description ?? null, created_at: iso(row.created_at) };
}

/** One kudos; `giver` is null on anonymous kudos, in every read, whoever asks. */
export function presentKudos(view: KudosView) {
  const { row } = view;
  return {
    uuid: row.uuid,
    id: row.uuid,
    content: row.content,
    is_anonymous: row.is_anonymous === true || row.is_anonymous === 1,
    giver: view.giver ? personRef(view.giver) : null,
    receivers: view.receivers.map(personRef),
    teams: view.teams,
    company_value: view.companyValue ? { id: view.companyValue.uuid, uuid: view.companyValue.uuid, value: view.companyValue.value, emoji: view.companyValue.emoji ?? null } : null,
    boosts_count: Number(row.boosts_count),
    boosted: view.boosted,
    created_at: iso(row.created_at),
  };
}

export function presentSettings(settings: KudosSettings, givenToday: number) {
  return {
    daily_limit: settings.dailyLimit,
    chat_announcements: settings.chatAnnouncements,
    chat_channel: settings.chatChannel,
    given_today: givenToday,
    remaining_today: Math.max(0, settings.dailyLimit - givenToday),
  };
}

function presentStanding(s: Standing) {
  return {
    user: personRef(s.user),
    kudos_received: s.kudosReceived,
    kudos_given: s.kudosGiven,
    total_plus_kudos_received: s.plusReceived,
    total_plus_kudos_given: s.plusGiven,
  };
}

/** CONTRACT §12's wall of fame; `leaderboard` is a page of the ranked receivers, `leaderboard_summary` the caller's place. */
export function presentWallOfFame(wall: WallOfFame, leaderboard: (results: unknown[]) => unknown) {
  return {
    period: wall.period,
    period_start: wall.since ? wall.since.toISOString() : null,
    top_receiver: wall.topReceiver ? presentStanding(wall.topReceiver) : null,
    top_giver: wall.topGiver ? presentStanding(wall.topGiver) : null,
    dna_distribution: wall.dna.map((d) => ({ company_value: { id: d.value.uuid, value: d.value.value, emoji: d.value.emoji ?? null }, count: d.count, percentage: d.percentage })),
    leaderboard: leaderboard(
      wall.page.map((entry) => ({ position: entry.position, user: personRef(entry.standing.user), score: entry.standing.kudosReceived, total_plus_kudos: entry.standing.plusReceived })),
    ),
    leaderboard_summary: { position: wall.mine, total: wall.board.length },
  };
}
