/**
 * npm run bench -w site
 *
 * 1. generates 1,000 posts and 1,000 help articles per language (6,000 MDX files) into a temporary folder;
 * 2. builds the real site over it, then a plain Astro site (bench/plain: collections + one page per entry);
 * 3. prints build seconds, pages per second, the ratio of the two builds, index sizes (raw and gzip), the
 *    widget bundle size, and the time to search a 3,000-record index.
 *
 * BENCH_COUNT overrides the per-language count (e.g. 100 for a quick run). Targets (from issue 3):
 * ratio <= 1.3, widget < 15 KB gzip, < 5 ms per query.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildSite } from '../test/build.ts';
import { generateContent } from './generate.ts';
import { buildIndex, search, toDocs, type HelpLike, type PostLike } from '../src/widget/search-core.ts';
import { STEMMERS } from '../src/widget/stemmers.ts';

const COUNT = Number(process.env.BENCH_COUNT ?? 1000);
const PLAIN_ROOT = fileURLToPath(new URL('./plain/', import.meta.url));

async function countFiles(dir: string, ext: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true });
  return entries.filter((e) => e.endsWith(ext)).length;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function sizes(path: string) {
  const data = await readFile(path);
  return { raw: data.length, gzip: gzipSync(data, { level: 9 }).length };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

async function main() {
  const tmp = await mkdtemp(join(tmpdir(), 'rollcall-bench-'));
  try {
    const content = join(tmp, 'content');
    console.log(`generating ${COUNT} posts + ${COUNT} help articles per language in ${content}`);
    await generateContent(content, COUNT);

    console.log('building the site…');
    const site = await buildSite({ contentDir: content, outDir: join(tmp, 'site'), cacheDir: join(tmp, 'site-cache') });
    if (site.code !== 0) throw new Error(`site build failed:\n${site.output.slice(-4000)}`);
    console.log('building the plain Astro baseline…');
    const plain = await buildSite({
      root: PLAIN_ROOT, contentDir: content, outDir: join(tmp, 'plain'), cacheDir: join(tmp, 'plain-cache'),
    });
    if (plain.code !== 0) throw new Error(`plain build failed:\n${plain.output.slice(-4000)}`);

    const sitePages = await countFiles(join(tmp, 'site'), '.html');
    const plainPages = await countFiles(join(tmp, 'plain'), '.html');
    const postsSize = await sizes(join(tmp, 'site/api/posts.json'));
    const helpSize = await sizes(join(tmp, 'site/api/help.json'));
    const widget = await sizes(join(tmp, 'site/search-widget.js'));

    // Search: one MiniSearch index over the 3,000 post records (all languages), words analysed as English.
    const posts = JSON.parse(await readFile(join(tmp, 'site/api/posts.json'), 'utf8')) as PostLike[];
    const help = JSON.parse(await readFile(join(tmp, 'site/api/help.json'), 'utf8')) as HelpLike[];
    const docs = ['en', 'es', 'pt'].flatMap((lang) => toDocs(posts, [], lang));
    let started = performance.now();
    const index = buildIndex(docs, 'en', STEMMERS.en);
    const indexMs = performance.now() - started;
    const queries = ['agent', 'helth chek', 'configuracion', 'verificacao saude', 'webhok mesage', 'backup', 'organizacion miembro', 'tok', 'deploy queue retry', 'relatorio'];
    for (const q of queries) search(index, q); // warm-up
    const times: number[] = [];
    for (let round = 0; round < 50; round++) {
      for (const q of queries) {
        started = performance.now();
        search(index, q);
        times.push(performance.now() - started);
      }
    }
    times.sort((a, b) => a - b);
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    // The widget's real case: one language of posts + help (about 2,000 records).
    const langIndex = buildIndex(toDocs(posts, help, 'es'), 'es', STEMMERS.es);
    const langTimes = queries.map((q) => {
      const t = performance.now();
      search(langIndex, q);
      return performance.now() - t;
    });

    const ratio = site.seconds / plain.seconds;
    const rows: [string, string][] = [
      ['entries (MDX files)', String(COUNT * 6)],
      ['site build', `${site.seconds.toFixed(1)} s, ${sitePages} pages, ${(sitePages / site.seconds).toFixed(0)} pages/s`],
      ['plain Astro build', `${plain.seconds.toFixed(1)} s, ${plainPages} pages, ${(plainPages / plain.seconds).toFixed(0)} pages/s`],
      ['ratio site / plain', `${ratio.toFixed(2)} (target <= 1.3)`],
      ['/api/posts.json', `${kb(postsSize.raw)} raw, ${kb(postsSize.gzip)} gzip (${posts.length} records)`],
      ['/api/help.json', `${kb(helpSize.raw)} raw, ${kb(helpSize.gzip)} gzip (${help.length} records)`],
      ['search-widget.js', `${kb(widget.raw)} raw, ${kb(widget.gzip)} gzip (target < 15 KB gzip)`],
      ['search, 3,000 records', `index built in ${indexMs.toFixed(0)} ms; per query mean ${mean.toFixed(2)} ms, p95 ${percentile(times, 0.95).toFixed(2)} ms, max ${times.at(-1)!.toFixed(2)} ms (target < 5 ms)`],
      ['search, one language (posts+help)', `${langIndex.index.documentCount} records, per query max ${Math.max(...langTimes).toFixed(2)} ms`],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    console.log('\nRollcall site benchmark');
    for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
    const ok = ratio <= 1.3 && widget.gzip < 15 * 1024 && mean < 5;
    console.log(ok ? '\nall targets met' : '\nsome targets missed');
    process.exitCode = ok ? 0 : 1;
  } finally {
    if (!process.env.KEEP_BENCH) await rm(tmp, { recursive: true, force: true });
  }
}

await main();
