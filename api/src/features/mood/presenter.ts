import { iso } from '../../lib/time.ts';
import type { Actor } from '../../auth/credentials.ts';
import { userRef } from '../users/presenter.ts';
import type { MoodReading } from './service.ts';
import type { MoodRow } from '../../db/tables.ts';

export function presentMood(actor: Actor, date: string, row: MoodRow | null) {
  return {
    uuid: row?.uuid ?? null,
    id: row?.uuid ?? null,
    user: userRef(actor.user),
    date,
    score: row?.score ?? null,
    created_at: iso(row?.created_at ?? null),
    updated_at: iso(row?.updated_at ?? null),
  };
}

/** The caller's mood for the day (score null when not tracked); admins and managers also get the day's summary. */
export function presentMoodReading(actor: Actor, reading: MoodReading) {
  return { ...presentMood(actor, reading.date, reading.entry), ...(reading.summary ? { summary: reading.summary } : {}) };
}
