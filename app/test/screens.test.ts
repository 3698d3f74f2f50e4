/**
 * Every screen of the app, in Chromium against a started server on SQLite, as phones and desktops show it:
 * - no page is wider than the screen at 320, 390, 768 and 1280 px (measured as the site's test measures it:
 *   the document's scroll width against the viewport), the task panel included;
 * - axe-core finds nothing at 390 and 1280 px, in English, Spanish and Portuguese, light and dark;
 * - on a phone the board scrolls column by column (scroll snap) and a task opens as a full-screen sheet.
 */
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, launchChromium } from './browser.ts';
import { ADMIN_EMAIL, sessionCookie, startServer, startSmtpSink } from './server.ts';
import type { Running } from './server.ts';

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let server: Running;
let browser: Browser;
let cookie: Awaited<ReturnType<typeof sessionCookie>>;
const ids: Record<string, string> = {};

/** Each screen: its address, what shows once it is ready, and whether it needs the session. */
const SCREENS: { name: string; path: () => string; ready: string; signedIn: boolean }[] = [
  { name: 'sign-in', path: () => '/app/', ready: 'form input[type=email]', signedIn: false },
  { name: 'invitation', path: () => `/app/invitations/accept?token=${'x'.repeat(40)}`, ready: '#invite-title', signedIn: false },
  { name: 'today', path: () => '/app/', ready: '.standup, .empty', signedIn: true },
  { name: 'boards', path: () => '/app/boards/', ready: '.board-list li', signedIn: true },
  { name: 'board', path: () => `/app/boards/${ids.board}/`, ready: '.task-card', signedIn: true },
  { name: 'list', path: () => `/app/boards/${ids.board}/?view=list`, ready: '.task-list tbody tr', signedIn: true },
  { name: 'task', path: () => `/app/boards/${ids.board}/tasks/SCR-2/`, ready: '.detail #task-title', signedIn: true },
  { name: 'admin', path: () => '/app/admin/', ready: '#keys-title', signedIn: true },
  { name: 'insights', path: () => '/app/insights/', ready: '.insights-table, .insights .empty', signedIn: true },
];

const LOOKS: { locale: string; colorScheme: 'light' | 'dark' }[] = [
  { locale: 'en-US', colorScheme: 'light' },
  { locale: 'es-ES', colorScheme: 'dark' },
  { locale: 'pt-BR', colorScheme: 'light' },
  { locale: 'en-US', colorScheme: 'dark' },
  { locale: 'es-ES', colorScheme: 'light' },
  { locale: 'pt-BR', colorScheme: 'dark' },
];

