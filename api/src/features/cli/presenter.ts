import { presentQuestion } from '../checkins/presenter.ts';
import type { ActiveStandup } from '../checkins/standup.ts';
import type { ChangelogEntry } from '../meta/changelog.ts';
import type { AttachedFollowup } from './service.ts';

/** GET /v1/cli/updates/: the client's update manifest (CONTRACT §8). The `rollcall` client ships with the server. */
export function presentManifest(version: string, downloadUrl: string | null, newest: ChangelogEntry | undefined) {
  return {
    latest_version: version,
    minimum_version: MINIMUM_CLIENT_VERSION,
    download_url: downloadUrl,
    changelog: newest ? [`${newest.version} (${newest.date}): ${newest.title}`, ...newest.changes.map((c) => `- ${c}`)].join('\n') : '',
  };
}

/** The oldest `rollcall` client that still speaks this server's API. */
export const MINIMUM_CLIENT_VERSION = '0.1.0';

/** GET /v1/cli/status/: the check-ins waiting for the caller, with their questions (the shape of CONTRACT §7, §12). */
export const presentPendingCheckins = (pending: ActiveStandup[]) => ({
  pending_checkins: pending.map(({ checkin, questions, date }) => ({
    followup_uuid: checkin.uuid,
    followup_name: checkin.name,
    date,
    template_questions: questions.map(presentQuestion),
  })),
});

/** POST /v1/cli/updates/ (CONTRACT §8). */
export function presentStandupUpdate(attached: AttachedFollowup[]) {
  return {
    followups_count: attached.length,
    attached_followups: attached.map(({ standup, action, completed, unanswered }) => ({
      followup_uuid: standup.checkin.uuid, followup_name: standup.checkin.name, date: standup.date, action,
      response_completed: completed, unanswered_questions: unanswered.map((q) => ({ uuid: q.uuid, index: q.position, question: q.question })),
    })),
    detail: attached.length ? `Added to ${attached.length} check-in${attached.length === 1 ? '' : 's'}.` : 'You have no check-in with a text question scheduled today.',
  };
}
