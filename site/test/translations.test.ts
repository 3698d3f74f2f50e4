/**
 * Spanish and Portuguese pages must not show English interface strings. Two levels:
 *  - the dictionaries: every interface string differs from the English one (except words that are the same
 *    in that language), and every help section, cluster, feature area and platform the content uses has a
 *    name in each language, the one the translated articles use;
 *  - the built pages, in Chromium without JavaScript: no text outside the articles' own content (and outside
 *    elements marked lang="en", like an English post in a Portuguese list) may contain an English interface
 *    string, an English help section or cluster name, or an English month.
 */
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

/** English strings that must not appear on a page in `lang`, as regular expressions over whole words. */
function englishNeedles(lang: Other): string[] {
  const texts = new Set<string>();
  for (const dicts of [UI_STRINGS, WIDGET_STRINGS] as const) {
    for (const [key, value] of Object.entries(dicts.en)) if ((dicts[lang] as Record<string, string>)[key] !== value) texts.add(value);
  }
  for (const names of [SECTION_NAMES, CLUSTER_NAMES]) for (const [name, t] of Object.entries(names)) if (t[lang] !== name) texts.add(name);
  for (const f of english) for (const v of [f.data.section, f.data.cluster]) texts.add(str(v));
  // Raw identifiers too ("Área: self-hosting"), except three-letter ones (api, cli): those are also tags.
  for (const [id, t] of Object.entries(FEATURE_AREA_NAMES)) if (t[lang] !== t.en) texts.add(t.en).add(id.length > 3 ? id : '');
  for (let m = 0; m < 12; m++) texts.add(new Date(Date.UTC(2025, m, 15)).toLocaleDateString('en', { month: 'long', timeZone: 'UTC' }));
  texts.delete('');
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return [...texts].map((t) => `(?<![\\p{L}\\p{N}])${escape(t).replace(/\\\{\w+\\\}/g, '.+?')}(?![\\p{L}\\p{N}])`);
}

/** Text nodes and labelling attributes in the page's own language, outside the article content. */
function leaks(page: Page, needles: string[]): Promise<string[]> {
  return page.evaluate((sources) => {
    const patterns = sources.map((s) => new RegExp(s, 'u'));
    const pageLang = document.documentElement.lang;
    const skip = (el: Element | null) =>
      !el || !!el.closest('[data-content], pre, code, script, style') || (el.closest('[lang]')?.getAttribute('lang') ?? pageLang) !== pageLang;
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
    return found;
  }, needles);
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
      const pages = htmlFiles(dir).filter((p) => p.startsWith(`${lang}/`));
      expect(pages.length).toBeGreaterThan(10);
      const found: string[] = [];
      for (const path of pages) {
        await page.goto(`${site.server.url}/${path.replace(/index\.html$/, '')}`);
        for (const leak of await leaks(page, needles)) found.push(`${path}: ${leak}`);
      }
      await context.close();
      expect(found).toEqual([]);
    });
  }
});
