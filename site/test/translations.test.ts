/**
 * Spanish and Portuguese pages must not show English interface strings. Two levels:
 *  - the dictionaries: every interface string differs from the English one (except words that are the same
 *    in that language), and every help section, cluster, feature area and platform the content uses has a
 *    name in each language, the one the translated articles use;
 *  - the built pages, in Chromium without JavaScript: no text outside the articles' own content (and outside
 *    elements marked lang="en", like an English post in a Portuguese list) may contain an English interface
 *    string, an English help section or cluster name, an English month, or the title or description of an
 *    English entry shown there as a fallback. Pictures get no lang="en" pass: an inline SVG's words must be
 *    in the page's language, and an SVG image (which nobody can translate) must have no words at all. The
 *    <title> and description of a fallback copy (which cannot carry lang) must say the text is English.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { UI_STRINGS } from '../src/i18n/ui.ts';
import { WIDGET_STRINGS } from '../src/widget/strings.ts';
import { CLUSTER_NAMES, FEATURE_AREA_NAMES, PLATFORM_NAMES, SECTION_NAMES } from '../src/i18n/help-labels.ts';
import { openSite, type Site } from './chromium.ts';
import { contentFiles, htmlFiles } from './helpers.ts';

type Other = 'es' | 'pt';
const OTHERS: Other[] = ['es', 'pt'];

/** Interface strings that are the same word in that language, on purpose. */
const SAME_BY_DESIGN: Record<Other, string[]> = {
  es: ['siteName', 'navBlog', 'post'],
  pt: ['siteName', 'navBlog', 'post', 'tags'],
};

const help = contentFiles().filter((f) => f.collection === 'help');
const english = help.filter((f) => f.lang === 'en');
const str = (v: string | string[] | undefined) => (typeof v === 'string' ? v : '');

describe('dictionaries', () => {
  it('translate every interface string', () => {
    for (const [name, dicts] of [['src/i18n/ui.ts', UI_STRINGS], ['src/widget/strings.ts', WIDGET_STRINGS]] as const) {
      for (const lang of OTHERS) {
        const english = Object.entries(dicts.en).filter(([key]) => !SAME_BY_DESIGN[lang].includes(key));
        const same = english.filter(([key, value]) => (dicts[lang] as Record<string, string>)[key] === value).map(([key]) => key);
        expect(same, `${name}: ${lang} strings still in English`).toEqual([]);
      }
    }
  });

  it('name every help section, cluster, feature area and platform of the content', () => {
    for (const f of english) {
      expect(SECTION_NAMES, `help/en/${f.slug}: section`).toHaveProperty([str(f.data.section)]);
      expect(CLUSTER_NAMES, `help/en/${f.slug}: cluster`).toHaveProperty([str(f.data.cluster)]);
    }
    for (const f of help) {
      if (f.data.feature_area) expect(FEATURE_AREA_NAMES, `help/${f.lang}/${f.slug}: feature_area`).toHaveProperty([str(f.data.feature_area)]);
      for (const p of (f.data.platforms as string[] | undefined) ?? []) expect(PLATFORM_NAMES, `help/${f.lang}/${f.slug}: platform`).toHaveProperty([p]);
    }
  });

  it('agree with the section and cluster names the translated articles write', () => {
    for (const f of help.filter((h) => h.lang !== 'en')) {
      const original = english.find((e) => e.slug === f.slug);
      if (!original) continue;
      const lang = f.lang as Other;
      expect(str(f.data.section), `help/${lang}/${f.slug}: section`).toBe(SECTION_NAMES[str(original.data.section)]?.[lang]);
      expect(str(f.data.cluster), `help/${lang}/${f.slug}: cluster`).toBe(CLUSTER_NAMES[str(original.data.cluster)]?.[lang]);
    }
  });
});

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const wholeWords = (t: string) => `(?<![\\p{L}\\p{N}])${escape(t).replace(/\\\{\w+\\\}/g, '.+?')}(?![\\p{L}\\p{N}])`;

/** Titles and descriptions of the English entries that stand in for a missing translation in `lang`. */
function fallbackTexts(lang: Other): string[] {
  const all = contentFiles().filter((f) => !f.draft);
  const translated = new Set(all.filter((f) => f.lang === lang).map((f) => `${f.collection}/${f.slug}`));
  return all
    .filter((f) => f.lang === 'en' && !translated.has(`${f.collection}/${f.slug}`))
    .flatMap((f) => [str(f.data.title), str(f.data.description)])
    .filter(Boolean);
}

