/** JSON columns are text in SQLite and parsed objects in PostgreSQL; read both the same way. */
export function readJson<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined || value === '') return fallback;
  if (typeof value === 'string') return JSON.parse(value) as T;
  return value as T;
}

export const writeJson = (value: unknown): string => JSON.stringify(value ?? null);

/** SQLite returns booleans as 0/1. */
export const bool = (value: unknown): boolean => value === true || value === 1 || value === '1';

/** How deeply request bodies may nest: far beyond any body the API takes, far below what recursion can bear. */
export const MAX_JSON_DEPTH = 64;

/**
 * Where `value` nests more than `max` levels (the top-level object or array is level 1): the top-level key it
 * happens under, '' when the value is an array, or null when it stays within `max`. It walks with a stack of
 * its own, so any depth JSON.parse produced can be measured.
 */
export function tooDeepAt(value: unknown, max: number): string | null {
  const stack: { node: unknown; depth: number; field: string }[] = [{ node: value, depth: 1, field: '' }];
  while (stack.length > 0) {
    const { node, depth, field } = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > max) return field;
    if (Array.isArray(node)) {
      for (const item of node) stack.push({ node: item, depth: depth + 1, field });
    } else {
      for (const [key, child] of Object.entries(node)) stack.push({ node: child, depth: depth + 1, field: depth === 1 ? key : field });
    }
  }
  return null;
}

/** A JSON object: not null, not an array. */
export const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
