/**
 * A developer's look at the app's screens (not a test): starts a server on SQLite with a small board, signs in,
 * and writes a screenshot of each page at each width and colour scheme to /tmp/shots/, printing each page's
 * scroll width and, when a page is wider than the screen, the elements that stick out.
 *
 *   node test/shots-dev.ts
 *   PAGES=/app/,BOARD,LIST,TASK WIDTHS=320,390,1280 SCHEMES=dark LOCALE=pt-BR FULL=1 node test/shots-dev.ts
 *
 * PAGES takes paths and the names BOARD, LIST (the board as a list) and TASK (a task open on the board).
 */
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { ADMIN_EMAIL, sessionCookie, startServer, startSmtpSink } from './server.ts';

const env = process.env;
const sink = await startSmtpSink();
const server = await startServer(sink.url);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const cookie = await sessionCookie(server, sink, ADMIN_EMAIL);
  const me = await server.api('GET', '/v1/me/');
  await server.api('PATCH', `/v1/users/${me.uuid}/`, { first_name: 'Ada', last_name: 'Admin' });
  const board = await server.api('POST', '/v1/plan/boards/', { name: 'Launch', key: 'LNC' });
  const label = await server.api('POST', `/v1/plan/boards/${board.uuid}/labels/`, { name: 'design', color: '#d97706' });
  const states = (await server.api('GET', `/v1/plan/boards/${board.uuid}/states/`)).results;
  for (let i = 0; i < 9; i++) {
    await server.api('POST', `/v1/plan/boards/${board.uuid}/tasks/`, {
      title: `Task number ${i + 1} with a longer title to wrap`, state: states[i % 3].uuid, priority: (i % 5) + 1,
      owner: i % 2 ? me.uuid : null, labels: i % 3 ? [label.uuid] : [], due_date: i % 2 ? '2026-11-20' : '2026-12-24',
    });
  }
  await server.api('POST', '/v1/checkins/create/', {
    name: 'Daily', schedule: { days: [0, 1, 2, 3, 4, 5, 6], time: '00:00', timezone: 'UTC' }, participants: { user_uuids: [me.uuid] },
    questions: [{ question_type: 'text', question: 'What did you do?' }],
  });
  const named: Record<string, string> = { BOARD: `/app/boards/${board.uuid}/`, LIST: `/app/boards/${board.uuid}/?view=list`, TASK: `/app/boards/${board.uuid}/tasks/LNC-2/` };
  mkdirSync('/tmp/shots', { recursive: true });
  for (const width of (env.WIDTHS ?? '1280,390').split(',').map(Number)) {
    for (const colorScheme of (env.SCHEMES ?? 'light,dark').split(',') as ('light' | 'dark')[]) {
      const context = await browser.newContext({ viewport: { width, height: 844 }, colorScheme, locale: env.LOCALE ?? 'en-US', isMobile: width < 800, hasTouch: width < 800 });
      await context.addCookies([cookie]);
      const page = await context.newPage();
      for (const p of (env.PAGES ?? '/app/,/app/boards/,BOARD,/app/admin/').split(',')) {
        await page.goto(server.url + (named[p] ?? p));
        await page.waitForTimeout(1200);
        const name = `${p.replace(/\W+/g, '-') || 'x'}-${width}-${colorScheme}`;
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        console.log(name, 'scrollWidth', scrollWidth);
        if (scrollWidth > width) {
          console.log(await page.evaluate((vw) => [...document.querySelectorAll('body *')]
            .filter((el) => el.getBoundingClientRect().right > vw + 1 && !el.closest('.column'))
            .slice(0, 12).map((el) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`), width));
        }
        await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: env.FULL === '1' });
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
  await sink.close();
}
