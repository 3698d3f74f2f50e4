/**
 * The spec's two record tables ("Blog post record", "Help article record") as zod schemas, in two forms:
 *
 * - front matter schemas: what an author writes in content/{blog,help}/<lang>/<slug>.mdx. They hold the
 *   record fields that are not derived from the path, plus `draft`. `id`, `slug` and `lang` come from the
 *   path, so writing `slug` (or `lang`/`id`) in front matter is refused instead of silently overriding it.
 * - record schemas: exactly the objects published in /api/posts.json and /api/help.json. They are strict
 *   (no extra keys), and the OpenAPI document is generated from them, so the three cannot drift apart.
 *
 * This module must stay free of astro:* imports: tests and the benchmark import it directly.
 */
import { z } from 'astro/zod';
import { LANGS } from './i18n/langs.ts';

const nonEmpty = z.string().trim().min(1);

/** Fields derived from the file path; an author who writes them gets a clear error. */
const derived = {
  slug: z.never({ error: '`slug` is derived from the file name; rename the file instead' }).optional(),
  lang: z.never({ error: '`lang` is derived from the folder (content/<collection>/<lang>/)' }).optional(),
  id: z.never({ error: '`id` is derived from the path' }).optional(),
};

/**
 * `pubDate` is a date-time. YAML turns an unquoted `2025-03-04` into a Date already; quoted values must be
 * an ISO 8601 date or date-time with offset so that "next tuesday" is an error, not a guess.
 */
const pubDate = z
  .union([z.date(), z.iso.datetime({ offset: true }), z.iso.date()], {
    error: 'expected an ISO 8601 date or date-time, e.g. 2025-03-04 or 2025-03-04T09:00:00Z',
  })
  .transform((value) => new Date(value))
  .refine((date) => !Number.isNaN(date.getTime()), 'invalid date');

export const blogFrontmatter = z.strictObject({
  title: nonEmpty,
  description: nonEmpty,
  pubDate,
  tags: z.array(nonEmpty).optional(),
  heroImage: nonEmpty.optional(),
  /** Who wrote the post, as shown in its byline; not part of the index record. */
  author: nonEmpty.optional(),
  draft: z.boolean().default(false),
  ...derived,
});

export const helpFrontmatter = z.strictObject({
  title: nonEmpty,
  url: z.url().optional(),
  type: nonEmpty,
  section: nonEmpty,
  cluster: nonEmpty,
  platforms: z.array(nonEmpty).optional(),
  feature_area: nonEmpty.optional(),
  priority: z.union([z.string(), z.number()]).optional(),
  draft: z.boolean().default(false),
  ...derived,
});

export type BlogFrontmatter = z.output<typeof blogFrontmatter>;
export type HelpFrontmatter = z.output<typeof helpFrontmatter>;

const lang = z.enum(LANGS);

export const blogPostRecord = z
  .strictObject({
    id: z.string().meta({ description: 'content-collection identifier (<lang>/<slug>)' }),
    slug: z.string().regex(/^[a-z0-9][a-z0-9-]*$/).meta({ description: 'URL slug without the language prefix' }),
    lang: lang.meta({ description: 'one of en, es, pt' }),
    title: z.string(),
    description: z.string(),
    pubDate: z.iso.datetime().meta({ description: 'ISO 8601 date-time (UTC)' }),
    tags: z.array(z.string()).optional(),
    heroImage: z.string().optional(),
  })
  .meta({ title: 'Blog post record' });

export const helpArticleRecord = z
  .strictObject({
    id: z.string(),
    slug: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
    lang: lang.meta({ description: 'one of en, es, pt' }),
    title: z.string(),
    url: z.url().optional(),
    type: z.string(),
    section: z.string(),
    cluster: z.string(),
    platforms: z.array(z.string()).optional(),
    feature_area: z.string().optional(),
    priority: z.union([z.string(), z.number()]).optional(),
  })
  .meta({ title: 'Help article record' });

export type BlogPostRecord = z.infer<typeof blogPostRecord>;
export type HelpArticleRecord = z.infer<typeof helpArticleRecord>;
