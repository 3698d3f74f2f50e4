/**
 * Your settings (/app/profile/) and the team's day on Today (issue 36), in Chromium against a started server:
 * a bad holiday calendar is refused naming the field, the settings are saved through PATCH /v1/me/, the app then
 * speaks the chosen language; the team's day shows who has not answered and who is away, and a day before the
 * check-in existed says so. axe-core finds nothing at 390 and 1280 px.
 */
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

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startServer(sink.url);
  const me = await server.api('GET', '/v1/me/');
  await server.api('PATCH', '/v1/me/', { first_name: 'Ada', last_name: 'Lovelace', timezone: 'UTC' });
  await server.api('POST', '/v1/checkins/create/', {
    name: 'Daily', schedule: { days: [0, 1, 2, 3, 4, 5, 6], time: '23:59', timezone: 'UTC' }, participants: { user_uuids: [me.uuid] },
    questions: [{ question_type: 'text', question: 'What are you working on?' }],
  });
  browser = await launchChromium();
  cookie = await sessionCookie(server, sink, ADMIN_EMAIL);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await sink?.close();
});

async function open(width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'en-US', isMobile: width < 800, hasTouch: width < 800, timezoneId: 'UTC' });
  await context.addCookies([cookie]);
  return context.newPage();
}

describe('Your settings and the team\'s day', () => {
  it('shows who has not answered today, and that the check-in did not exist the day before', async () => {
    for (const width of [390, 1280]) {
      const page = await open(width);
      await page.goto(`${server.url}/app/`);
      const team = page.locator('.team-day');
      await expect.poll(() => team.textContent()).toContain('Not answered yet');
      expect(await team.textContent()).toContain('Ada Lovelace');
      expect(await axe(page)).toEqual([]);
      await page.getByRole('button', { name: 'Previous day' }).click();
      await expect.poll(() => page.locator('.team-day').textContent()).toMatch(/This check-in did not exist yet on /);
      expect(await axe(page)).toEqual([]);
      await page.context().close();
    }
  });

  it('refuses a holiday calendar that is not one, saves the settings, and speaks the chosen language', async () => {
    const page = await open(1280);
    await page.goto(`${server.url}/app/profile/`);
    await page.locator('#profile-title').waitFor();
    expect(await axe(page)).toEqual([]);
    await page.getByLabel('Public-holiday calendar').fill('XX');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.locator('#holiday_calendar-error').textContent()).toBe('Must be a country code with a public-holiday calendar, optionally with a region, for example ES or ES-MD.');
    expect(await axe(page)).toEqual([]);

    await page.getByLabel('Public-holiday calendar').fill('es-md');
    await page.getByLabel('Remind me when I have not answered a check-in').uncheck();
    await page.getByRole('button', { name: 'Add time off' }).click();
    await page.getByLabel('From').fill(today);
    await page.getByLabel('Until').fill(today);
    await page.locator('#profile-language').selectOption('es');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Guardado.' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    expect(await server.api('GET', '/v1/me/')).toMatchObject({ language: 'es', holiday_calendar: 'ES-MD', notifications: { reminders: false, report_emails: true } });
    expect((await server.api('GET', `/v1/users/${(await server.api('GET', '/v1/me/')).uuid}/`)).time_off).toEqual([{ start: today, end: today }]);

    // On a phone, in Spanish, the team's day now shows Ada away.
    const phone = await open(390);
    await phone.goto(`${server.url}/app/`);
    await expect.poll(() => phone.locator('.team-day').textContent()).toContain('Ausente');
    expect(await axe(phone)).toEqual([]);
    await phone.goto(`${server.url}/app/profile/`);
    await phone.locator('#profile-title').waitFor();
    expect(await phone.locator('#profile-title').textContent()).toBe('Tus ajustes');
    expect(await axe(phone)).toEqual([]);
    await phone.context().close();
    await page.context().close();
  });
});
