import type { Executor } from './connection.ts';

/** Instance-wide operator switches, stored as JSON values (`plan_read_only`: Plan writes answer 503 while it is on). */
export async function setSetting(db: Executor, key: string, value: unknown, now: Date): Promise<void> {
  await db('instance_settings')
    .insert({ key, value: JSON.stringify(value), updated_at: now.toISOString() })
    .onConflict('key')
    .merge();
}
