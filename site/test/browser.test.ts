/** The built site in real Chromium (test/chromium.ts): i18n navigation, 404s, and the search box. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startServer, type RunningServer } from '../server/serve.ts';
import { openSite, type Site } from './chromium.ts';

const OUTPUT = fileURLToPath(new URL('../test-output/', import.meta.url));

let site: Site;
let server: RunningServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  site = await openSite(inject('siteDir'));
  ({ server, browser } = site);
  page = await browser.newPage({ viewport: { width: 1024, height: 800 } });
});

afterAll(async () => {
  await site?.close();
});

describe('site in Chromium', () => {
  it('serves both indexes with Cache-Control: public, max-age=3600', async () => {
    for (const path of ['/api/posts.json', '/api/help.json']) {
      const response = await page.goto(`${server.url}${path}`);
      expect(response?.status(), path).toBe(200);
      expect(response?.headers()['cache-control'], path).toBe('public, max-age=3600');
      expect(Array.isArray(await response?.json())).toBe(true);
    }
  });

  it('switches language and keeps the page', async () => {
    await page.goto(`${server.url}/en/help/api-keys/`);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    // The language menu is a disclosure in the header: open it, then pick.
    await page.locator('.lang-menu summary').click();
    await page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: 'Español' }).click();
    await page.waitForURL('**/es/help/api-keys/');
    expect(await page.getAttribute('html', 'lang')).toBe('es');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Claves de API');
  });

  it('shows the notice on a fallback page', async () => {
    await page.goto(`${server.url}/pt/blog/backups-and-postgres/`);
    const notice = page.locator('[data-fallback-notice]');
    expect(await notice.isVisible()).toBe(true);
    expect(await notice.textContent()).toContain('ainda não foi traduzida');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('From one SQLite file to PostgreSQL');
  });

  it('serves the 404 page of the language', async () => {
    const response = await page.goto(`${server.url}/es/no-existe/`);
    expect(response?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Página no encontrada');
  });

  it('finds by keyboard despite a typo and missing accents', async () => {
    await page.goto(`${server.url}/es/`);
    const opener = page.locator('[data-search-open]');
    // Reach the header's search button with the keyboard only: skip link, brand, section links, then it.
    await page.keyboard.press('Tab');
    for (let i = 0; i < 10 && !(await opener.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await opener.getAttribute('aria-haspopup')).toBe('dialog');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Buscar en el blog y el centro de ayuda' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    const box = dialog.getByRole('combobox');
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await box.getAttribute('aria-expanded')).toBe('false');

    // A typo: "webhoks" for "webhooks".
    await page.keyboard.type('webhoks');
    await expect.poll(() => box.getAttribute('aria-expanded')).toBe('true');
    const listbox = page.locator(`#${await box.getAttribute('aria-controls')}`);
    expect(await listbox.getAttribute('role')).toBe('listbox');
    expect(await page.getByRole('option').first().textContent()).toContain('Webhooks de agentes');
    expect(await dialog.locator('[role="status"]').textContent()).toMatch(/^\d+ resultados?$/);

    // Escape closes the dialog; Ctrl-K opens it again, with the query still there.
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await page.keyboard.press('Control+k');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await box.inputValue()).toBe('webhoks');
    await box.fill('');

    // No accent: "configuracion" for "configuración".
    await page.keyboard.type('variables configuracion');
    await expect.poll(() => page.getByRole('option').first().textContent()).toContain('Variables de configuración');
    await page.keyboard.press('ArrowDown');
    const active = await box.getAttribute('aria-activedescendant');
    expect(active).toBeTruthy();
    expect(await page.locator(`#${active}`).getAttribute('aria-selected')).toBe('true');

    await mkdir(OUTPUT, { recursive: true });
    await page.screenshot({ path: `${OUTPUT}search-es.png`, fullPage: false });

    await page.keyboard.press('Enter');
    await page.waitForURL('**/es/help/configuration/');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Variables de configuración');
  });

  it('closes the search dialog with its button and by a click outside it; "/" opens it too', async () => {
    await page.goto(`${server.url}/en/help/`);
    const dialog = page.getByRole('dialog');
    await page.keyboard.press('/');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await page.keyboard.press('Control+k');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await page.mouse.click(10, 700);
    await expect.poll(() => dialog.isVisible()).toBe(false);
  });

  it('finds typed typos: a letter left out of a plural, a word cut short with a typo', async () => {
    await page.goto(`${server.url}/en/`);
    await page.keyboard.press('Control+k');
    const box = page.getByRole('combobox');
    await page.keyboard.type('webhok');
    await expect.poll(() => page.getByRole('option').first().textContent()).toContain('webhooks');
    await box.fill('');
    await page.keyboard.type('backp');
    await expect.poll(() => page.getByRole('option').first().textContent()).toContain('Database and backups');
  });

  it('offers an English article not translated yet, marked as English in the dialog and on the search page', async () => {
    const title = 'From one SQLite file to PostgreSQL';
    const description = 'Rollcall starts on SQLite and moves to PostgreSQL with one variable; here is when and how.';
    /** Each piece of text of a result with the language it is marked in (its nearest lang attribute). */
    const languages = (result: Locator) =>
      result.evaluate((element) => {
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        const pieces: Record<string, string> = {};
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent!.replace(/^[\s·]+|[\s·]+$/g, '');
          if (text) pieces[text] = node.parentElement!.closest('[lang]')!.getAttribute('lang')!;
        }
        return pieces;
      });
    // The English words are marked English, the badge and the rest are the page's (pt); the badge is seen.
    const marked = { [title]: 'en', 'Em inglês': 'pt', Blog: 'pt', [description]: 'en' };

    await page.goto(`${server.url}/pt/`);
    await page.locator('[data-search-open]').click();
    await page.keyboard.type('sqlite');
    const option = page.getByRole('option').first();
    await expect.poll(() => option.textContent()).toContain(title);
    expect(await option.getAttribute('data-href')).toBe('/pt/blog/backups-and-postgres/');
    expect(await languages(option)).toEqual(marked);
    expect(await option.locator('[data-in-english]').isVisible()).toBe(true);

    await page.goto(`${server.url}/pt/search/?q=sqlite`);
    const result = page.locator('[data-search-results] li').first();
    await expect.poll(() => result.textContent()).toContain(title);
    expect(await languages(result)).toEqual(marked);
    expect(await result.locator('[data-in-english]').isVisible()).toBe(true);
    // As in the site's lists: the link says where it leads is in English.
    expect(await result.getByRole('link').getAttribute('hreflang')).toBe('en');

    // A translated result carries no mark.
    await page.goto(`${server.url}/pt/search/?q=chave`);
    const translated = page.locator('[data-search-results] li').first();
    await expect.poll(() => translated.textContent()).toContain('Chave');
    expect(await translated.locator('[lang], [data-in-english], [hreflang]').count()).toBe(0);
  });

  it('still searches when the language\'s stemmer cannot be loaded, matching words as written', async () => {
    const context = await browser.newContext();
    await context.route('**/search-stemmer-*.js', (route) => route.abort());
    const plain = await context.newPage();
    await plain.goto(`${server.url}/es/`);
    await plain.keyboard.press('Control+k');
    await plain.keyboard.type('webhoks');
    await expect.poll(() => plain.getByRole('option').first().textContent()).toContain('Webhooks de agentes');
    await context.close();
  });

  it('says when nothing matches and offers the help center, reachable by keyboard', async () => {
    await page.goto(`${server.url}/en/`);
    await page.keyboard.press('Control+k');
    const box = page.getByRole('combobox');
    await page.keyboard.type('zebra');
    const message = page.locator('.rc-empty');
    await expect.poll(() => message.isVisible()).toBe(true);
    expect(await message.locator('p').first().textContent()).toBe('No results for “zebra”.');
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator('[role="status"]').textContent()).toBe('No results');
    // Tab reaches the link; the message stays open on the way.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Browse the help center');
    expect(await message.isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/en/help/');
  });

  it('lists the results of ?q= in the search page, in place of the JavaScript notice', async () => {
    // Enter in the dialog without choosing a result submits the query to the search page.
    await page.goto(`${server.url}/pt/`);
    await page.keyboard.press('Control+k');
    await page.keyboard.type('chave');
    await expect.poll(() => page.getByRole('combobox').getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/pt/search/?q=chave');
    const results = page.locator('[data-search-results]');
    await expect.poll(() => results.isVisible()).toBe(true);
    expect(await results.getByRole('heading', { level: 2 }).textContent()).toBe('Resultados para “chave”');
    expect(await results.getByRole('link', { name: 'Chaves de API' }).count()).toBe(1);
    // Every no-JavaScript part goes: the notice and the list of every article.
    for (const part of await page.locator('[data-search-nojs]').all()) expect(await part.isVisible()).toBe(false);
    expect(await page.getByRole('heading', { name: 'Todos os artigos' }).count()).toBe(0);
    expect(await page.getByRole('main').getByRole('combobox').inputValue()).toBe('chave');

    await page.goto(`${server.url}/es/search/?q=zzzz`);
    await expect.poll(() => results.isVisible()).toBe(true);
    expect(await results.textContent()).toContain('No hay resultados para «zzzz».');
    expect(await results.getByRole('link', { name: 'Ver el centro de ayuda' }).getAttribute('href')).toBe('/es/help/');
  });

  it('without JavaScript, says plainly that search needs it and links the help center and the blog', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const plain = await context.newPage();
    await plain.goto(`${server.url}/en/search/?q=webhook`);
    const notice = plain.locator('.notice[data-search-nojs]');
    expect(await notice.isVisible()).toBe(true);
    expect(await notice.textContent()).toContain('Search needs JavaScript');
    expect(await notice.getByRole('link', { name: 'Help center' }).getAttribute('href')).toBe('/en/help/');
    expect(await notice.getByRole('link', { name: 'Blog' }).getAttribute('href')).toBe('/en/blog/');

    // The header's search button is a link to that page; its form lands there again, and every article of
    // the language is listed to find in the page.
    await plain.goto(`${server.url}/es/`);
    await plain.getByRole('link', { name: 'Buscar…' }).click();
    await plain.waitForURL('**/es/search/');
    await plain.getByRole('searchbox').fill('claves');
    await plain.getByRole('button', { name: 'Buscar' }).click();
    await plain.waitForURL('**/es/search/?q=claves');
    expect(await plain.getByRole('link', { name: 'Claves de API' }).count()).toBeGreaterThan(0);
    await context.close();
  });

  it('copies a code block with its button', async () => {
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const own = await context.newPage();
    await own.goto(`${server.url}/pt/help/agent-webhooks/`);
    const block = own.locator('main .code-block').first();
    const code = (await block.locator('pre').textContent())!.replace(/\n$/, '');
    await block.getByRole('button', { name: 'Copiar' }).click();
    await expect.poll(() => block.getByRole('button').textContent()).toBe('Copiado');
    expect(await own.evaluate(() => navigator.clipboard.readText())).toBe(code);
    await context.close();
  });

  it('sends / to the reader’s language: the remembered choice, else the browser’s, else the chooser stays', async () => {
    for (const [locale, expected] of [['pt-BR', '/pt/'], ['es-MX', '/es/'], ['en-GB', '/en/'], ['fr-FR', '/']] as const) {
      const context = await browser.newContext({ locale });
      const own = await context.newPage();
      await own.goto(`${server.url}/`);
      await own.waitForLoadState('load');
      expect(new URL(own.url()).pathname, locale).toBe(expected);
      await context.close();
    }
    // A French reader picks Español on the chooser; the next visit to / goes straight there.
    const context = await browser.newContext({ locale: 'fr-FR' });
    const own = await context.newPage();
    await own.goto(`${server.url}/`);
    await own.getByRole('link', { name: 'Español' }).click();
    await own.waitForURL('**/es/');
    await own.goto(`${server.url}/`);
    await own.waitForURL('**/es/');
    await context.close();
  });

  it('works embedded on a page of another origin (CORS on the indexes)', async () => {
    // "Someone else's" site: a second server on another port, so the indexes are a cross-origin fetch.
    const partnerDir = await mkdtemp(join(tmpdir(), 'rollcall-partner-'));
    await writeFile(
      join(partnerDir, 'index.html'),
      `<!doctype html><html lang="fr"><body><h1>Partner page</h1><div id="box"></div>` +
        `<script src="${server.url}/search-widget.js" data-lang="pt" data-target="#box"></script></body></html>`,
    );
    // 127.0.0.2 is another loopback address on Linux: a distinct origin without any DNS.
    const partner = await startServer({ dir: partnerDir, port: 0, host: '127.0.0.2' });
    try {
      await page.goto(`${partner.url}/`);
      const box = page.locator('#box').getByRole('combobox');
      await box.focus();
      await page.keyboard.type('saude agentes');
      await expect.poll(() => page.getByRole('option').first().textContent()).toContain('Verificações de saúde');
      expect(await page.getByRole('option').first().getAttribute('data-href')).toBe(`${server.url}/pt/help/agent-health-checks/`);
    } finally {
      await partner.close();
      await rm(partnerDir, { recursive: true, force: true });
    }
  });
});
