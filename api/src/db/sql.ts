/** SQL fragments that read the same on SQLite and PostgreSQL. */

/** A `LIKE … ESCAPE '\'` pattern that matches `term` literally anywhere, case-folded (compare with lower(column)). */
export function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
