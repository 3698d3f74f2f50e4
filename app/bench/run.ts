/**
 * `npm run bench -w app`: the web app in Chromium against a started server on SQLite.
 *  - first load on a cold cache: bytes transferred (compressed, as sent) and the time until the page can be used,
 *    for sign-in and for Today (signed in);
 *  - a board of 2,000 tasks: time from navigation to every card rendered, and frame times while a card is dragged
 *    across the board (requestAnimationFrame deltas and long tasks, from the browser's performance API).
 * Targets (issue 28): first page < 100 KB compressed script, first render of the board < 1 s, no frame over 50 ms.
 * Figures vary with the machine (and how busy it is: `uptime`'s load is printed); each is the median of BENCH_RUNS
 * runs (default 3).
 */
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, sessionCookie, startServer, startSmtpSink } from '../test/server.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TASKS = Number(process.env.BENCH_TASKS ?? 2000);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

const sink = await startSmtpSink();
const server = await startServer(sink.url, { PLAN_RATE_LIMIT_WRITES: '100000', PLAN_RATE_LIMIT_READS: '100000', RATE_LIMIT_WRITES: '100000', RATE_LIMIT_READS: '100000' });
let browser: Browser | null = null;
try {
  // A session cookie, signed in as the app does it.
  const cookie = await sessionCookie(server, sink, ADMIN_EMAIL);

  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });

  async function firstLoad(signedIn: boolean, ready: (page: Page) => Promise<unknown>) {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 860 } });
    if (signedIn) await context.addCookies([cookie]);
    const page = await context.newPage();
    const sizes: Promise<{ url: string; type: string; bytes: number }>[] = [];
    page.on('requestfinished', (request) => {
      sizes.push(request.sizes().then((s) => ({ url: request.url(), type: request.resourceType(), bytes: s.responseBodySize + s.responseHeadersSize })));
    });
    const started = Date.now();
    await page.goto(`${server.url}/app/`);
    await ready(page);
    const interactive = Date.now() - started;
    const all = await Promise.all(sizes);
    const scripts = all.filter((r) => r.type === 'script').reduce((sum, r) => sum + r.bytes, 0);
    const total = all.reduce((sum, r) => sum + r.bytes, 0);
    await context.close();
    return { interactive, scripts, total };
  }

  for (const [name, signedIn, ready] of [
    ['sign-in', false, (p: Page) => p.getByRole('button', { name: 'E-mail me a code' }).waitFor()],
    ['today', true, (p: Page) => p.getByRole('heading', { name: /^Hello/ }).waitFor()],
  ] as const) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await firstLoad(signedIn, ready));
    console.log(
      `first load, ${name} (cold cache): usable in ${median(runs.map((r) => r.interactive))} ms; script ${kb(median(runs.map((r) => r.scripts)))} transferred (target < 100 KB), everything ${kb(median(runs.map((r) => r.total)))} with the API's answers`,
    );
  }

  // A board of TASKS tasks over its first four columns.
  const board = await server.api('POST', '/v1/plan/boards/', { name: 'Benchmark', key: 'BEN' });
  const states = (await server.api('GET', `/v1/plan/boards/${board.uuid}/states/`)).results.slice(0, 4);
  const seeding = Date.now();
  for (let i = 0; i < TASKS; i += 20) {
    await Promise.all(Array.from({ length: Math.min(20, TASKS - i) }, (_, j) =>
      server.api('POST', `/v1/plan/boards/${board.uuid}/tasks/`, { title: `Task ${i + j + 1} of the benchmark board`, state: states[(i + j) % 4].uuid, priority: ((i + j) % 5) + 1 })));
  }
  console.log(`seeded ${TASKS} tasks in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);

  const firsts: number[] = [];
  const renders: number[] = [];
  const worst: number[] = [];
  const p95s: number[] = [];
  const longs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addCookies([cookie]);
    const page = await context.newPage();
    // The first run also loads the board's chunk; a person opening a board from the app has the shell already.
    await page.goto(`${server.url}/app/boards/`);
    await page.getByRole('link', { name: /BEN Benchmark/ }).waitFor();
    const started = Date.now();
    await page.getByRole('link', { name: /BEN Benchmark/ }).click();
    await page.waitForFunction(() => document.querySelectorAll('.task-card').length > 0, null, { timeout: 60_000, polling: 16 });
    firsts.push(Date.now() - started);
    await page.waitForFunction((n) => document.querySelectorAll('.task-card').length >= n, TASKS, { timeout: 60_000, polling: 16 });
    renders.push(Date.now() - started);

    await page.evaluate(() => {
      const w = window as any;
      w.__frames = [];
      w.__long = [];
      new PerformanceObserver((list) => list.getEntries().forEach((e) => w.__long.push(e.duration))).observe({ type: 'longtask', buffered: false });
      let last = performance.now();
      const tick = (now: number) => {
        w.__frames.push(now - last);
        last = now;
        if (!w.__stop) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const card = page.locator(`ol.cards[data-state="${states[0].uuid}"] .task-card`).nth(3);
    const target = page.locator(`ol.cards[data-state="${states[2].uuid}"] .task-card`).nth(5);
    const a = (await card.boundingBox())!;
    const b = (await target.boundingBox())!;
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    for (let step = 1; step <= 60; step++) {
      await page.mouse.move(a.x + a.width / 2 + ((b.x - a.x) * step) / 60, a.y + a.height / 2 + ((b.y - a.y) * step) / 60);
      await page.waitForTimeout(16);
    }
    await page.mouse.up();
    await page.waitForTimeout(300);
    const { frames, long } = await page.evaluate(() => {
      const w = window as any;
      w.__stop = true;
      return { frames: w.__frames.slice(1) as number[], long: w.__long as number[] };
    });
    worst.push(Math.max(...frames));
    p95s.push([...frames].sort((x, y) => x - y)[Math.floor(frames.length * 0.95)]);
    longs.push(long.length);
    await context.close();
  }
  console.log(`board of ${TASKS} tasks: first render ${median(firsts)} ms after the click (target < 1000 ms), every card rendered after ${median(renders)} ms`);
  console.log(`drag across it: worst frame ${median(worst).toFixed(1)} ms, p95 ${median(p95s).toFixed(1)} ms (target: none over 50 ms), long tasks ${median(longs)}`);
  console.log(`load average during the run: ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(', ')} on ${(await import('node:os')).cpus().length} cores`);
} finally {
  await browser?.close();
  await server.close();
  await sink.close();
}
