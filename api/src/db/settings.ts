import type { Executor } from './connection.ts';

/**
 * Instance-wide values, stored as JSON: operator switches (`plan_read_only`: Plan writes answer 503 while it is
 * on) and what the instance must remember about itself (`encryption_key_fingerprint`).
 */
export async function setSetting(db: Executor, key: string, value: unknown, now: Date): Promise<void> {
  await db('instance_settings')
    .insert({ key, value: JSON.stringify(value), updated_at: now.toISOString() })
    .onConflict('key')
    .merge();
}

/** The stored value, or undefined when the setting was never written. */
export async function getSetting<T>(db: Executor, key: string): Promise<T | undefined> {
  const row = await db('instance_settings').where({ key }).first('value');
  return row ? (JSON.parse(row.value) as T) : undefined;
}
