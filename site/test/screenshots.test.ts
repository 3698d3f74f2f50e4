/**
 * Screenshots of the main pages at a desktop (1280 px) and a phone (390 px) width, in the three languages,
 * for people to look at (the issue notes and reviews link them; the committed ones are in
 * test/screenshots/). They go to test-output/screenshots/, or to SCREENSHOTS_DIR. The test also checks what
 * a screenshot would show badly: no page is wider than the window (no sideways scrolling), down to a 320 px
 * phone, where only that is checked. The root page is taken in a French browser, so it stays the chooser.
 */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openSite, type Site } from './chromium.ts';

const OUT = process.env.SCREENSHOTS_DIR ?? fileURLToPath(new URL('../test-output/screenshots/', import.meta.url));

const SHOTS: [name: string, path: string][] = [
  ['root', '/'],
  ['home-en', '/en/'],
  ['help-es', '/es/help/'],
  ['help-article-es', '/es/help/agent-webhooks/'],
  ['blog-pt', '/pt/blog/'],
  ['post-pt', '/pt/blog/webhooks-for-agents/'],
  ['search-en', '/en/'],
  ['home-pt', '/pt/'],
  ['search-page-pt', '/pt/search/?q=chave'],
];
const WIDTHS = [[1280, 900], [390, 844], [320, 640]] as const;

let site: Site;
beforeAll(async () => {
  site = await openSite(inject('siteDir'));
  await mkdir(OUT, { recursive: true });
});
afterAll(() => site?.close());

describe('screenshots', () => {
  for (const [width, height] of WIDTHS) {
    it(`at ${width} px`, async () => {
      const context = await site.browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, locale: 'fr-FR' });
      const page = await context.newPage();
      const wide: string[] = [];
      for (const [name, path] of SHOTS) {
        await page.goto(`${site.server.url}${path}`);
        if (name === 'search-en') {
          const opener = page.locator('[data-search-open]').first();
          if (await opener.count()) await opener.click();
          await page.getByRole('combobox').first().focus();
          await page.keyboard.type('webhok');
          await page.locator('.rc-listbox:not([hidden])').first().waitFor();
        }
        await page.evaluate(() => document.fonts.ready);
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        if (scrollWidth > width) wide.push(`${path}: ${scrollWidth} px`);
        if (width !== 320) await page.screenshot({ path: `${OUT}/${name}-${width}.png` });
      }
      await context.close();
      expect(wide).toEqual([]);
    });
  }
});
