/** JSON columns are text in SQLite and parsed objects in PostgreSQL; read both the same way. */
export function readJson<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined || value === '') return fallback;
  if (typeof value === 'string') return JSON.parse(value) as T;
  return value as T;
}

export const writeJson = (value: unknown): string => JSON.stringify(value ?? null);

/** SQLite returns booleans as 0/1. */
export const bool = (value: unknown): boolean => value === true || value === 1 || value === '1';