/** How far the page scrolls sideways (0: nothing is wider than the screen). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

async function open(options: BrowserContextOptions, signedIn: boolean): Promise<Page> {
  const context = await browser.newContext(options);
  if (signedIn) await context.addCookies([cookie]);
  return context.newPage();
}

async function show(page: Page, screen: (typeof SCREENS)[number]): Promise<void> {
  await page.goto(`${server.url}${screen.path()}`);
  await page.locator(screen.ready).first().waitFor();
  // Long columns finish rendering a moment after their first cards.
  await page.waitForTimeout(100);
}

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startServer(sink.url);
  const me = await server.api('GET', '/v1/me/');
  await server.api('PATCH', `/v1/users/${me.uuid}/`, { first_name: 'Ada', last_name: 'Lovelace-Byron de Montmorency' });
  await server.api('POST', '/v1/checkins/create/', {
    name: 'Daily stand-up of the platform team', schedule: { days: [0, 1, 2, 3, 4, 5, 6], time: '00:00', timezone: 'UTC' }, participants: { user_uuids: [me.uuid] },
    questions: [{ question_type: 'text', question: 'What did you do yesterday, and what will you do today?' }],
  });
  const board = await server.api('POST', '/v1/plan/boards/', { name: 'Screens of every width', key: 'SCR' });
  ids.board = board.uuid;
  const label = await server.api('POST', `/v1/plan/boards/${board.uuid}/labels/`, { name: 'accessibility', color: '#b45309' });
  const states = (await server.api('GET', `/v1/plan/boards/${board.uuid}/states/`)).results;
  for (let i = 0; i < 12; i++) {
    await server.api('POST', `/v1/plan/boards/${board.uuid}/tasks/`, {
      title: i === 1 ? 'A task whose title is long enough to wrap over several lines on a phone: supercalifragilisticexpialidocious' : `Task ${i + 1}`,
      state: states[i % 4].uuid, priority: (i % 5) + 1, owner: i % 2 ? me.uuid : null, labels: i % 3 ? [label.uuid] : [],
      due_date: i % 2 ? '2020-01-10' : '2099-12-24', description: '- [x] written\n- [ ] reviewed',
    });
  }
  browser = await launchChromium();
  cookie = await sessionCookie(server, sink, ADMIN_EMAIL);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await sink?.close();
});

describe('every screen', () => {
  for (const width of [320, 390, 768, 1280]) {
    it(`is no wider than the screen at ${width} px`, { timeout: 600_000 }, async () => {
      const wide: string[] = [];
      for (const signedIn of [false, true]) {
        const page = await open({ viewport: { width, height: 800 }, locale: 'pt-BR', isMobile: width < 800, hasTouch: width < 800 }, signedIn);
        for (const screen of SCREENS.filter((s) => s.signedIn === signedIn)) {
          await show(page, screen);
          const extra = await overflow(page);
          if (extra > 0) wide.push(`${screen.name}: ${extra} px too wide`);
        }
        await page.context().close();
      }
      expect(wide).toEqual([]);
    });
  }

  for (const look of LOOKS) {
    it(`passes axe at 390 and 1280 px in ${look.locale}, ${look.colorScheme}`, { timeout: 600_000 }, async () => {
      const found: string[] = [];
      for (const width of [390, 1280]) {
        for (const signedIn of [false, true]) {
          const page = await open({ ...look, viewport: { width, height: 860 }, isMobile: width < 800, hasTouch: width < 800 }, signedIn);
          for (const screen of SCREENS.filter((s) => s.signedIn === signedIn)) {
            await show(page, screen);
            for (const violation of await axe(page)) found.push(`${screen.name} at ${width}: ${violation}`);
          }
          await page.context().close();
        }
      }
      expect(found).toEqual([]);
    });
  }
});

describe('on a phone', () => {
  it('the board scrolls one column at a time, and a task opens as a full-screen sheet', { timeout: 300_000 }, async () => {
    const page = await open({ viewport: { width: 390, height: 844 }, locale: 'en-US', isMobile: true, hasTouch: true }, true);
    await show(page, SCREENS.find((s) => s.name === 'board')!);
    const scroller = page.locator('.columns-scroll');
    expect(await scroller.evaluate((el) => getComputedStyle(el).scrollSnapType)).toBe('x mandatory');
    const columns = await page.locator('.column').evaluateAll((els) => els.map((el) => ({ width: el.getBoundingClientRect().width, snap: getComputedStyle(el).scrollSnapAlign })));
    for (const column of columns) {
      expect(column.snap).toBe('start');
      expect(column.width).toBeLessThanOrEqual(390);
    }
    // A swipe's worth of scrolling lands on the next column's start.
    await scroller.evaluate((el) => el.scrollBy({ left: 200 }));
    await expect.poll(() => scroller.evaluate((el) => Math.round((el.firstElementChild!.children[1] as HTMLElement).getBoundingClientRect().left))).toBeLessThan(40);

    await page.locator('.task-card a').first().click();
    const sheet = page.getByRole('complementary');
    await sheet.getByLabel('Title').waitFor();
    const box = (await sheet.boundingBox())!;
    expect(box).toEqual({ x: 0, y: 0, width: 390, height: 844 });
    await sheet.getByRole('button', { name: 'Close' }).click();
    await sheet.waitFor({ state: 'detached' });
    await page.context().close();
  });
});
