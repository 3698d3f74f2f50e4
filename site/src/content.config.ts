/**
 * Two collections, `blog` and `help`, read by the glob loader from the repository's content/ folder
 * (or from CONTENT_DIR, which the tests and the benchmark point at generated content).
 *
 * Layout: content/<collection>/<lang>/<slug>.mdx. The entry id is "<lang>/<slug>", so the same slug in two
 * languages (a translation) never collides, and `lang`/`slug` are always derived from the path.
 */
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { blogFrontmatter, helpFrontmatter } from './schemas.ts';
import { contentDir } from './lib/content-dir.ts';
import { LANGS } from './i18n/langs.ts';

const ENTRY_PATH = new RegExp(`^(${LANGS.join('|')})/([a-z0-9][a-z0-9-]*)\\.mdx?$`);

/** Entry id from its path; rejects files outside <lang>/<slug>.mdx so typos fail loudly. */
function idFromPath(collection: string) {
  return ({ entry, data }: { entry: string; data: Record<string, unknown> }): string => {
    const file = `${collection}/${entry}`;
    if (!ENTRY_PATH.test(entry)) {
      throw new Error(
        `${file}: content files must be named <lang>/<slug>.mdx with lang one of ${LANGS.join(', ')} and a lowercase slug`,
      );
    }
    // The schema also refuses `slug`, but Astro reads data.slug before validating, so refuse it here first.
    if ('slug' in data) throw new Error(`${file}: field "slug" is not allowed; the slug is derived from the file name`);
    return entry.replace(/\.mdx?$/, '');
  };
}

const blog = defineCollection({
  loader: glob({ pattern: '**/*.{md,mdx}', base: contentDir('blog'), generateId: idFromPath('blog') }),
  schema: blogFrontmatter,
});

const help = defineCollection({
  loader: glob({ pattern: '**/*.{md,mdx}', base: contentDir('help'), generateId: idFromPath('help') }),
  schema: helpFrontmatter,
});

export const collections = { blog, help };
