/**
 * The board's cards, its list view and its filters, in Chromium against a started server on SQLite: what a card
 * shows (owner initials, priority, labels, due date with overdue marked, sub-task progress, comment count), kept
 * current when an agent comments through the API, the same tasks as a table, the due-date filter, and a
 * description's Markdown task list as checkboxes.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, launchChromium } from './browser.ts';
import { ADMIN_EMAIL, sessionCookie, startServer, startSmtpSink } from './server.ts';
import type { Running } from './server.ts';

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let server: Running;
let browser: Browser;
let page: Page;
const ids: Record<string, string> = {};

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startServer(sink.url);
  const me = await server.api('GET', '/v1/me/');
  await server.api('PATCH', `/v1/users/${me.uuid}/`, { first_name: 'Ada', last_name: 'Lovelace' });
  const board = await server.api('POST', '/v1/plan/boards/', { name: 'Cards', key: 'CRD' });
  ids.board = board.uuid;
  const label = await server.api('POST', `/v1/plan/boards/${board.uuid}/labels/`, { name: 'design', color: '#b45309' });
  const states = (await server.api('GET', `/v1/plan/boards/${board.uuid}/states/`)).results;
  ids.todo = states.find((s: { name: string }) => s.name === 'Todo').uuid;
  const create = (body: Record<string, unknown>) => server.api('POST', `/v1/plan/boards/${board.uuid}/tasks/`, { state: ids.todo, ...body });
  // CRD-1: everything a card can show; CRD-2 and CRD-3 its sub-tasks (one done); CRD-4 due far ahead; CRD-5 none.
  const full = await create({ title: 'Everything on one card', owner: me.uuid, priority: 2, labels: [label.uuid], due_date: '2020-01-10', description: '- [x] written\n- [ ] reviewed' });
  await create({ title: 'First part', parent_task: full.uuid });
  const done = await create({ title: 'Second part', parent_task: full.uuid });
  const doneState = states.find((s: { name: string }) => s.name === 'Done').uuid;
  await server.api('POST', `/v1/plan/tasks/${done.key}/move/`, { state: doneState });
  await create({ title: 'Far ahead', due_date: '2099-12-24' });
  await create({ title: 'No date at all' });
  await server.api('POST', '/v1/plan/tasks/CRD-1/comments/', { body: 'First' });

  browser = await launchChromium();
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 860 } });
  await context.addCookies([await sessionCookie(server, sink, ADMIN_EMAIL)]);
  page = await context.newPage();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await sink?.close();
});

const meta = (key: string) => page.locator(`.task-card[data-key="${key}"] .meta`);
/** Each part's words (a card's marks, a row's cells' parts), without those only a screen reader hears when `seen`. */
const parts = (locator: ReturnType<Page['locator']>, seen = true) => locator.evaluate((el, seen) => [...el.children].map((child) => {
  const copy = child.cloneNode(true) as HTMLElement;
  if (seen) for (const hidden of copy.querySelectorAll('.sr-only')) hidden.remove();
  return copy.textContent!.replace(/\s+/g, ' ').trim();
}).filter(Boolean), seen);
const shown = async (locator: ReturnType<Page['locator']>) => (await parts(locator)).join(' ');

describe('the board', () => {
  it('shows owner, priority, labels, overdue due date, sub-task progress and comments on a card; a comment made through the API counts without a reload', async () => {
    await page.goto(`${server.url}/app/boards/${ids.board}/`);
    await meta('CRD-1').waitFor();
    expect(await shown(meta('CRD-1'))).toBe('P2 design Jan 10 1/2 1 AL');
    // What a screen reader hears instead of the marks.
    expect(await parts(meta('CRD-1'), false)).toEqual(['P2Priority 2', 'design', 'Overdue, due: Jan 10', 'Sub-tasks done: 1/2', 'Comments: 1', 'ALOwner: Ada Lovelace']);
    expect(await meta('CRD-1').locator('.overdue').count()).toBe(1);
    // A due date ahead is not marked; a task with none shows none.
    expect(await shown(meta('CRD-4'))).toBe('Dec 24');
    expect(await meta('CRD-4').locator('.overdue').count()).toBe(0);
    expect(await shown(meta('CRD-5'))).toBe('');
    expect(await axe(page)).toEqual([]);

    // A comment through the API (as an agent would): the count grows on the open board without a reload; deleting takes it back.
    const comment = await server.api('POST', '/v1/plan/tasks/CRD-1/comments/', { body: 'From the agent' });
    await expect.poll(() => meta('CRD-1').locator('.comment-count').textContent(), { timeout: 5000 }).toBe('Comments: 2');
    await server.api('DELETE', `/v1/plan/tasks/CRD-1/comments/${comment.uuid}/`);
    await expect.poll(() => meta('CRD-1').locator('.comment-count').textContent(), { timeout: 5000 }).toBe('Comments: 1');
  });

  it('shows the same tasks as a list, filtered by due date; a task opens from it with its task list as checkboxes', async () => {
    await page.getByRole('link', { name: 'List' }).click();
    await page.locator('.task-list tbody tr').first().waitFor();
    const keys = () => page.locator('.task-list tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.key));
    // Sub-tasks show on their parent (its progress, and its panel), not as rows of their own.
    expect(await keys()).toEqual(['CRD-1', 'CRD-4', 'CRD-5']);
    const row = page.locator('.task-list tr[data-key="CRD-1"]');
    expect(await Promise.all((await row.locator('td').all()).map(shown))).toEqual([
      'CRD-1 Everything on one card', 'Todo', 'P2', 'design', 'Jan 10', '1/2 1', 'AL Ada Lovelace',
    ]);
    expect(await axe(page)).toEqual([]);

    await page.getByLabel('Due').selectOption('overdue');
    await expect.poll(keys).toEqual(['CRD-1']);
    await page.getByLabel('Due').selectOption('none');
    await expect.poll(keys).toEqual(['CRD-5']);
    await page.getByLabel('Due').selectOption('');
    await expect.poll(keys).toEqual(['CRD-1', 'CRD-4', 'CRD-5']);

    // The task opens over the list, and closing it comes back to the list.
    await row.getByRole('link').click();
    const detail = page.getByRole('complementary', { name: /CRD-1/ });
    await detail.getByLabel('Title').waitFor();
    // The description's task list shows as boxes, read with their words, that nobody can tick by accident.
    const written = detail.getByRole('checkbox', { name: 'written' });
    const reviewed = detail.getByRole('checkbox', { name: 'reviewed' });
    expect([await written.isChecked(), await written.isDisabled(), await reviewed.isChecked(), await reviewed.isDisabled()]).toEqual([true, true, false, true]);
    expect(await axe(page)).toEqual([]);
    await detail.getByRole('button', { name: 'Close' }).click();
    await detail.waitFor({ state: 'detached' });
    expect(new URL(page.url()).search).toBe('?view=list');
    await page.locator('.task-list').waitFor();
  });
});
