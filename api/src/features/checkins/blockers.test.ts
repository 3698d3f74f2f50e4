import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { MISSING, seedPeople, subscribeToAllEvents } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';
import { sendBlockerAlerts } from '../checkin-runs/feature.ts';

/** Issue 36 item 3: blockers followed up. */
describe('Check-in blockers', () => {
  let t: TestApp;
  let p: People;
  let base: string;

  const blockerEvents = async () =>
    (await t.db('organization_events').where('event', 'like', 'checkin.blocker.%').orderBy('uuid')).map((e: { event: string; payload: string }) => {
      const { event, text, state, opened_on, resolved_on, days_open, user } = { event: e.event, ...JSON.parse(e.payload) };
      return { event, text, state, opened_on, resolved_on, days_open, user: user?.full_name ?? null };
    });
  const answer = (key: string, blocked: boolean, what?: string, method: 'POST' | 'PUT' = 'POST') =>
    t.request(method, `${base}/responses/`, { key, body: { responses: [{ index: 0, response: 'Work' }, { index: 1, response: blocked }, ...(what === undefined ? [] : [{ index: 2, response: what }])] } });
  const list = async (query = '', key = p.adminKey) => (await t.request('GET', `${base}/blockers/${query}`, { key })).body;

  beforeEach(async () => {
    t = await startTestApp();
    p = await seedPeople(t);
    await subscribeToAllEvents(t, p.adminKey);
    const created = await t.request('POST', '/v1/checkins/create/', {
      key: p.adminKey,
      body: {
        name: 'Daily', schedule: { days: [1, 2, 3, 4, 5], time: '09:00', timezone: 'America/Bogota' }, allow_past_responses: true,
        participants: { user_uuids: [p.member.user.uuid, p.other.user.uuid] },
        questions: [
          { question_type: 'text', question: 'Done?' },
          { question_type: 'boolean', question: 'Anything blocking you?', is_blocker: true },
          { question_type: 'text', question: 'What blocks you?', logic: { show_if: { question_index: 1, equals: true } } },
        ],
      },
    });
    base = `/v1/checkins/${created.body.uuid}`;
  });
  afterEach(async () => t.close());

  it('opens a blocker from a blocker answer, keeps it across days, lists it and resolves it', async () => {
    expect((await answer(p.member.key, true, 'Waiting for the API keys')).status).toBe(201);
    expect((await answer(p.other.key, false)).status).toBe(201);
    const open = await t.request('GET', `${base}/blockers/?state=open`, { key: p.adminKey, example: true });
    expect(open.status).toBe(200);
    const [blocker] = open.body.results;
    expect(open.body).toEqual({
      count: 1, next: null, previous: null,
      results: [{
        uuid: blocker.uuid, id: blocker.uuid, followup_uuid: base.split('/')[3], user: { uuid: p.member.user.uuid, full_name: 'Mia Member' },
        question_uuid: blocker.question_uuid, question: 'Anything blocking you?', text: 'Waiting for the API keys', state: 'open',
        opened_on: '2026-03-10', opened_at: '2026-03-10T15:00:00.000Z', resolved_on: null, resolved_at: null, resolved_by: null, days_open: 0,
      }],
    });
    // Edited the same day: the same blocker, with the new words.
    t.clock.advance(60_000);
    expect((await answer(p.member.key, true, 'Waiting for the API keys from ops', 'PUT')).status).toBe(200);
    // The next day, blocked by the same thing: still that blocker, now a day old.
    t.clock.set('2026-03-11T15:00:00.000Z');
    expect((await answer(p.member.key, true, 'waiting for the  API keys from ops')).status).toBe(201);
    expect((await list('?state=open')).results.map((b: { text: string; days_open: number }) => [b.text, b.days_open])).toEqual([['Waiting for the API keys from ops', 1]]);

    // Another participant reads the team's blockers but may not resolve them; a missing one is 404.
    expect((await list('', p.other.key)).count).toBe(1);
    const notTheirs = await t.request('POST', `${base}/blockers/${blocker.uuid}/resolve/`, { key: p.other.key, body: {} });
    expect([notTheirs.status, notTheirs.body]).toEqual([403, { detail: 'Only the person blocked, an admin or a manager resolves a blocker.', code: 'not_your_blocker' }]);
    const missing = await t.request('POST', `${base}/blockers/${MISSING}/resolve/`, { key: p.member.key, body: {} });
    expect([missing.status, missing.body]).toEqual([404, { detail: 'Not found.', code: 'not_found' }]);
    const withBody = await t.request('POST', `${base}/blockers/${blocker.uuid}/resolve/`, { key: p.member.key, body: { note: 'x' } });
    expect(withBody.body).toEqual({ detail: 'Unknown field: note.', code: 'unknown_field', extra: { parameter: 'note' } });

    t.clock.set('2026-03-12T15:00:00.000Z');
    const resolved = await t.request('POST', `${base}/blockers/${blocker.uuid}/resolve/`, { key: p.member.key, body: {}, example: true });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({
      uuid: blocker.uuid, state: 'resolved', resolved_on: '2026-03-12', resolved_at: '2026-03-12T15:00:00.000Z', resolved_by: { uuid: p.member.user.uuid, full_name: 'Mia Member' }, days_open: 2,
    });
    const again = await t.request('POST', `${base}/blockers/${blocker.uuid}/resolve/`, { key: p.adminKey, body: {} });
    expect(again.body).toEqual(resolved.body);
    expect((await list('?state=open')).count).toBe(0);
    expect((await list('?state=resolved')).count).toBe(1);
    const bad = await t.request('GET', `${base}/blockers/?state=closed`, { key: p.adminKey });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_filter_value');

    expect(await blockerEvents()).toEqual([
      { event: 'checkin.blocker.reported', text: 'Waiting for the API keys', state: 'open', opened_on: '2026-03-10', resolved_on: null, days_open: 0, user: 'Mia Member' },
      { event: 'checkin.blocker.resolved', text: 'Waiting for the API keys from ops', state: 'resolved', opened_on: '2026-03-10', resolved_on: '2026-03-12', days_open: 2, user: 'Mia Member' },
    ]);
  });

  it('resolves a blocker when the person answers that nothing blocks them, or takes it back the same day', async () => {
    await answer(p.member.key, true, 'Flaky CI');
    t.clock.advance(60_000);
    await answer(p.member.key, false, undefined, 'PUT');
    expect((await list()).results.map((b: { text: string; state: string }) => [b.text, b.state])).toEqual([['Flaky CI', 'resolved']]);
    t.clock.set('2026-03-11T15:00:00.000Z');
    await answer(p.member.key, true, 'Design review');
    t.clock.set('2026-03-12T15:00:00.000Z');
    await answer(p.member.key, false);
    expect((await list('?state=open')).count).toBe(0);
    expect((await list('?state=resolved')).results.map((b: { text: string; resolved_on: string; days_open: number }) => [b.text, b.resolved_on, b.days_open])).toEqual([
      ['Design review', '2026-03-12', 1], ['Flaky CI', '2026-03-10', 0],
    ]);
    // A day's answer reset (DELETE …/responses/) takes its open blocker with it.
    t.clock.set('2026-03-13T15:00:00.000Z');
    await answer(p.member.key, true, 'Vacation cover');
    expect((await list('?state=open')).count).toBe(1);
    expect((await t.request('DELETE', `${base}/responses/`, { key: p.member.key })).status).toBe(204);
    expect((await list('?state=open')).count).toBe(0);
  });

  it('tells the check-in\'s managers once about a blocker open for blocker_alert_days', async () => {
    expect((await t.request('PATCH', `${base}/config/`, { key: p.adminKey, body: { blocker_alert_days: 2 } })).body.blocker_alert_days).toBe(2);
    await answer(p.member.key, true, 'Waiting on legal');
    t.clock.set('2026-03-11T15:00:00.000Z');
    expect(await sendBlockerAlerts(t.deps)).toBe(0);
    t.clock.set('2026-03-12T15:00:00.000Z');
    expect(await sendBlockerAlerts(t.deps)).toBe(1);
    expect(await sendBlockerAlerts(t.deps)).toBe(0);
    const mails = await t.db('deliveries').where({ kind: 'checkin.blocker_alert' }).select('destination', 'payload');
    expect(mails.map((m: { destination: string }) => m.destination)).toEqual([p.admin.email]);
    const message = JSON.parse(mails[0].payload);
    expect(message.subject).toBe('Still blocked after 2 days: Mia Member in Daily');
    expect(message.text).toContain('Waiting on legal');
  });

  it('shows only their own blockers to a member of a private check-in, and none of another organization\'s', async () => {
    await t.request('PATCH', `${base}/config/`, { key: p.adminKey, body: { privacy: 'private' } });
    await answer(p.member.key, true, 'Mine');
    await answer(p.other.key, true, 'Theirs');
    expect((await list('', p.member.key)).results.map((b: { text: string }) => b.text)).toEqual(['Mine']);
    expect((await list(`?user=${p.other.user.uuid}`, p.member.key)).count).toBe(0);
    expect((await list('', p.adminKey)).count).toBe(2);
    const stranger = await seedPeople(t, { name: 'Globex' });
    const other = await t.request('GET', `${base}/blockers/`, { key: stranger.adminKey });
    expect([other.status, other.body]).toEqual([404, { detail: 'Not found.', code: 'not_found' }]);
  });
});
