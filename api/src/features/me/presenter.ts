import type { Actor } from '../../auth/credentials.ts';
import type { ChatLinkedAccountRow } from '../../db/tables.ts';
import { notificationsOf } from '../../lib/personal-settings.ts';
import type { TimeOff } from '../../db/time-off.ts';
import { fullName } from '../users/repository.ts';

/**
 * The spec's current-user fields plus what clients read (CONTRACT §3 and §12), and the person's own settings
 * (issue 36): `language` and `holiday_calendar` (null: not chosen), `notifications`.
 */
export function presentMe({ user, organization }: Pick<Actor, 'user' | 'organization'>) {
  const name = fullName(user);
  return {
    id: user.uuid,
    uuid: user.uuid,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    full_name: name,
    role: user.role,
    timezone: user.timezone ?? organization.timezone,
    organization_name: organization.name,
    organization_uuid: organization.uuid,
    user: { uuid: user.uuid, full_name: name, email: user.email },
    organization: { uuid: organization.uuid, name: organization.name },
    language: user.language ?? null,
    holiday_calendar: user.holiday_calendar ?? null,
    notifications: notificationsOf(user),
  };
}

/** A chat account the person linked (GET and POST /v1/me/chat-accounts/). */
export const presentChatAccount = (row: ChatLinkedAccountRow) => ({ platform: row.platform, external_id: row.external_id, name: row.external_name, linked_at: row.linked_at });
export const presentChatAccounts = (rows: ChatLinkedAccountRow[]) => ({ results: rows.map(presentChatAccount) });
/** PATCH /v1/me/'s answer: the same, with the time off as saved. */
export const presentMeWithTimeOff = (me: Pick<Actor, 'user' | 'organization'>, timeOff: TimeOff[]) => ({ ...presentMe(me), time_off: timeOff });
