/**
 * Every page reads content through this module, so drafts, fallbacks and ordering are decided in one place.
 *
 * A "localized entry" is what a page at /<lang>/<collection>/<slug>/ shows: the entry written in <lang>, or,
 * when that translation is missing (or still a draft), the English entry with `fallback: true`. Pages show a
 * notice for fallbacks, point their canonical URL at the English page and keep them out of the indexes.
 */
import { getCollection, type CollectionEntry } from 'astro:content';
import { DEFAULT_LANG, LANGS, type Lang } from '../i18n/langs.ts';
import { compareHelp, comparePosts } from './records.ts';
import { clusterLabel, sectionLabel, type Label } from '../i18n/help-labels.ts';

export type CollectionName = 'blog' | 'help';
export type Entry<C extends CollectionName> = CollectionEntry<C>;

export interface Localized<C extends CollectionName> {
  /** The language of the URL. */
  lang: Lang;
  slug: string;
  entry: Entry<C>;
  /** True when `entry` is the English original standing in for a missing translation. */
  fallback: boolean;
  /** Languages that have a real (non-draft) translation of this slug: the hreflang alternates. */
  translations: Lang[];
}

export function langOf(entry: { id: string }): Lang {
  return entry.id.slice(0, entry.id.indexOf('/')) as Lang;
}
export function slugOf(entry: { id: string }): string {
  return entry.id.slice(entry.id.indexOf('/') + 1);
}

// getCollection is cheap but is called by many routes; keep one sorted copy per collection per build.
const cache = new Map<CollectionName, Promise<unknown>>();

/** Published (non-draft) entries of every language, in index order. */
export function published<C extends CollectionName>(collection: C): Promise<Entry<C>[]> {
  if (!cache.has(collection)) {
    cache.set(
      collection,
      getCollection(collection, (e) => !e.data.draft).then((list) => {
        if (collection === 'blog') {
          return (list as Entry<'blog'>[]).sort((a, b) =>
            comparePosts(
              { pubDate: a.data.pubDate, lang: langOf(a), slug: slugOf(a) },
              { pubDate: b.data.pubDate, lang: langOf(b), slug: slugOf(b) },
            ),
          );
        }
        return (list as Entry<'help'>[]).sort((a, b) =>
          compareHelp({ ...a.data, lang: langOf(a), slug: slugOf(a) }, { ...b.data, lang: langOf(b), slug: slugOf(b) }),
        );
      }),
    );
  }
  return cache.get(collection) as Promise<Entry<C>[]>;
}

/**
 * One Localized per (language, slug): native entries plus English fallbacks for missing translations.
 * Order follows the index order of the entry shown.
 */
export async function localized<C extends CollectionName>(collection: C): Promise<Localized<C>[]> {
  const entries = await published(collection);
  const bySlug = new Map<string, Map<Lang, Entry<C>>>();
  for (const entry of entries) {
    const slug = slugOf(entry);
    if (!bySlug.has(slug)) bySlug.set(slug, new Map());
    bySlug.get(slug)!.set(langOf(entry), entry);
  }
  const out: Localized<C>[] = [];
  for (const entry of entries) {
    const slug = slugOf(entry);
    const versions = bySlug.get(slug)!;
    const translations = LANGS.filter((l) => versions.has(l));
    const own = langOf(entry);
    out.push({ lang: own, slug, entry, fallback: false, translations });
    // The English original also stands in for every language that lacks a translation.
    if (own === DEFAULT_LANG) {
      for (const lang of LANGS) {
        if (!versions.has(lang)) out.push({ lang, slug, entry, fallback: true, translations });
      }
    }
  }
  return out;
}

export async function localizedFor<C extends CollectionName>(collection: C, lang: Lang): Promise<Localized<C>[]> {
  return (await localized(collection)).filter((l) => l.lang === lang);
}

const minutesCache = new Map<string, number>();

/** Reading time in whole minutes at 220 words per minute, never below one. Memoised: lists repeat it. */
export function readingMinutes(body: string | undefined): number {
  if (!body) return 1;
  const cached = minutesCache.get(body);
  if (cached !== undefined) return cached;
  const minutes = countMinutes(body);
  minutesCache.set(body, minutes);
  return minutes;
}

function countMinutes(body: string): number {
  // Drop import/export lines and JSX tags, which are not read by a human.
  const text = body.replace(/^(import|export)\s.*$/gm, ' ').replace(/<[^>]+>/g, ' ');
  const words = text.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
  return Math.max(1, Math.round(words / 220));
}

/** URL-safe form of a tag: lowercase ASCII, accents stripped ("Configuración" -> "configuracion"). */
export function tagSlug(tag: string): string {
  return tag
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Section and cluster of a help entry as the page of its URL shows them (see src/i18n/help-labels.ts). */
export function helpPlace(item: Localized<'help'>): { section: Label; cluster: Label } {
  const written = langOf(item.entry);
  return {
    section: sectionLabel(item.entry.data.section, written, item.lang),
    cluster: clusterLabel(item.entry.data.cluster, written, item.lang),
  };
}
