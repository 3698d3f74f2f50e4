// The benchmark's baseline: a plain Astro + MDX site over the same content, one page per entry and nothing
// else (no index pages, feeds, sitemap, search or fallbacks). bench/run.ts compares build times.
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import { resolve } from 'node:path';
import { sharedBuildOptions } from '../../src/build-options.ts';

export default defineConfig({
  integrations: [mdx()],
  outDir: resolve(process.env.OUT_DIR ?? 'dist'),
  cacheDir: resolve(process.env.CACHE_DIR ?? 'node_modules/.astro'),
  ...sharedBuildOptions,
});
