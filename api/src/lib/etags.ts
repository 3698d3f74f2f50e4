/**
 * Entity tags (RFC 9110 §8.8.3, §13.1.1–2): the `ETag` an answer carries and the `If-Match` / `If-None-Match`
 * a request sends back. Tags are opaque quoted strings; `W/` marks a weak one.
 */

/** The tags of an If-Match or If-None-Match header (`*` alone is `['*']`); an unreadable header names none. */
export function entityTags(header: string | string[] | undefined): string[] {
  if (header === undefined) return [];
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text.trim() === '*') return ['*'];
  return [...text.matchAll(/\s*((?:W\/)?"[^"]*")\s*(?:,|$)/g)].map((m) => m[1]);
}

const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);

/** If-None-Match (weak comparison): true when the client's copy is current (answer 304). */
export function etagMatches(header: string | string[] | undefined, etag: string): boolean {
  const tags = entityTags(header);
  return tags.includes('*') || tags.some((tag) => opaque(tag) === opaque(etag));
}

/** If-Match (strong comparison): `*`, or a strong tag equal to the current one. A weak tag never matches. */
export function ifMatchHolds(tags: string[], etag: string): boolean {
  return tags.includes('*') || tags.some((tag) => !tag.startsWith('W/') && tag === etag);
}
