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
 * The first thing in a parsed request body that no code after it should meet: nesting deeper than `max` levels
 * (the top-level object or array is level 1; recursion over it, JSON.stringify included, could overflow the
 * stack), or a NUL character in a key or a string (PostgreSQL's text cannot hold one; SQLite can, so both refuse
 * it alike). Answers the top-level key it happens under ('' when the body is an array), or null. It walks with a
 * stack of its own, so any depth JSON.parse produced can be measured.
 */
export function unusableJsonAt(value: unknown, max: number): { field: string; reason: 'depth' | 'nul' } | null {
  const stack: { node: unknown; depth: number; field: string }[] = [{ node: value, depth: 1, field: '' }];
  while (stack.length > 0) {
    const { node, depth, field } = stack.pop()!;
    if (typeof node === 'string') {
      if (node.includes('\0')) return { field, reason: 'nul' };
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (depth > max) return { field, reason: 'depth' };
    if (Array.isArray(node)) {
      for (const item of node) stack.push({ node: item, depth: depth + 1, field });
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      const under = depth === 1 ? key : field;
      if (key.includes('\0')) return { field: under, reason: 'nul' };
      stack.push({ node: child, depth: depth + 1, field: under });
    }
  }
  return null;
}

/** A JSON object: not null, not an array. */
export const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
