import type { Executor } from '../../../db/connection.ts';
import { readJson } from '../../../lib/json.ts';

/**
 * A person's notification preferences (plan_person_settings.notifications, JSON): the kinds they turned off
 * (`disabled`: no inbox row, no e-mail, no chat message), and per kind whether they want it by e-mail and by chat
 * (the DailyBot client's matrix), and where their chat notifications go: their direct messages, or a public
 * channel. A kind they said nothing about by e-mail goes by e-mail when the organization routes it to `email`; by
 * chat, it does not. Notifications about members-only boards and projects always come by direct message.
 */
export interface PersonalPrefs {
  disabled: string[];
  email: Record<string, boolean>;
  chat: Record<string, boolean>;
  destination: ChatDestination;
}

export type ChatDestination = { type: 'dm' } | { type: 'channel'; channel: { external_id: string; name: string } };

export function readPrefs(value: unknown): PersonalPrefs {
  const stored = readJson<Partial<PersonalPrefs> | null>(value, null) ?? {};
  return {
    disabled: Array.isArray(stored.disabled) ? stored.disabled : [],
    email: stored.email && typeof stored.email === 'object' ? stored.email : {},
    chat: stored.chat && typeof stored.chat === 'object' ? stored.chat : {},
    destination: stored.destination?.type === 'channel' && stored.destination.channel ? stored.destination : { type: 'dm' },
  };
}

/** A person's choice for a kind on one channel (own keys only: a kind is never read off the prototype). */
export const choiceOf = (choices: Record<string, boolean>, kind: string): boolean | undefined => (Object.hasOwn(choices, kind) ? choices[kind] === true : undefined);

/** The preferences of each of `users` (those with none saved get the defaults). */
export async function prefsOf(db: Executor, users: string[]): Promise<Map<string, PersonalPrefs>> {
  const rows: { user_uuid: string; notifications: unknown }[] = users.length ? await db('plan_person_settings').whereIn('user_uuid', users).select('user_uuid', 'notifications') : [];
  const byUser = new Map(rows.map((row) => [row.user_uuid, readPrefs(row.notifications)]));
  return new Map(users.map((user) => [user, byUser.get(user) ?? readPrefs(null)]));
}
