/** The built pages and hosting files: i18n wiring, fallbacks, feeds, sitemap, headers, widget size. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, inject, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { headersFor, parseHeaders, startServer } from '../server/serve.ts';
import { UI_STRINGS } from '../src/i18n/ui.ts';
import { WIDGET_STRINGS } from '../src/widget/strings.ts';
import { contentFiles, htmlFiles, LANGS, readText } from './helpers.ts';

const dir = inject('siteDir');
const files = contentFiles();
const published = files.filter((f) => !f.draft);
const has = (collection: string, lang: string, slug: string) =>
  published.some((f) => f.collection === collection && f.lang === lang && f.slug === slug);

describe('pages', () => {
  it('exist for every language: home, blog, help, search, 404, RSS', () => {
    expect(existsSync(join(dir, 'index.html'))).toBe(true);
    for (const lang of LANGS) {
      for (const page of ['index.html', 'blog/index.html', 'help/index.html', 'search/index.html', '404.html', 'rss.xml']) {
        expect(existsSync(join(dir, lang, page)), `${lang}/${page}`).toBe(true);
      }
    }
  });

  it('exist for every published entry, plus an English fallback where a translation is missing', () => {
    for (const f of published) expect(existsSync(join(dir, f.lang, f.collection, f.slug, 'index.html')), `${f.lang}/${f.slug}`).toBe(true);
    for (const f of published.filter((p) => p.lang === 'en')) {
      for (const lang of LANGS) {
        const html = readText(dir, `${lang}/${f.collection}/${f.slug}/index.html`);
        expect(html.includes('data-fallback-notice'), `${lang}/${f.collection}/${f.slug}`).toBe(!has(f.collection, lang, f.slug));
      }
    }
    for (const f of files.filter((p) => p.draft && !has(p.collection, 'en', p.slug))) {
      expect(existsSync(join(dir, f.lang, f.collection, f.slug)), `draft ${f.lang}/${f.slug} must not be built`).toBe(false);
    }
  });

  it('carry canonical, hreflang alternates and x-default on translated pages', () => {
    const html = readText(dir, 'es/help/api-keys/index.html');
    expect(html).toMatch(/<html lang="es">/);
    expect(html).toMatch(/<link rel="canonical" href="[^"]*\/es\/help\/api-keys\/">/);
    for (const l of LANGS) expect(html).toMatch(new RegExp(`hreflang="${l}" href="[^"]*/${l}/help/api-keys/"`));
    expect(html).toMatch(/hreflang="x-default" href="[^"]*\/en\/help\/api-keys\/"/);
    // The language switcher keeps the page.
    for (const l of LANGS) expect(html).toContain(`href="/${l}/help/api-keys/"`);
  });

  it('mark fallback pages: visible notice, canonical to English, noindex', () => {
    const missing = published.find((f) => f.lang === 'en' && !has(f.collection, 'pt', f.slug))!;
    expect(missing, 'one English entry should lack a Portuguese translation').toBeTruthy();
    const html = readText(dir, `pt/${missing.collection}/${missing.slug}/index.html`);
    expect(html).toContain('data-fallback-notice');
    expect(html).toContain('ainda não foi traduzida');
    expect(html).toMatch(new RegExp(`<link rel="canonical" href="[^"]*/en/${missing.collection}/${missing.slug}/">`));
    expect(html).toContain('noindex');
  });

  it('show the reading time and group help by section and cluster', () => {
    expect(readText(dir, 'en/blog/introducing-rollcall/index.html')).toMatch(/\d+ min read/);
    const helpIndex = readText(dir, 'en/help/index.html');
    expect(helpIndex).toMatch(/<h2[^>]*>Getting started<\/h2>[\s\S]*<h3>Installation<\/h3>/);
  });

  it('have tag pages per language', () => {
    expect(existsSync(join(dir, 'en/blog/tags/agents/index.html'))).toBe(true);
    expect(existsSync(join(dir, 'es/blog/tags/agentes/index.html'))).toBe(true);
    expect(existsSync(join(dir, 'pt/blog/tags/saude/index.html'))).toBe(true);
  });

  it('mark an English post in a Spanish or Portuguese list, in that language', () => {
    const englishOnly = published.filter((f) => f.collection === 'blog' && f.lang === 'en' && !has('blog', 'pt', f.slug));
    expect(englishOnly.length, 'the content should keep a post without a Portuguese translation').toBeGreaterThan(0);
    for (const lang of ['es', 'pt'] as const) {
      const html = readText(dir, `${lang}/blog/index.html`);
      const marked = [...html.matchAll(/<a href="\/\w+\/blog\/([^/]+)\/" hreflang="en"><span lang="en">[^<]+<\/span><\/a> <span class="badge" data-in-english>([^<]+)<\/span>/g)];
      const expected = published.filter((f) => f.collection === 'blog' && f.lang === 'en' && !has('blog', lang, f.slug)).map((f) => f.slug);
      expect(marked.map((m) => m[1]).sort(), lang).toEqual(expected.sort());
      for (const m of marked) expect(m[2]).toBe(WIDGET_STRINGS[lang].inEnglish);
    }
    expect(readText(dir, 'en/blog/index.html')).not.toContain('data-in-english');
  });

  it('link only to addresses that answer in the preview (API server pages go to the API)', async () => {
    // The preview (npm run preview -w site) serves the build alone; /docs and /v1/… are the API server's.
    // A stand-in API answers those, so a link to them is good when the preview sends it there.
    const api = createServer((req, res) => res.writeHead(['/docs', '/v1/openapi.json'].includes(req.url!) ? 200 : 404).end());
    await new Promise<void>((done) => api.listen(0, '127.0.0.1', done));
    const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    const preview = await startServer({ dir, port: 0, api: apiUrl });
    try {
      const links = new Map<string, string>();
      for (const page of htmlFiles(dir)) {
        for (const [, href] of readText(dir, page).matchAll(/\s(?:href|src)="(\/[^"#?]*)/g)) if (!links.has(href!)) links.set(href!, page);
      }
      expect(links.has('/docs') && links.has('/v1/openapi.json')).toBe(true);
      const broken: string[] = [];
      for (const [href, page] of links) {
        const response = await fetch(`${preview.url}${href}`, { redirect: 'manual' });
        const location = response.headers.get('location');
        const ok = response.status === 200 || (response.status === 307 && location === `${apiUrl}${href}`);
        if (!ok) broken.push(`${page} -> ${href}: ${response.status} ${location ?? ''}`);
        await response.body?.cancel();
      }
      expect(broken).toEqual([]);

      // With no API at that address, a preview link says how to start one instead of a bare error.
      api.close();
      const down = await fetch(`${preview.url}/docs`, { redirect: 'manual' });
      expect(down.status).toBe(503);
      const text = await down.text();
      expect(text).toContain('npm start');
      expect(text).toContain('API_URL');
    } finally {
      api.close();
      await preview.close();
    }
  });

  it('all include the search form, which works without JavaScript', () => {
    for (const page of htmlFiles(dir)) {
      const html = readText(dir, page);
      expect(html, page).toMatch(/<form[^>]*role="search"[^>]*action="\/(en|es|pt)\/search\/"[^>]*method="get"/);
      expect(html, page).toContain('src="/search-widget.js"');
    }
  });
});

