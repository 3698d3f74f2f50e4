import { readJson } from './json.ts';

/**
 * Each person's own settings (PATCH /v1/me/, issue 36), as the loop reads them from a user row: the language it
 * writes to them in, and which messages they want.
 */

export const LANGUAGES = ['en', 'es', 'pt'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The language messages to a person are written in: theirs, else English. */
export const languageOf = (person: { language?: string | null }): Language =>
  (LANGUAGES as readonly (string | null | undefined)[]).includes(person.language) ? (person.language as Language) : 'en';

/** Which messages a person wants. Both on unless they turned one off. */
export interface NotificationPrefs {
  /** Check-in reminders (e-mail and chat) after the prompt. */
  reminders: boolean;
  /** Team reports by e-mail (check-ins without a report channel e-mail them to their participants). */
  report_emails: boolean;
}

export const NOTIFICATION_DEFAULTS: NotificationPrefs = { reminders: true, report_emails: true };

export function notificationsOf(person: { notifications?: string | null }): NotificationPrefs {
  const stored = readJson<Record<string, unknown>>(person.notifications ?? null, {});
  const flag = (key: keyof NotificationPrefs) => (typeof stored[key] === 'boolean' ? (stored[key] as boolean) : NOTIFICATION_DEFAULTS[key]);
  return { reminders: flag('reminders'), report_emails: flag('report_emails') };
}
