import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { fireJob } from '../../jobs/index.ts';
import { checkinRuns, sendDuePrompts, sendDueReminders, sendDueReports } from './feature.ts';
import { createCheckin, startLoopApp } from './loop-fixtures.ts';
import type { LoopApp } from './loop-fixtures.ts';

// Several processes share a PostgreSQL database (README, "Several processes"); a SQLite file has one process.
describe.runIf(process.env.ROLLCALL_TEST_ENGINE === 'postgres')('Several processes on one PostgreSQL database send each prompt, reminder and report exactly once', () => {
  let app: LoopApp;
  let others: TestApp[] = [];
  afterEach(async () => {
    for (const other of others) await other.close();
    others = [];
    await app.close();
  });

  it('three processes firing the jobs at once, and overlapping firings, write one prompt, one reminder and one report each', async () => {
    app = await startLoopApp();
    const { t, p, sink } = app;
    others = [await startTestApp({}, { SMTP_URL: sink.url }, {}, { sameDatabaseAs: t }), await startTestApp({}, { SMTP_URL: sink.url }, {}, { sameDatabaseAs: t })];
    const all = [t, ...others];
    t.clock.set('2026-03-10T07:00:00.000Z');
    await createCheckin(t, p, { time_for_report: '17:00', reminders_max_count: 1, reminders_frequency_time: 30 });
    await createCheckin(t, p, { name: 'Second', time_for_report: '17:00' });
    const job = (name: string) => checkinRuns.jobs!.find((j) => j.name === name)!;
    t.clock.set('2026-03-10T08:00:00.000Z');
    const fired = await Promise.all(all.map((a) => fireJob(a.deps, job('checkin-prompts'), new Date('2026-03-10T08:00:00.000Z'))));
    expect(fired.filter(Boolean)).toHaveLength(1);
    // Firings that overlap (a slow one still running when the next minute's starts elsewhere) still ask once.
    t.clock.set('2026-03-11T08:00:00.000Z');
    expect((await Promise.all(all.map((a) => sendDuePrompts(a.deps)))).reduce((x, y) => x + y, 0)).toBe(4);
    t.clock.set('2026-03-11T08:30:00.000Z');
    expect((await Promise.all(all.map((a) => sendDueReminders(a.deps)))).reduce((x, y) => x + y, 0)).toBe(2);
    t.clock.set('2026-03-11T16:00:00.000Z');
    expect((await Promise.all(all.map((a) => sendDueReports(a.deps)))).reduce((x, y) => x + y, 0)).toBe(2);
    await Promise.all(all.map((a) => a.deps.delivery.runDue()));
    const count = (subject: string) => sink.messages.filter((m) => m.subject === subject).length;
    expect(Number((await t.db('checkin_prompts').count({ n: '*' }))[0].n)).toBe(8);
    expect(count('Daily for 2026-03-10')).toBe(2);
    expect(count('Second for 2026-03-10')).toBe(2);
    expect(count('Daily for 2026-03-11')).toBe(2);
    expect(count('Reminder: Daily for 2026-03-11')).toBe(2);
    expect(count('Daily report for 2026-03-11')).toBe(2);
    expect(count('Second report for 2026-03-11')).toBe(2);
  });
});
