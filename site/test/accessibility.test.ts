/**
 * axe-core (Deque's accessibility engine, the one Lighthouse runs) over the built site in Chromium: the
 * language chooser, the home page, the blog and a post, the help center and an article (sidebar, table of
 * contents, copy buttons), the search page (with results, and with none), the 404 and a fallback copy, in
 * every language, at a desktop and a phone width. Every WCAG 2.x A/AA rule and axe's best practices in the light scheme; the contrast rule
 * again in the dark one (the site follows the system's scheme). No violation is allowed.
 */
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openSite, type Site } from './chromium.ts';
import { LANGS } from './helpers.ts';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let site: Site;
beforeAll(async () => {
  site = await openSite(inject('siteDir'));
});
afterAll(() => site?.close());

interface AxeViolation { id: string; impact: string; help: string; nodes: { target: string[] }[] }

async function violations(page: Page, rules?: string[]): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async (runOnly) => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'], ...(runOnly ? { runOnly } : {}) });
    return result.violations;
  }, rules);
  return found.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const PAGES = [
  '/',
  '/pt/blog/backups-and-postgres/',
  ...LANGS.flatMap((lang) => [
    `/${lang}/`,
    `/${lang}/blog/`,
    `/${lang}/help/`,
    `/${lang}/blog/webhooks-for-agents/`,
    `/${lang}/help/agent-webhooks/`,
    `/${lang}/search/?q=webhook`,
    `/${lang}/search/?q=zzzz`,
    `/${lang}/no-such-page/`,
  ]),
];

describe('accessibility (axe-core)', () => {
  for (const [scheme, rules] of [['light', undefined], ['dark', ['color-contrast']]] as const) {
    it(`finds no violation in the ${scheme} scheme${rules ? ` (${rules.join(', ')})` : ''}`, { timeout: 300_000 }, async () => {
      const found: string[] = [];
      for (const width of [1280, 390]) {
        // A French browser: / stays the chooser instead of going to a language (src/pages/index.astro).
        const context = await site.browser.newContext({ colorScheme: scheme, viewport: { width, height: 800 }, locale: 'fr-FR' });
        const page = await context.newPage();
        // At phone width the English pages suffice: the layout is the same in every language.
        for (const path of width === 1280 ? PAGES : PAGES.filter((p) => p === '/' || p.startsWith('/en/'))) {
          await page.goto(`${site.server.url}${path}`);
          // The search page fills its results in after loading the indexes.
          if (path.includes('?q=')) await page.locator('[data-search-results]:not([hidden])').waitFor();
          for (const v of await violations(page, rules && [...rules])) found.push(`${width} px ${path}: ${v}`);
        }
        await context.close();
      }
      expect(found).toEqual([]);
    });
  }

  it('finds no violation in the open search dialog and the open language menu', async () => {
    const page = await site.browser.newPage({ viewport: { width: 1024, height: 800 } });
    const found: string[] = [];
    for (const [lang, query] of [['en', 'webhok'], ['pt', 'backp'], ['es', 'zzzz']]) {
      await page.goto(`${site.server.url}/${lang}/`);
      await page.locator('.lang-menu summary').click();
      for (const v of await violations(page)) found.push(`${lang} language menu: ${v}`);
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+k');
      await page.keyboard.type(query!);
      await page.locator('.rc-listbox:not([hidden]), .rc-empty:not([hidden])').first().waitFor();
      await page.keyboard.press('ArrowDown');
      for (const v of await violations(page)) found.push(`${lang} “${query}”: ${v}`);
    }
    await page.close();
    expect(found).toEqual([]);
  });
});
