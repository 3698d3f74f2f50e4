/**
 * Search logic shared by the widget and the benchmark: turns the two public index records into MiniSearch
 * documents and queries them. No DOM here.
 *
 * Matching is prefix + fuzzy (typo-tolerant), accent-insensitive and plural-insensitive: "configuración" and
 * "configuracion" fold to the same term on both sides, and a word ending in "s" is also indexed without it, so
 * a typo in the singular ("webhok", "backp") is one edit from an indexed term. Titles weigh the most. The
 * options are tuned against the typo list in test/search-core.test.ts: change them there first.
 */
import MiniSearch, { type SearchOptions } from 'minisearch';
import { clusterLabel, sectionLabel } from '../i18n/help-labels.ts';
import type { Lang } from '../i18n/langs.ts';

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
  /** Language of the text: the searched language, or English for an entry not translated yet. */
  lang: string;
}

/** Lowercase and strip combining marks (NFD), so "Configuración" matches "configuracion". */
export function fold(term: string): string {
  return term.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/**
 * Index-side terms: the folded word, plus the word without a plural "s" (English, Spanish and Portuguese
 * plurals all end in it), so "webhooks" is found from "webhook" and its typos. Queries are only folded.
 */
export function indexTerms(term: string): string | string[] {
  const folded = fold(term);
  return folded.length > 4 && folded.endsWith('s') && !folded.endsWith('ss') ? [folded, folded.slice(0, -1)] : folded;
}

/**
 * Edits allowed for a query word of this length: none up to three characters ("api" would match half the
 * index), one at four, two from five. Levenshtein distance, so a swap of two letters ("agnet") costs two.
 */
export function allowedEdits(term: string): number | false {
  return term.length <= 3 ? false : term.length === 4 ? 1 : 2;
}

export const SEARCH_OPTIONS: SearchOptions = {
  // Only the word being typed is a prefix; the words before it are complete. Cheaper and more precise.
  prefix: (_term, i, terms) => i === terms.length - 1,
  fuzzy: allowedEdits,
  processTerm: fold,
  boost: { title: 3 },
  combineWith: 'AND',
};

export const SOURCE_LANG = 'en';

/**
 * The searchable documents of one language: its own records, plus the English records of entries that have
 * no translation in it yet, linked to the language's copy of the page (the site builds one, with a notice).
 * Without them a Portuguese reader could never find an article that exists only in English.
 */
export function toDocs(posts: readonly PostLike[], help: readonly HelpLike[], lang: string): Doc[] {
  const docs: Doc[] = [];
  for (const p of inLanguage(posts, lang)) {
    docs.push({
      id: `post:${p.id}`, kind: 'post', title: p.title, hint: p.description, lang: p.lang,
      text: [p.description, ...(p.tags ?? [])].join(' '), path: `/${lang}/blog/${p.slug}/`,
    });
  }
  for (const h of inLanguage(help, lang)) {
    // An English article keeps its title, but its section and cluster are named in the reader's language,
    // as on the site's own pages (src/i18n/help-labels.ts).
    const section = sectionLabel(h.section, h.lang as Lang, lang as Lang).text;
    const cluster = clusterLabel(h.cluster, h.lang as Lang, lang as Lang).text;
    docs.push({
      id: `help:${h.id}`, kind: 'help', title: h.title, hint: `${section} › ${cluster}`, lang: h.lang,
      text: [section, cluster, h.feature_area ?? ''].join(' '), path: `/${lang}/help/${h.slug}/`,
    });
  }
  return docs;
}

function inLanguage<T extends { lang: string; slug: string }>(records: readonly T[], lang: string): T[] {
  const translated = new Set(records.filter((r) => r.lang === lang).map((r) => r.slug));
  return records.filter((r) => r.lang === lang || (r.lang === SOURCE_LANG && !translated.has(r.slug)));
}

export function buildIndex(docs: readonly Doc[]): MiniSearch<Doc> {
  const index = new MiniSearch<Doc>({
    fields: ['title', 'text'],
    storeFields: ['kind', 'title', 'hint', 'path', 'lang'],
    processTerm: indexTerms,
    searchOptions: SEARCH_OPTIONS,
  });
  index.addAll(docs);
  return index;
}

export type Hit = Pick<Doc, 'id' | 'kind' | 'title' | 'hint' | 'path' | 'lang'>;

/**
 * Best results first. All words must match; if that finds nothing (a stray word), any word may match,
 * so the list is rarely empty while the best matches still lead.
 */
export function search(index: MiniSearch<Doc>, query: string, limit = 8): Hit[] {
  const q = query.trim();
  if (!q) return [];
  let results = index.search(q);
  if (results.length === 0) results = index.search(q, { combineWith: 'OR' });
  return results.slice(0, limit).map((r) => ({ id: String(r.id), kind: r.kind, title: r.title, hint: r.hint, path: r.path, lang: r.lang }));
}