describe('home page', () => {
  for (const lang of LANGS) {
    const html = readText(dir, `${lang}/index.html`);
    const ui = UI_STRINGS[lang];

    it(`says what Rollcall is and shows it (${lang})`, () => {
      expect(html).toContain(`<h1 id="hero-title">${ui.homeTitle}</h1>`);
      expect(html).toMatch(/<a class="brand" href="\/\w+\/"><svg class="logo"[^>]*aria-hidden="true"/);
      expect(html).toContain(`<figure class="picture"><svg viewBox="0 0 360 392" role="img" aria-label="${ui.figAlt}"`);
      expect(html).toContain(`<figcaption>${ui.figureCaption}</figcaption>`);
    });

    it(`gives the two commands and links to the guide, the API reference and the OpenAPI document (${lang})`, () => {
      expect(html).toContain('<pre><code>npm install\nnpm start</code></pre>');
      expect(html).toContain(`<a class="button primary" href="/${lang}/help/install-and-first-start/">${ui.getStarted}</a>`);
      expect(html).toContain(`<a class="button" href="/docs">${ui.apiReference}</a>`);
      expect(html).toContain(`<a href="/v1/openapi.json">${ui.openApi}</a>`);
    });

    it(`links each help section to its place in the help center (${lang})`, () => {
      const help = readText(dir, `${lang}/help/index.html`);
      const links = [...html.matchAll(new RegExp(`<a href="/${lang}/help/#([a-z0-9-]+)">([^<]+)</a>`, 'g'))];
      expect(links.length).toBeGreaterThanOrEqual(4);
      for (const [, id, name] of links) expect(help, `#${id}`).toContain(`<h2 id="${id}">${name}</h2>`);
    });
  }

  it('the logo is an SVG file too', () => {
    expect(readText(dir, 'logo.svg')).toMatch(/^<svg [^>]*role="img" aria-label="Rollcall"/);
  });
});

