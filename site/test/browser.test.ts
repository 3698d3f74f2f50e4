/**
 * The built site in real headless Chromium (Debian's /usr/bin/chromium through playwright-core), served by
 * our own static server, so headers and 404s are what a host would send. Never downloads a browser: when
 * Chromium is missing this fails, because CI installs it (.ci/run) and a skipped browser test hides bugs.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startServer, type RunningServer } from '../server/serve.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const OUTPUT = fileURLToPath(new URL('../test-output/', import.meta.url));

let server: RunningServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}. Install it with: apt-get install -y chromium (or set CHROMIUM_PATH).`);
  }
  server = await startServer({ dir: inject('siteDir'), port: 0 });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  page = await browser.newPage({ viewport: { width: 1024, height: 800 } });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
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
    await page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: 'Español' }).click();
    await page.waitForURL('**/es/help/api-keys/');
    expect(await page.getAttribute('html', 'lang')).toBe('es');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Claves de API');
  });

  it('shows the notice on a fallback page', async () => {
    await page.goto(`${server.url}/pt/help/database-and-backups/`);
    const notice = page.locator('[data-fallback-notice]');
    expect(await notice.isVisible()).toBe(true);
    expect(await notice.textContent()).toContain('ainda não foi traduzida');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Database and backups');
  });

  it('serves the 404 page of the language', async () => {
    const response = await page.goto(`${server.url}/es/no-existe/`);
    expect(response?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Página no encontrada');
  });

  it('finds by keyboard despite a typo and missing accents', async () => {
    await page.goto(`${server.url}/es/`);
    const box = page.getByRole('combobox');
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    // Reach the box with the keyboard only: skip link, brand, nav links, language links, then the box.
    await page.keyboard.press('Tab');
    for (let i = 0; i < 10 && !(await box.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);

    // A typo: "webhoks" for "webhooks".
    await page.keyboard.type('webhoks');
    await expect.poll(() => box.getAttribute('aria-expanded')).toBe('true');
    const listbox = page.locator(`#${await box.getAttribute('aria-controls')}`);
    expect(await listbox.getAttribute('role')).toBe('listbox');
    expect(await page.getByRole('option').first().textContent()).toContain('Webhooks de agentes');
    expect(await page.locator('[role="status"]').textContent()).toMatch(/^\d+ resultados?$/);

    // Escape closes the popup, a second Escape clears the box.
    await page.keyboard.press('Escape');
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('Escape');
    expect(await box.inputValue()).toBe('');

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

  it('shows live results on the search page for ?q=', async () => {
    await page.goto(`${server.url}/pt/search/?q=chave`);
    await expect.poll(() => page.getByRole('combobox').getAttribute('aria-expanded')).toBe('true');
    expect(await page.getByRole('option').first().textContent()).toContain('Chaves de API');
  });

  it('searches without JavaScript through the plain form', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const plain = await context.newPage();
    await plain.goto(`${server.url}/es/`);
    await plain.getByRole('searchbox').fill('claves');
    await plain.getByRole('button', { name: 'Buscar' }).click();
    await plain.waitForURL('**/es/search/?q=claves');
    expect(await plain.getByRole('link', { name: 'Claves de API' }).count()).toBeGreaterThan(0);
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
