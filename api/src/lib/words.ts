/**
 * The words of a text as full-text search indexes and matches them: NFC, lower case, split on anything but
 * letters, marks and digits. Done here rather than by the database, so SQLite's FTS5 and PostgreSQL's text search
 * hold the same words whatever the database's locale (features/plan/search/ indexes with it, and so does the
 * migration that fills the index of what existed before it).
 */
const NOT_WORD = /[^\p{L}\p{M}\p{N}]+/u;

export function searchWords(text: string): string[] {
  return text.normalize('NFC').toLowerCase().split(NOT_WORD).filter((word) => word !== '');
}
