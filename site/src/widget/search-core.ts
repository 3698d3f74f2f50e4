/**
 * Search logic shared by the widget and the benchmark: turns the two public index records into MiniSearch
 * documents and queries them. No DOM here.
 *
 * Words go through the page language's analysis, on both sides alike: folded (lowercase, no accents, so
 * "configuración" and "configuracion" are one word), stop words dropped (articles, prepositions and
 * conjunctions: "copia de seguranca" asks for "copia" and "seguranca", never for every title with "de"), and
 * stemmed by the language's Snowball stemmer (so "configurar" finds "Configuração", "installing" "Install"). The
 * index also keeps each word unstemmed, and without a plural "s", so prefixes and typos of the whole word still
 * match. Matching is prefix (the word being typed) + fuzzy (typo-tolerant); titles weigh the most. The options
 * are tuned against the typo list in test/search-core.test.ts: change them there first.
 */
import MiniSearch, { type Query, type SearchOptions } from 'minisearch';
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

export const SOURCE_LANG = 'en';

/**
 * A language's stemmer: a word (folded) to its stem. The Snowball stemmers of @orama/stemmers; the widget loads the
 * page language's one beside the indexes (/search-stemmer-<lang>.js), tests and the benchmark take them from
 * ./stemmers.ts.
 */
export type Stemmer = (word: string) => string;

/** Lowercase and strip combining marks (NFD), so "Configuración" matches "configuracion". */
export function fold(term: string): string {
  return term.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/**
 * Words that say nothing about a page on their own, folded: articles, prepositions, conjunctions, pronouns. Short
 * lists on purpose: a word a reader might mean (no, sem, first) stays searchable. English's are dropped in every
 * language, since a Spanish or Portuguese index holds the English entries not translated yet.
 */
const STOP_WORDS: Record<string, readonly string[]> = {
  en: 'a an and are as at be by for from how in is it of on or the this that to with you your'.split(' '),
  es: 'a al con de del e el en es la las lo los o para por que se su sus tu tus u un una unas unos y'.split(' '),
  pt: 'a ao aos as com da das de do dos e em na nas no nos o os ou para pela pelas pelo pelos por que se seu seus sua suas um uma umas uns'.split(' '),
};

/** A word of a query, analysed: what it is looked for as. */
export interface QueryWord {
  /** Folded, whole: matched exactly, as a prefix while it is being typed, and within a few typos. */
  folded: string;
  /** Its stem: matched exactly, so another form of the word (a verb for its noun, a plural) is found. */
  stem: string;
}

export interface Analyzer {
  /** The terms a word of an entry is indexed under (folded, without a plural "s", its stems), or null for a stop word. */
  index(word: string): string[] | null;
  /** What a word of a query looks for, or null for a stop word. */
  query(word: string): QueryWord | null;
}

export function analyzer(lang: string, stem: Stemmer): Analyzer {
  const stop = new Set([...(STOP_WORDS[lang] ?? []), ...STOP_WORDS[SOURCE_LANG]!]);
  // Snowball's Portuguese and Spanish rules read the accents ("configuração" → "configur"), which readers often
  // leave out ("configuracao" → "configuraca"): a word is stemmed as written, and the index also holds the stem
  // of its accentless spelling, so a query stemmed either way meets it.
  const stemOf = (word: string) => fold(stem(word.normalize('NFC').toLowerCase()));
  return {
    index(word) {
      const folded = fold(word);
      if (!folded || stop.has(folded)) return null;
      // The plural-less form keeps "webhok" one edit from "webhooks" whatever the stemmer makes of it.
      const plural = folded.length > 4 && folded.endsWith('s') && !folded.endsWith('ss') ? [folded.slice(0, -1)] : [];
      return [...new Set([folded, ...plural, stemOf(word), stem(folded)])];
    },
    query(word) {
      const folded = fold(word);
      return !folded || stop.has(folded) ? null : { folded, stem: stemOf(word) };
    },
  };
}

/**
 * Edits allowed for a query word of this length: none up to three characters ("api" would match half the
 * index), one at four, two from five. Levenshtein distance, so a swap of two letters ("agnet") costs two.
 * Counted on the whole word, never on its stem: a stem is shorter, and two edits from "banan" reach "banc".
 */
export function allowedEdits(term: string): number | false {
  return term.length <= 3 ? false : term.length === 4 ? 1 : 2;
}

/** Options every query shares (each word's own are in `wordQuery`). */
export const SEARCH_OPTIONS: SearchOptions = {
  boost: { title: 3 },
  // The words arrive analysed (search() below): MiniSearch is to take each as it is.
  tokenize: (term) => [term],
  processTerm: (term) => term,
};

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

/** One language's index, and the analysis its words went through (queries go through the same). */
export interface SearchIndex {
  index: MiniSearch<Doc>;
  words: Analyzer;
}

/** The index of one language's documents, words analysed as that language's (`stem` is its stemmer). */
export function buildIndex(docs: readonly Doc[], lang: string, stem: Stemmer): SearchIndex {
  const words = analyzer(lang, stem);
  const index = new MiniSearch<Doc>({
    fields: ['title', 'text'],
    storeFields: ['kind', 'title', 'hint', 'path', 'lang'],
    processTerm: (word) => words.index(word),
    searchOptions: SEARCH_OPTIONS,
  });
  index.addAll(docs);
  return { index, words };
}

export type Hit = Pick<Doc, 'id' | 'kind' | 'title' | 'hint' | 'path' | 'lang'>;

const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];

/**
 * A word found as itself (exactly, as a prefix when it is the word being typed, or within its typos) or by its
 * stem (exactly: a prefix or a typo of a stem would reach too far).
 */
function wordQuery(word: QueryWord, typing: boolean): Query {
  return {
    combineWith: 'OR',
    queries: [
      { queries: [word.folded], prefix: typing, fuzzy: allowedEdits(word.folded) },
      { queries: [word.stem], prefix: false, fuzzy: false },
    ],
  };
}

/**
 * Best results first. All words must match (the stop words aside); if that finds nothing (a stray word), any
 * word may match, so the list is rarely empty while the best matches still lead. Only the last word is taken
 * as a prefix: the words before it are complete.
 */
export function search(site: SearchIndex, query: string, limit = 8): Hit[] {
  const words = tokenize(query).flatMap((word) => site.words.query(word) ?? []);
  if (words.length === 0) return [];
  const queries = words.map((word, i) => wordQuery(word, i === words.length - 1));
  let results = site.index.search({ combineWith: 'AND', queries });
  if (results.length === 0) results = site.index.search({ combineWith: 'OR', queries });
  return results.slice(0, limit).map((r) => ({ id: String(r.id), kind: r.kind, title: r.title, hint: r.hint, path: r.path, lang: r.lang }));
}