describe('help articles and posts', () => {
  it('a help article shows the sidebar of its section (current article marked) and its table of contents', () => {
    const html = readText(dir, 'es/help/agent-webhooks/index.html');
    const sidebar = /<nav class="docs-sidebar"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
    expect(sidebar).toContain('>Agentes</h2>');
    expect(sidebar).toContain('<a href="/es/help/agent-webhooks/" aria-current="page"><span>Webhooks de agentes</span></a>');
    expect(sidebar).toContain('href="/es/help/agent-health-checks/"');
    expect(sidebar).not.toContain('href="/es/help/api-keys/"'); // another section
    const toc = /<nav class="toc toc-aside" aria-label="En esta página">([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
    for (const [, slug] of toc.matchAll(/href="#([^"]+)"/g)) expect(html, slug).toContain(`id="${slug}"`);
    expect(toc.match(/href="#/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it('a post has its picture, author and date; every picture exists and carries no words', () => {
    const html = readText(dir, 'pt/blog/webhooks-for-agents/index.html');
    expect(html).toMatch(/<img class="post-hero" src="\/blog\/webhooks-for-agents\.svg" alt=""/);
    expect(html).toMatch(/<span class="author">Daniel Okafor<\/span>/);
    expect(html).toContain('<time datetime="2025-05-20T09:15:00.000Z">20 de maio de 2025</time>');
    for (const f of published.filter((p) => p.collection === 'blog')) {
      const image = f.data.heroImage as string;
      expect(image, `${f.lang}/${f.slug}`).toMatch(/^\/blog\/[a-z0-9-]+\.svg$/);
      expect(f.data.author, `${f.lang}/${f.slug}`).toBeTruthy();
      // Words in a picture could not be translated: pictures with words are inline SVG (StandupPicture).
      expect(readText(dir, image.slice(1)), image).not.toMatch(/<text\b/);
    }
  });

  it('the root page sends a reader to their language, and is a chooser without JavaScript', () => {
    const html = readText(dir, 'index.html');
    expect(html).toContain('navigator.languages');
    expect(html).toContain('location.replace(');
    for (const l of LANGS) expect(html).toContain(`<a href="/${l}/" hreflang="${l}" lang="${l}" data-lang-switch="${l}">`);
  });
});

describe('page weight', () => {
  // Every page links the one stylesheet; counted whole, as a first visit loads it.
  const css = readdirSync(join(dir, '_astro')).filter((f) => f.endsWith('.css'));
  const cssBytes = css.reduce((n, f) => n + gzipSync(readFileSync(join(dir, '_astro', f))).length, 0);
  const widgetBytes = gzipSync(readFileSync(join(dir, 'search-widget.js'))).length;

  it('runs no framework: the search widget and the small page script (plus the redirect at /) are all', () => {
    for (const page of htmlFiles(dir)) {
      const html = readText(dir, page);
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      const expected = page === 'index.html' ? ['<script>', '<script src="/search-widget.js" defer>', '<script>'] : ['<script src="/search-widget.js" defer>', '<script type="module">'];
      expect(scripts, page).toEqual(expected);
      // src/scripts/site.ts, inlined by Astro: the search dialog, menus, copy buttons, table of contents.
      const inline = [...html.matchAll(/<script\b[^>]*>([^<]*)<\/script>/g)].reduce((n, m) => n + m[1]!.length, 0);
      expect(inline, page).toBeLessThan(4096);
    }
    expect(readdirSync(join(dir, '_astro')).filter((f) => f.endsWith('.js'))).toEqual([]);
  });

  it('keeps every page under 25 KB gzipped, HTML, CSS and script together', () => {
    for (const page of htmlFiles(dir)) {
      const total = gzipSync(readFileSync(join(dir, page))).length + cssBytes + widgetBytes;
      expect(total, page).toBeLessThan(25 * 1024);
    }
  });
});

describe('feeds and sitemap', () => {
  it('RSS per language lists that language’s posts only', () => {
    for (const lang of LANGS) {
      const xml = readText(dir, `${lang}/rss.xml`);
      const count = published.filter((f) => f.collection === 'blog' && f.lang === lang).length;
      expect(xml.match(/<item>/g)?.length, lang).toBe(count);
      expect(xml).toContain(`/${lang}/blog/`);
    }
  });

  it('sitemap has hreflang alternates with x-default and no fallback copies', () => {
    const xml = readText(dir, 'sitemap-0.xml');
    expect(xml).toMatch(/<xhtml:link rel="alternate" hreflang="es" href="[^"]*\/es\/help\/api-keys\/"\/>/);
    expect(xml).toContain('hreflang="x-default"');
    const fallbackPages = htmlFiles(dir).filter((p) => readText(dir, p).includes('data-fallback-notice'));
    for (const page of fallbackPages) expect(xml).not.toContain(`/${page.replace(/index\.html$/, '')}<`);
  });
});

describe('hosting files', () => {
  it('_headers gives both indexes Cache-Control: public, max-age=3600', () => {
    const rules = parseHeaders(readFileSync(join(dir, '_headers'), 'utf8'));
    for (const path of ['/api/posts.json', '/api/help.json']) {
      expect(headersFor(rules, path)['cache-control']).toBe('public, max-age=3600');
      expect(headersFor(rules, path)['access-control-allow-origin']).toBe('*');
    }
  });

  it('_redirects sends unknown addresses to the 404 of their language', () => {
    const text = readText(dir, '_redirects');
    for (const lang of LANGS) expect(text).toContain(`/${lang}/*  /${lang}/404.html  404`);
  });

  it('search-widget.js is under 15 KB gzipped', () => {
    const code = readFileSync(join(dir, 'search-widget.js'));
    expect(gzipSync(code).length).toBeLessThan(15 * 1024);
  });
});