/** English strings that must not appear on a page in `lang`, as regular expressions over whole words. */
function englishNeedles(lang: Other): string[] {
  const texts = new Set<string>(fallbackTexts(lang));
  for (const dicts of [UI_STRINGS, WIDGET_STRINGS] as const) {
    for (const [key, value] of Object.entries(dicts.en)) if ((dicts[lang] as Record<string, string>)[key] !== value) texts.add(value);
  }
  for (const names of [SECTION_NAMES, CLUSTER_NAMES]) for (const [name, t] of Object.entries(names)) if (t[lang] !== name) texts.add(name);
  for (const f of english) for (const v of [f.data.section, f.data.cluster]) texts.add(str(v));
  // Raw identifiers too ("Área: self-hosting"), except three-letter ones (api, cli): those are also tags.
  for (const [id, t] of Object.entries(FEATURE_AREA_NAMES)) if (t[lang] !== t.en) texts.add(t.en).add(id.length > 3 ? id : '');
  for (let m = 0; m < 12; m++) texts.add(new Date(Date.UTC(2025, m, 15)).toLocaleDateString('en', { month: 'long', timeZone: 'UTC' }));
  texts.delete('');
  return [...texts].map(wholeWords);
}

/**
 * Text nodes and labelling attributes in the page's own language, outside the article content; the words of
 * inline SVG whatever their lang; the title and description unless they carry `marker` ("Em inglês").
 */
function leaks(page: Page, needles: string[], fallbacks: string[], marker: string): Promise<string[]> {
  return page.evaluate(([sources, fallbackSources, marker]) => {
    const patterns = sources.map((s) => new RegExp(s, 'u'));
    const pageLang = document.documentElement.lang;
    const skip = (el: Element | null) =>
      !el ||
      !!el.closest('[data-content], pre, code, script, style') ||
      (!el.closest('svg') && (el.closest('[lang]')?.getAttribute('lang') ?? pageLang) !== pageLang);
    const found: string[] = [];
    const check = (text: string) => {
      const clean = text.replace(/\s+/g, ' ').trim();
      for (const p of patterns) if (clean && p.test(clean)) found.push(`"${clean}" ~ /${p.source.replace(/\(\?<?[!=][^)]*\)/g, '')}/`);
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) if (!skip(node.parentElement)) check(node.textContent ?? '');
    for (const el of document.body.querySelectorAll('[aria-label], [placeholder], [alt], [title]')) {
      if (skip(el)) continue;
      for (const attr of ['aria-label', 'placeholder', 'alt', 'title']) if (el.hasAttribute(attr)) check(el.getAttribute(attr)!);
    }
    const head = [document.title, document.querySelector('meta[name="description"]')?.getAttribute('content') ?? ''];
    for (const text of head) {
      for (const source of fallbackSources) {
        if (new RegExp(source, 'u').test(text) && !text.includes(marker)) found.push(`<head> "${text}" shows English without saying so`);
      }
    }
    for (const img of document.querySelectorAll<HTMLImageElement>('img[src$=".svg"]')) found.push(`img ${new URL(img.src).pathname}`);
    return found;
  }, [needles, fallbacks, marker] as const);
}

describe('built Spanish and Portuguese pages', () => {
  const dir = inject('siteDir');
  let site: Site;
  beforeAll(async () => {
    site = await openSite(dir);
  });
  afterAll(() => site?.close());

  for (const lang of OTHERS) {
    it(`show no English interface string (${lang})`, async () => {
      const context = await site.browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      const needles = englishNeedles(lang);
      const fallbacks = fallbackTexts(lang).map(wholeWords);
      const pages = htmlFiles(dir).filter((p) => p.startsWith(`${lang}/`));
      expect(pages.length).toBeGreaterThan(10);
      const found: string[] = [];
      for (const path of pages) {
        await page.goto(`${site.server.url}/${path.replace(/index\.html$/, '')}`);
        for (const leak of await leaks(page, needles, fallbacks, WIDGET_STRINGS[lang].inEnglish)) {
          // SVG images: their words could not be translated, so they must have none.
          const image = /^img (\/.+)$/.exec(leak)?.[1];
          if (!image) found.push(`${path}: ${leak}`);
          else if (/<text\b/.test(readFileSync(join(dir, image), 'utf8'))) found.push(`${path}: ${image} has words in a picture`);
        }
      }
      await context.close();
      expect(found).toEqual([]);
    });
  }
});
