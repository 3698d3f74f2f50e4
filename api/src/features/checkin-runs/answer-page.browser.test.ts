import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDuePrompts } from './feature.ts';
import { createCheckin, linkIn, startLoopApp } from './loop-fixtures.ts';
import type { LoopApp } from './loop-fixtures.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe-core's violations on the page (its script is let past the page's CSP in this browser context only). */
async function violations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async () => {
    const page = globalThis as unknown as { document: unknown; axe: { run(context: unknown, options: object): Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }> } };
    return (await page.axe.run(page.document, { resultTypes: ['violations'] })).violations;
  });
  return found.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * The web answer page in real Chromium (Debian's, through playwright-core): answered with JavaScript on and off,
 * checked by axe-core (no violation) as it first opens, after saving, and as the page of a
 * link that does not work.
 */
describe('the web answer page in Chromium', () => {
  let app: LoopApp;
  let browser: Browser;
  let checkin: Awaited<ReturnType<typeof createCheckin>>;
  const links = new Map<string, string>();
  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH).`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    app = await startLoopApp();
    const { t, p, sink } = app;
    t.clock.set('2026-03-10T07:00:00.000Z');
    checkin = await createCheckin(t, p, {
      custom_template_intro: 'Good morning!',
      questions: [
        { question_type: 'text', question: 'What did you do yesterday?' },
        { question_type: 'boolean', question: 'On track?' },
        { question_type: 'numeric', question: 'Hours of focus?', required: false },
        { question_type: 'multiple_choice', question: 'How do you feel?', options: ['Great', 'Tired'], required: false },
      ],
    });
    t.clock.set('2026-03-10T08:00:00.000Z');
    await sendDuePrompts(t.deps);
    await t.deps.delivery.runDue();
    for (const m of sink.messages) links.set(m.envelopeTo[0], linkIn(t, m.text));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const answers = async (key: string) => (await app.t.request('GET', `/v1/checkins/${checkin.uuid}/responses/`, { key })).body.results[0]?.responses.map((r: { response: unknown }) => r.response);

  for (const javaScriptEnabled of [true, false]) {
    it(`answers, shows the answer again and edits it with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async () => {
      const person = javaScriptEnabled ? app.p.member : app.p.other;
      const context = await browser.newContext({ javaScriptEnabled, bypassCSP: javaScriptEnabled, locale: 'es-ES', viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      const opened = await page.goto(links.get(person.user.email)!);
      expect(opened?.status()).toBe(200);
      expect(await page.locator('html').getAttribute('lang')).toBe('es');
      if (javaScriptEnabled) expect(await violations(page)).toEqual([]);
      await page.getByLabel('What did you do yesterday?').fill('Shipped the importer');
      await page.getByLabel('Sí').check();
      await page.getByLabel('Hours of focus?').fill('5');
      await page.getByLabel('Great').check();
      await page.getByRole('button', { name: 'Guardar mis respuestas' }).click();
      await page.getByText('Guardado.').waitFor();
      expect(await answers(person.key)).toEqual(['Shipped the importer', true, 5, 'Great']);
      if (javaScriptEnabled) expect(await violations(page)).toEqual([]);
      // The page shows the answer again and edits it: an emptied answer is no longer answered.
      await page.getByLabel('Hours of focus?').fill('');
      await page.getByLabel('What did you do yesterday?').fill('Shipped the importer and its docs');
      await page.getByRole('button', { name: 'Guardar mis respuestas' }).click();
      await page.getByText('Guardado.').waitFor();
      expect(await answers(person.key)).toEqual(['Shipped the importer and its docs', true, 'Great']);
      // No horizontal scrolling on a phone.
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await context.close();
    });
  }

  it('shows a link that does not work as a page that says so, accessible', async () => {
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    const res = await page.goto(`${app.t.url}/checkins/answer/${'x'.repeat(43)}`);
    expect(res?.status()).toBe(404);
    await page.getByRole('heading', { name: 'This link does not work' }).waitFor();
    expect(await violations(page)).toEqual([]);
    await context.close();
  });
});
