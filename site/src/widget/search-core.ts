/**
 * Search logic shared by the widget and the benchmark: turns the two public index records into MiniSearch
 * documents and queries them. No DOM here.
 *
 * Matching is prefix + fuzzy (typo-tolerant) and accent-insensitive: processTerm folds "configuración" and
 * "configuracion" to the same term, on both the indexing and the query side. Titles weigh the most.
 */
import MiniSearch, { type SearchOptions } from 'minisearch';

/** The fields of the two index records the widget uses (see src/schemas.ts for the full records). */
export interface PostLike {
  id: string; slug: string; lang: string; title: string; description: string; tags?: string[];
}
export interface HelpLike {
  id: string; slug: string; lang: string; title: string; section: string; cluster: string; feature_area?: string;
}

export interface Doc {
  id: string;
  kind: 'post' | 'help';
  title: string;
  /** Secondary searchable text: description and tags, or section, cluster and feature area. */
  text: string;
  /** Shown under the title in the result list. */
  hint: string;
  /** Path on the site, e.g. /es/help/api-keys/. */
  path: string;
}

/** Lowercase and strip combining marks (NFD), so "Configuración" matches "configuracion". */
export function fold(term: string): string {
  return term.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

export const SEARCH_OPTIONS: SearchOptions = {
  // Only the word being typed is a prefix; the words before it are complete. Cheaper and more precise.
  prefix: (_term, i, terms) => i === terms.length - 1,
  // Typo tolerance grows with length (about one edit in five characters, at most two); words under four
  // characters must match exactly, or "api" would match half the index.
  fuzzy: (term) => (term.length >= 4 ? 0.2 : false),
  maxFuzzy: 2,
  boost: { title: 3 },
  combineWith: 'AND',
};

export function toDocs(posts: readonly PostLike[], help: readonly HelpLike[], lang: string): Doc[] {
  const docs: Doc[] = [];
  for (const p of posts) {
    if (p.lang !== lang) continue;
    docs.push({
      id: `post:${p.id}`, kind: 'post', title: p.title, hint: p.description,
      text: [p.description, ...(p.tags ?? [])].join(' '), path: `/${p.lang}/blog/${p.slug}/`,
    });
  }
  for (const h of help) {
    if (h.lang !== lang) continue;
    const hint = `${h.section} › ${h.cluster}`;
    docs.push({
      id: `help:${h.id}`, kind: 'help', title: h.title, hint,
      text: [h.section, h.cluster, h.feature_area ?? ''].join(' '), path: `/${h.lang}/help/${h.slug}/`,
    });
  }
  return docs;
}

export function buildIndex(docs: readonly Doc[]): MiniSearch<Doc> {
  const index = new MiniSearch<Doc>({
    fields: ['title', 'text'],
    storeFields: ['kind', 'title', 'hint', 'path'],
    processTerm: fold,
    searchOptions: SEARCH_OPTIONS,
  });
  index.addAll(docs);
  return index;
}

export type Hit = Pick<Doc, 'id' | 'kind' | 'title' | 'hint' | 'path'>;

/**
 * Best results first. All words must match; if that finds nothing (a stray word), any word may match,
 * so the list is rarely empty while the best matches still lead.
 */
export function search(index: MiniSearch<Doc>, query: string, limit = 8): Hit[] {
  const q = query.trim();
  if (!q) return [];
  let results = index.search(q);
  if (results.length === 0) results = index.search(q, { combineWith: 'OR' });
  return results.slice(0, limit).map((r) => ({ id: String(r.id), kind: r.kind, title: r.title, hint: r.hint, path: r.path }));
}
