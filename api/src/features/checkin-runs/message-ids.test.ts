import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendDuePrompts, sendDueReminders, sendDueReports } from './feature.ts';
import { createCheckin, startLoopApp } from './loop-fixtures.ts';
import type { LoopApp } from './loop-fixtures.ts';

/**
 * An outbox row's e-mail keeps one Message-ID on every attempt (issue 34): a message sent again (after a crash, or
 * after a server read it and answered 451) is a copy mail systems drop, not a second e-mail. The prompt and the
 * reminder carry a Message-ID of their own (replies find the prompt by it); the report and every other e-mail get
 * one per row.
 */
describe('Check-in e-mail keeps its Message-ID across attempts', () => {
  let app: LoopApp;
  beforeEach(async () => {
    app = await startLoopApp();
    app.t.clock.set('2026-03-10T07:00:00.000Z');
  });
  afterEach(async () => app.close());

  it('sends the prompt, the reminder and the report again after a 451 with the Message-ID of the first attempt', async () => {
    const { t, p, sink } = app;
    // The server reads every message whole, then refuses its first attempt: the worker sends it again later.
    const seen = new Set<string>();
    sink.setAfterData((mail) => {
      const key = `${mail.subject} ${mail.to && 'value' in mail.to ? mail.to.value[0].address : ''}`;
      if (seen.has(key)) return 'accept';
      seen.add(key);
      return 451;
    });
    await createCheckin(t, p, { reminders_max_count: 1, reminders_frequency_time: 30, time_for_report: '17:00' });
    const wave = async (at: string, job: () => Promise<number>) => {
      t.clock.set(at);
      expect(await job()).toBeGreaterThan(0);
      await t.deps.delivery.runDue();
      t.clock.set(new Date(t.clock.now().getTime() + 60_000));
      await t.deps.delivery.runDue();
    };
    await wave('2026-03-10T08:00:00.000Z', () => sendDuePrompts(t.deps));
    await wave('2026-03-10T08:30:00.000Z', () => sendDueReminders(t.deps));
    await wave('2026-03-10T16:00:00.000Z', () => sendDueReports(t.deps));

    const byRow = new Map<string, string[]>();
    for (const m of sink.messages) {
      const key = `${m.subject} ${m.envelopeTo[0]}`;
      byRow.set(key, [...(byRow.get(key) ?? []), m.messageId!]);
    }
    // Two people, each a prompt, a reminder and a report: every one sent twice, both times with one Message-ID.
    expect([...byRow.keys()].map((k) => k.replace(/ \S+@\S+$/, '')).sort()).toEqual([
      'Daily for 2026-03-10', 'Daily for 2026-03-10', 'Daily report for 2026-03-10', 'Daily report for 2026-03-10', 'Reminder: Daily for 2026-03-10', 'Reminder: Daily for 2026-03-10',
    ]);
    for (const [row, ids] of byRow) {
      expect(ids, row).toHaveLength(2);
      expect(ids[1], row).toBe(ids[0]);
    }
    // Each row's own: no two rows share one; the report's names its outbox row.
    expect(new Set([...byRow.values()].map((ids) => ids[0])).size).toBe(6);
    const reports = await t.db('deliveries').where({ kind: 'checkin.report' }).select('uuid', 'destination');
    for (const r of reports) expect(byRow.get(`Daily report for 2026-03-10 ${r.destination}`)![0]).toBe(`<delivery.${r.uuid}@localhost>`);
    expect((await t.db('deliveries').whereNot({ status: 'delivered' })).length).toBe(0);
  });
});
