/**
 * Turning collection entries into the public index records, and their stable orders (README: "The public indexes").
 * Pure functions over plain data (no astro:* imports) so tests and the benchmark can use them.
 */
import type { BlogFrontmatter, BlogPostRecord, HelpArticleRecord, HelpFrontmatter } from '../schemas.ts';
import type { Lang } from '../i18n/langs.ts';

interface Keyed {
  lang: string;
  slug: string;
}

const byLangThenSlug = (a: Keyed, b: Keyed) => cmp(a.lang, b.lang) || cmp(a.slug, b.slug);

/** Code-point comparison: the same order on every machine, unlike localeCompare. */
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Posts: newest first; same instant ordered by lang then slug so the output never depends on file order. */
export function comparePosts(a: Keyed & { pubDate: Date | string }, b: Keyed & { pubDate: Date | string }): number {
  return new Date(b.pubDate).getTime() - new Date(a.pubDate).getTime() || byLangThenSlug(a, b);
}

/**
 * Priority sort key. Numbers (and numeric strings such as "2") sort ascending, so 1 is the top article;
 * other strings sort after all numbers, by code point; a missing priority sorts last.
 */
function priorityKey(p: string | number | undefined): [number, number, string] {
  if (p === undefined || p === '') return [2, 0, ''];
  const n = typeof p === 'number' ? p : Number(p);
  if (Number.isFinite(n)) return [0, n, ''];
  return [1, 0, String(p)];
}

/** Help: by section, then priority, then lang and slug as the stable tie-break. */
export function compareHelp(
  a: Keyed & { section: string; priority?: string | number | undefined },
  b: Keyed & { section: string; priority?: string | number | undefined },
): number {
  const ka = priorityKey(a.priority);
  const kb = priorityKey(b.priority);
  return cmp(a.section, b.section) || ka[0] - kb[0] || ka[1] - kb[1] || cmp(ka[2], kb[2]) || byLangThenSlug(a, b);
}

/** Copy only defined optional fields, so records never carry `"tags": undefined`-style noise. */
function withOptional<T extends object>(base: T, optional: Record<string, unknown>): T {
  const out = { ...base } as Record<string, unknown>;
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) out[key] = value;
  return out as T;
}

export function postRecord(id: string, lang: Lang, slug: string, data: BlogFrontmatter): BlogPostRecord {
  return withOptional(
    { id, slug, lang, title: data.title, description: data.description, pubDate: data.pubDate.toISOString() },
    { tags: data.tags, heroImage: data.heroImage },
  );
}

export function helpRecord(id: string, lang: Lang, slug: string, data: HelpFrontmatter): HelpArticleRecord {
  return withOptional(
    { id, slug, lang, title: data.title, type: data.type, section: data.section, cluster: data.cluster },
    { url: data.url, platforms: data.platforms, feature_area: data.feature_area, priority: data.priority },
  );
}
