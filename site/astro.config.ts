/**
 * Environment variables (all optional):
 *   SITE_URL     public address, used for canonical/hreflang links, RSS and the sitemap
 *   CONTENT_DIR  folder holding blog/<lang>/*.mdx and help/<lang>/*.mdx (default ../content)
 *   OUT_DIR      build output (default ./dist); tests and the benchmark build into temporary folders
 *   CACHE_DIR    Astro's cache (default node_modules/.astro); separate per concurrent build
 */
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import sitemap from '@astrojs/sitemap';
import { resolve } from 'node:path';
import rollcall from './src/integrations/rollcall.ts';
import { fallbackPaths } from './src/lib/fallback-scan.ts';
import { LANGS, DEFAULT_LANG } from './src/i18n/langs.ts';
import { sharedBuildOptions } from './src/build-options.ts';

const site = process.env.SITE_URL ?? 'http://localhost:4321';
const fallbacks = fallbackPaths();
const locales = Object.fromEntries(LANGS.map((l) => [l, l]));

export default defineConfig({
  site,
  trailingSlash: 'always',
  build: { format: 'directory' },
  ...(process.env.OUT_DIR ? { outDir: resolve(process.env.OUT_DIR) } : {}),
  ...(process.env.CACHE_DIR ? { cacheDir: resolve(process.env.CACHE_DIR) } : {}),
  ...sharedBuildOptions,
  integrations: [
    mdx(),
    sitemap({
      i18n: { defaultLocale: DEFAULT_LANG, locales },
      filter: (page) => {
        const path = new URL(page).pathname;
        // The root is a language chooser (its languages are the /<lang>/ homes); fallbacks are copies.
        return path !== '/' && !fallbacks.has(path) && !/\/(404|search)\/$/.test(path);
      },
      // The integration lists each language version; add x-default: the chooser for the homes, else English.
      serialize: (item) => {
        const en = item.links?.find((l) => l.lang === DEFAULT_LANG);
        if (en && item.links) {
          const isHome = new URL(en.url).pathname === `/${DEFAULT_LANG}/`;
          item.links = [...item.links, { url: isHome ? new URL('/', site).href : en.url, lang: 'x-default' }];
        }
        return item;
      },
    }),
    rollcall(),
  ],
});
