/** The built pages and hosting files: i18n wiring, fallbacks, feeds, sitemap, headers, widget size. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, inject, it } from 'vitest';
import { headersFor, parseHeaders } from '../server/serve.ts';
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

  it('link only to pages that exist (or to the API server beside them)', () => {
    const api = new Set(['/docs', '/v1/openapi.json']);
    const broken: string[] = [];
    for (const page of htmlFiles(dir)) {
      for (const [, href] of readText(dir, page).matchAll(/\shref="(\/[^"#?]*)/g)) {
        if (api.has(href!)) continue;
        const file = join(dir, href!.endsWith('/') ? `${href}index.html` : href!);
        if (!existsSync(file)) broken.push(`${page} -> ${href}`);
      }
    }
    expect(broken).toEqual([]);
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
      expect(html).toContain(`<figure class="picture"><svg viewBox="0 0 640 300" role="img" aria-label="${ui.figAlt}"`);
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

describe('page weight', () => {
  // Every page links the one stylesheet; counted whole, as a first visit loads it.
  const css = readdirSync(join(dir, '_astro')).filter((f) => f.endsWith('.css'));
  const cssBytes = css.reduce((n, f) => n + gzipSync(readFileSync(join(dir, '_astro', f))).length, 0);
  const widgetBytes = gzipSync(readFileSync(join(dir, 'search-widget.js'))).length;

  it('runs no framework: the only script is the search widget', () => {
    for (const page of htmlFiles(dir)) {
      const scripts = [...readText(dir, page).matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      expect(scripts, page).toEqual(['<script src="/search-widget.js" defer>']);
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
