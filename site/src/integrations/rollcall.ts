/**
 * Build steps that are not pages:
 *  - bundles src/widget/search-widget.ts into /search-widget.js, and each language's stemmer into
 *    /search-stemmer-<lang>.js (esbuild; served on the fly in `astro dev`)
 *  - in `astro dev`, sends the API server's pages the site links to (/docs, /v1/…) to API_URL or
 *    localhost:8080, like the preview server does (server/serve.ts apiRedirect)
 *  - writes _headers (Netlify / Cloudflare Pages form): Cache-Control for the two indexes, CORS so the
 *    embeddable widget can read them from other sites
 *  - writes _redirects so Netlify serves /<lang>/404.html for unknown addresses under /<lang>/
 *  - copies /<lang>/404/index.html to /<lang>/404.html, the name hosts look for
 * server/serve.ts reads the same _headers, so the preview server and the tests see what a host sends.
 */
import type { AstroIntegration } from 'astro';
import { build } from 'esbuild';
import { copyFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LANGS } from '../i18n/langs.ts';
import { STEMMER_MODULES } from '../widget/stemmers.ts';
import { API_PATH, DEFAULT_API, apiRedirect } from '../../server/serve.ts';

export const WIDGET_ENTRY = fileURLToPath(new URL('../widget/search-widget.ts', import.meta.url));
export const INDEX_CACHE_CONTROL = 'public, max-age=3600';

/**
 * /search-stemmer-<lang>.js: the language's Snowball stemmer as an ES module, which the widget imports with the
 * indexes (a classic script may import a module; from another origin, with the CORS header _headers gives it).
 */
export async function bundleStemmer(lang: keyof typeof STEMMER_MODULES, outfile?: string): Promise<string> {
  const result = await build({
    stdin: { contents: `export { stemmer } from '${STEMMER_MODULES[lang]}';`, resolveDir: fileURLToPath(new URL('.', import.meta.url)) },
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2020',
    legalComments: 'none',
    write: false,
  });
  const code = result.outputFiles[0]!.text;
  if (outfile) await writeFile(outfile, code);
  return code;
}

/** Bundle the widget; also used by the benchmark to report the bundle size. */
export async function bundleWidget(outfile?: string): Promise<string> {
  const result = await build({
    entryPoints: [WIDGET_ENTRY],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    legalComments: 'none',
    write: false,
    ...(outfile ? { outfile } : { outdir: '.' }),
  });
  const code = result.outputFiles[0]!.text;
  if (outfile) await writeFile(outfile, code);
  return code;
}

/** _headers in the Netlify / Cloudflare Pages format: a path line, then indented "Name: value" lines. */
export function headersFile(): string {
  const index = ['Cache-Control: public, max-age=3600', 'Access-Control-Allow-Origin: *', 'X-Content-Type-Options: nosniff'];
  const rules: [string, string[]][] = [
    ['/api/posts.json', index],
    ['/api/help.json', index],
    ['/api/openapi.json', index],
    ['/search-widget.js', ['Cache-Control: public, max-age=3600', 'Access-Control-Allow-Origin: *']],
    ['/search-stemmer-*', ['Cache-Control: public, max-age=3600', 'Access-Control-Allow-Origin: *']],
    // Hashed file names: safe to cache for a year.
    ['/_astro/*', ['Cache-Control: public, max-age=31536000, immutable']],
  ];
  return rules.map(([path, lines]) => [path, ...lines.map((l) => `  ${l}`)].join('\n')).join('\n') + '\n';
}

export function redirectsFile(): string {
  return LANGS.map((lang) => `/${lang}/*  /${lang}/404.html  404`).join('\n') + '\n';
}

export default function rollcall(): AstroIntegration {
  return {
    name: 'rollcall',
    hooks: {
      'astro:server:setup': ({ server }) => {
        const toApi = apiRedirect(process.env.API_URL || DEFAULT_API);
        server.middlewares.use((req, res, next) => {
          if (API_PATH.test(new URL(req.url ?? '/', 'http://x').pathname)) void toApi(req, res);
          else next();
        });
        server.middlewares.use((req, res, next) => {
          const lang = /^\/search-stemmer-(\w+)\.js$/.exec(new URL(req.url ?? '/', 'http://x').pathname)?.[1];
          if (!lang || !Object.hasOwn(STEMMER_MODULES, lang)) return next();
          bundleStemmer(lang as keyof typeof STEMMER_MODULES).then((code) => {
            res.setHeader('Content-Type', 'text/javascript');
            res.end(code);
          }, next);
        });
        server.middlewares.use('/search-widget.js', (_req, res) => {
          bundleWidget().then(
            (code) => {
              res.setHeader('Content-Type', 'text/javascript');
              res.end(code);
            },
            (error: Error) => {
              res.statusCode = 500;
              res.end(`/* ${error.message} */`);
            },
          );
        });
      },
      'astro:build:done': async ({ dir, logger }) => {
        const out = fileURLToPath(dir);
        await bundleWidget(`${out}/search-widget.js`);
        for (const lang of LANGS) await bundleStemmer(lang, `${out}/search-stemmer-${lang}.js`);
        await writeFile(`${out}/_headers`, headersFile());
        await writeFile(`${out}/_redirects`, redirectsFile());
        for (const lang of LANGS) {
          const page = `${out}/${lang}/404/index.html`;
          if (existsSync(page)) await copyFile(page, `${out}/${lang}/404.html`);
        }
        logger.info('wrote search-widget.js, search-stemmer-{en,es,pt}.js, _headers, _redirects');
      },
    },
  };
}
