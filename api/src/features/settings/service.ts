import type { Executor } from '../../db/connection.ts';

/** Instance-wide operator switches, stored as JSON values. */
export async function getSetting<T>(db: Executor, key: string, fallback: T): Promise<T> {
  const row = await db('instance_settings').where({ key }).first('value');
  return row ? (JSON.parse(row.value) as T) : fallback;
}

export async function setSetting(db: Executor, key: string, value: unknown, now: Date): Promise<void> {
  await db('instance_settings')
    .insert({ key, value: JSON.stringify(value), updated_at: now.toISOString() })
    .onConflict('key')
    .merge();
}
