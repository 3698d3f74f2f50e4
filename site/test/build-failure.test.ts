/**
 * A broken front matter must stop the build with a message naming the file and the field, and a draft must stay
 * out of the built site. Builds a tiny content folder (CONTENT_DIR) into a temporary output, so the real content
 * and build are untouched (and the real content need not keep a draft for the draft rule to be tested).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSite } from './build.ts';

const temps: string[] = [];
afterAll(() => Promise.all(temps.map((t) => rm(t, { recursive: true, force: true }))));

const GOOD_HELP = '---\ntitle: Fine\ntype: guide\nsection: S\ncluster: C\n---\nFine.\n';

async function buildWith(blogFile: string, frontMatter: string, extraPosts: Record<string, string> = {}) {
  const tmp = await mkdtemp(join(tmpdir(), 'rollcall-broken-'));
  temps.push(tmp);
  await mkdir(join(tmp, 'content/blog/en'), { recursive: true });
  await mkdir(join(tmp, 'content/help/en'), { recursive: true });
  await writeFile(join(tmp, 'content/help/en/fine.mdx'), GOOD_HELP);
  await writeFile(join(tmp, 'content/blog/en', blogFile), `---\n${frontMatter}\n---\nBody.\n`);
  for (const [file, fm] of Object.entries(extraPosts)) await writeFile(join(tmp, 'content/blog/en', file), `---\n${fm}\n---\nBody.\n`);
  const result = await buildSite({ contentDir: join(tmp, 'content'), outDir: join(tmp, 'dist'), cacheDir: join(tmp, 'cache') });
  return { ...result, dist: join(tmp, 'dist') };
}

describe('build with a broken front matter', () => {
  it('fails naming the file and the invalid field', async () => {
    const result = await buildWith('broken-date.mdx', 'title: Broken\ndescription: A post\npubDate: next tuesday');
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('broken-date.mdx');
    expect(result.output).toMatch(/pubDate/);
  });

  it('fails naming the file and a missing required field', async () => {
    const result = await buildWith('no-title.mdx', 'description: A post\npubDate: 2025-01-01');
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('no-title.mdx');
    expect(result.output).toMatch(/\btitle\b/);
  });

  it('refuses a slug in the front matter', async () => {
    const result = await buildWith('with-slug.mdx', 'title: T\ndescription: D\npubDate: 2025-01-01\nslug: other');
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('with-slug.mdx');
    expect(result.output).toMatch(/"?slug"? is not allowed/);
  });
});

describe('build with a draft', () => {
  it('publishes the other posts and leaves the draft out of pages, the index and the feed', async () => {
    const result = await buildWith('published.mdx', 'title: Published\ndescription: D\npubDate: 2025-01-01', {
      'unfinished.mdx': 'title: Unfinished\ndescription: D\npubDate: 2025-01-02\ndraft: true',
    });
    expect(result.code, result.output).toBe(0);
    expect(existsSync(join(result.dist, 'en/blog/published/index.html'))).toBe(true);
    expect(existsSync(join(result.dist, 'en/blog/unfinished'))).toBe(false);
    const posts = JSON.parse(await readFile(join(result.dist, 'api/posts.json'), 'utf8')) as { id: string }[];
    expect(posts.map((p) => p.id)).toEqual(['en/published']);
    const feed = await readFile(join(result.dist, 'en/rss.xml'), 'utf8');
    expect(feed).toContain('Published');
    expect(feed).not.toContain('Unfinished');
  });
});
