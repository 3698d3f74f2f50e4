/**
 * The two public indexes and their description, checked against the spec's record tables. The field
 * lists are written out here again on purpose: src/schemas.ts could drift, the spec does not.
 */
import { describe, expect, inject, it } from 'vitest';
import { blogPostRecord, helpArticleRecord } from '../src/schemas.ts';
import { compareHelp, comparePosts } from '../src/lib/records.ts';
import { contentFiles, htmlFiles, LANGS, readJson, readText } from './helpers.ts';

const dir = inject('siteDir');

// Spec "Blog post record" and "Help article record": [field, required].
const POST_FIELDS: Record<string, boolean> = {
  id: true, slug: true, lang: true, title: true, description: true, pubDate: true, tags: false, heroImage: false,
};
const HELP_FIELDS: Record<string, boolean> = {
  id: true, slug: true, lang: true, title: true, url: false, type: true, section: true, cluster: true,
  platforms: false, feature_area: false, priority: false,
};

type Rec = Record<string, unknown> & { id: string; slug: string; lang: string };
const posts = readJson<Rec[]>(dir, 'api/posts.json');
const help = readJson<Rec[]>(dir, 'api/help.json');
const indexes = { posts, help } as const;

function expectSpecFields(record: Rec, fields: Record<string, boolean>) {
  for (const key of Object.keys(record)) expect(fields, `unexpected field ${key} in ${record.id}`).toHaveProperty(key);
  for (const [key, required] of Object.entries(fields)) if (required) expect(record, `${record.id} lacks ${key}`).toHaveProperty(key);
}

describe('public indexes', () => {
  it('are JSON arrays of records matching the spec tables exactly', () => {
    expect(posts.length).toBeGreaterThan(0);
    expect(help.length).toBeGreaterThan(0);
    for (const r of posts) {
      expectSpecFields(r, POST_FIELDS);
      expect(() => blogPostRecord.parse(r)).not.toThrow();
      expect(typeof r.title).toBe('string');
      // ISO 8601 date-time, as the spec's "string, date-time".
      expect(r.pubDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    }
    for (const r of help) {
      expectSpecFields(r, HELP_FIELDS);
      expect(() => helpArticleRecord.parse(r)).not.toThrow();
      if ('priority' in r) expect(['string', 'number']).toContain(typeof r.priority);
      if ('url' in r) expect(() => new URL(String(r.url))).not.toThrow();
    }
  });

  it('hold all three languages, with ids unique and slugs free of the language prefix', () => {
    for (const [name, records] of Object.entries(indexes)) {
      expect(new Set(records.map((r) => r.lang)), name).toEqual(new Set(LANGS));
      const ids = records.map((r) => r.id);
      expect(new Set(ids).size, `${name}: duplicate ids`).toBe(ids.length);
      for (const r of records) {
        expect(LANGS.some((l) => r.slug.startsWith(`${l}/`))).toBe(false);
        expect(r.slug).not.toContain('/');
        expect(r.id).toBe(`${r.lang}/${r.slug}`);
      }
    }
  });

  it('list every published entry and no draft', () => {
    const files = contentFiles();
    for (const f of files) {
      const records = f.collection === 'blog' ? posts : help;
      const present = records.some((r) => r.id === `${f.lang}/${f.slug}`);
      expect(present, `${f.collection}/${f.lang}/${f.slug} draft=${f.draft}`).toBe(!f.draft);
    }
  });

  it('leave out the English fallback copies of missing translations', () => {
    const fallbackPages = htmlFiles(dir).filter((p) => readText(dir, p).includes('data-fallback-notice'));
    expect(fallbackPages.length, 'the content should keep at least one missing translation').toBeGreaterThan(0);
    for (const page of fallbackPages) {
      const [lang, collection, slug] = page.split('/');
      const records = collection === 'blog' ? posts : help;
      expect(records.some((r) => r.id === `${lang}/${slug}`), page).toBe(false);
      expect(records.some((r) => r.id === `en/${slug}`), `${page} falls back to an English entry`).toBe(true);
    }
  });

  it('keep their stable order: posts newest first, help by section then priority', () => {
    const sortedPosts = [...posts].sort((a, b) => comparePosts(a as never, b as never));
    expect(posts.map((r) => r.id)).toEqual(sortedPosts.map((r) => r.id));
    for (let i = 1; i < posts.length; i++) {
      expect(Date.parse(String(posts[i - 1]!.pubDate))).toBeGreaterThanOrEqual(Date.parse(String(posts[i]!.pubDate)));
    }
    const sortedHelp = [...help].sort((a, b) => compareHelp(a as never, b as never));
    expect(help.map((r) => r.id)).toEqual(sortedHelp.map((r) => r.id));
  });

  it('meet the content minimums: 5 posts and 10 help articles per language', () => {
    for (const lang of LANGS) {
      expect(posts.filter((r) => r.lang === lang).length, lang).toBeGreaterThanOrEqual(5);
      expect(help.filter((r) => r.lang === lang).length, lang).toBeGreaterThanOrEqual(10);
    }
  });
});

describe('/api/openapi.json', () => {
  const doc = readJson<any>(dir, 'api/openapi.json');
  it('describes both endpoints at version 1.0.0', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe('1.0.0');
    expect(Object.keys(doc.paths).sort()).toEqual(['/api/help.json', '/api/posts.json']);
  });
  it('has record schemas with exactly the spec fields', () => {
    const post = doc.components.schemas.BlogPostRecord;
    const helpSchema = doc.components.schemas.HelpArticleRecord;
    expect(Object.keys(post.properties).sort()).toEqual(Object.keys(POST_FIELDS).sort());
    expect(post.required.sort()).toEqual(Object.keys(POST_FIELDS).filter((k) => POST_FIELDS[k]).sort());
    expect(Object.keys(helpSchema.properties).sort()).toEqual(Object.keys(HELP_FIELDS).sort());
    expect(helpSchema.required.sort()).toEqual(Object.keys(HELP_FIELDS).filter((k) => HELP_FIELDS[k]).sort());
    expect(post.properties.pubDate.format).toBe('date-time');
    expect(helpSchema.properties.url.format).toBe('uri');
    expect(post.properties.lang.enum).toEqual(['en', 'es', 'pt']);
  });
});
