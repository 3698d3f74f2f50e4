/**
 * The Insights screen in Chromium against a started server on SQLite: a check-in answered on two days (today's
 * answer to the loop's prompt, yesterday's without one) shows its numbers, a uPlot chart, the same days as a
 * table, the typed answers, and downloads the answers as CSV; axe-core finds nothing at 390 and 1280 px in English,
 * Spanish and Portuguese, and nothing is wider than a phone.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, launchChromium } from './browser.ts';
import { ADMIN_EMAIL, sessionCookie, startServer, startSmtpSink } from './server.ts';
import type { Running } from './server.ts';

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let server: Running;
let browser: Browser;
let cookie: Awaited<ReturnType<typeof sessionCookie>>;
const today = new Date().toISOString().slice(0, 10);
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

async function open(locale: string, width: number): Promise<Page> {
  const context = await browser.newContext({ locale, timezoneId: 'UTC', viewport: { width, height: 900 }, isMobile: width < 800, hasTouch: width < 800, acceptDownloads: true });
  await context.addCookies([cookie]);
  const page = await context.newPage();
  await page.goto(`${server.url}/app/insights/`);
  await page.locator('.insights-table tbody tr').first().waitFor();
  return page;
}

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startServer(sink.url);
  const me = await server.api('GET', '/v1/me/');
  const checkin = await server.api('POST', '/v1/checkins/create/', {
    name: 'Daily', schedule: { days: [0, 1, 2, 3, 4, 5, 6], time: '00:00', timezone: 'UTC' }, participants: { user_uuids: [me.uuid] }, allow_past_responses: true,
    questions: [
      { question_type: 'text', question: 'What did you do?' },
      { question_type: 'numeric', question: 'Hours of focus?' },
      { question_type: 'multiple_choice', question: 'Where did you work?', options: ['Office', 'Home'] },
    ],
  });
  await server.api('POST', `/v1/checkins/${checkin.uuid}/responses/`, { responses: [{ index: 0, response: '=1+1, shipped' }, { index: 1, response: 6 }, { index: 2, response: 'Home' }] });
  await server.api('POST', `/v1/checkins/${checkin.uuid}/responses/`, { response_date: yesterday, responses: [{ index: 0, response: 'Reviewed' }, { index: 1, response: 4 }, { index: 2, response: 'Office' }] });
  browser = await launchChromium();
  cookie = await sessionCookie(server, sink, ADMIN_EMAIL);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await sink?.close();
});

describe('Insights', () => {
  it('shows the numbers, the chart, the days as a table and the answers, and downloads the CSV', { timeout: 300_000 }, async () => {
    const page = await open('en-US', 1280);
    await expect.poll(() => page.locator('.insights-chart canvas').count()).toBeGreaterThan(0);
    expect(await page.locator('.insights-chart').getAttribute('aria-hidden')).toBe('true');
    const rows = await page.locator('.insights-table tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    expect(rows.map((r) => r.slice(1, 3))).toEqual([['1 / 1', '100%'], ['1 / 1', '100%']]);
    expect(await page.locator('.insights-summary').textContent()).toContain('100%');
    const where = page.locator('.insights-question', { hasText: 'Where did you work?' });
    expect(await where.getByRole('row').evaluateAll((trs) => trs.slice(1).map((tr) => tr.textContent))).toEqual(['Office1', 'Home1']);
    expect(await page.locator('.insights-question', { hasText: 'Hours of focus?' }).locator('p').textContent()).toBe('2 answers, average 5');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.split('\r\n')[0]).toBe('date,person,answered,blocker,What did you do?,Hours of focus?,Where did you work?,first_saved_at,last_saved_at');
    expect(csv).toMatch(new RegExp(`^${today},[^,]+,yes,no,"'=1\\+1, shipped",6,Home,`, 'm'));
    await page.context().close();
  });

  for (const [locale, width] of [['en-US', 1280], ['es-ES', 390], ['pt-BR', 390], ['pt-BR', 1280]] as const) {
    it(`passes axe at ${width} px in ${locale}, no wider than the screen`, { timeout: 300_000 }, async () => {
      const page = await open(locale, width);
      expect(await axe(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
      await page.context().close();
    });
  }
});
