/**
 * Which /<lang>/<collection>/<slug>/ addresses will be English fallback pages, worked out from the content
 * folder before the build (the sitemap integration needs to know at config time: fallback copies stay out
 * of the sitemap, like they stay out of the indexes). It reads only `draft:` from the front matter; the
 * real validation happens in the content collections.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { contentRoot } from './content-dir.ts';
import { LANGS, DEFAULT_LANG } from '../i18n/langs.ts';

const DRAFT = /^---\r?\n[\s\S]*?^draft:\s*true\s*$[\s\S]*?^---/m;

function publishedSlugs(collection: string, lang: string): Set<string> {
  const dir = join(contentRoot(), collection, lang);
  const slugs = new Set<string>();
  if (!existsSync(dir)) return slugs;
  for (const file of readdirSync(dir)) {
    if (!/\.mdx?$/.test(file)) continue;
    const head = readFileSync(join(dir, file), 'utf8').slice(0, 4096);
    if (!DRAFT.test(head)) slugs.add(file.replace(/\.mdx?$/, ''));
  }
  return slugs;
}

/** Paths like "/es/help/webhooks/" that will hold an English fallback. */
export function fallbackPaths(): Set<string> {
  const out = new Set<string>();
  for (const collection of ['blog', 'help']) {
    const english = publishedSlugs(collection, DEFAULT_LANG);
    for (const lang of LANGS) {
      if (lang === DEFAULT_LANG) continue;
      const own = publishedSlugs(collection, lang);
      for (const slug of english) if (!own.has(slug)) out.add(`/${lang}/${collection}/${slug}/`);
    }
  }
  return out;
}
