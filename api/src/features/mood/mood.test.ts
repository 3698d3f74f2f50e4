import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { MISSING, seedPeople } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';

describe('Mood tracking and templates (CONTRACT §7)', () => {
  let t: TestApp;
  let p: People;
  beforeEach(async () => {
    t = await startTestApp();
    p = await seedPeople(t);
  });
  afterEach(async () => t.close());

  it('tracks one mood per person and day (201, then 200 replacing it) and reads it back', async () => {
    const empty = await t.request('GET', '/v1/mood/track/', { key: p.member.key });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ uuid: null, id: null, user: { uuid: p.member.user.uuid, full_name: 'Mia Member' }, date: '2026-03-10', score: null, created_at: null, updated_at: null });
    const first = await t.request('POST', '/v1/mood/track/', { key: p.member.key, body: { score: 4 } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ date: '2026-03-10', score: 4, created_at: '2026-03-10T15:00:00.000Z' });
    const again = await t.request('POST', '/v1/mood/track/', { key: p.member.key, body: { score: 2 } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ uuid: first.body.uuid, score: 2 });
    expect((await t.request('GET', '/v1/mood/track/?date=2026-03-10', { key: p.member.key })).body.score).toBe(2);
    expect((await t.request('POST', '/v1/mood/track/', { key: p.member.key, body: { score: 5, date: '2026-03-01' } })).status).toBe(201);
    expect((await t.request('GET', '/v1/mood/track/?date=2026-03-01', { key: p.member.key })).body.score).toBe(5);
    expect((await t.request('GET', '/v1/mood/track/', { key: p.other.key })).body.score).toBeNull();
    await t.request('POST', '/v1/mood/track/', { key: p.other.key, body: { score: 3 } });
    const admin = await t.request('GET', '/v1/mood/track/', { key: p.adminKey });
    expect(admin.body.summary).toEqual({ count: 2, average: 2.5 });
    expect((await t.request('GET', '/v1/mood/track/', { key: p.member.key })).body).not.toHaveProperty('summary');
  });

  it('uses the person\'s own time zone for "today" and refuses bad scores, future days and unknown fields', async () => {
    await t.request('PATCH', `/v1/users/${p.member.user.uuid}/`, { key: p.member.key, body: { timezone: 'Pacific/Kiritimati' } });
    const res = await t.request('POST', '/v1/mood/track/', { key: p.member.key, body: { score: 3 } });
    expect(res.body.date).toBe('2026-03-11'); // UTC+14
    expect((await t.request('POST', '/v1/mood/track/', { key: p.member.key, body: { score: 6 } })).body).toEqual({ score: ['Ensure this value is less than or equal to 5.'] });
    expect((await t.request('POST', '/v1/mood/track/', { key: p.member.key, body: { score: '3' } })).body).toEqual({ score: ['Must be a number.'] });
    expect((await t.request('POST', '/v1/mood/track/', { key: p.member.key, body: {} })).body).toEqual({ score: ['This field is required.'] });
    expect((await t.request('POST', '/v1/mood/track/', { key: p.member.key, body: { score: 3, date: '2026-03-20' } })).body.code).toBe('future_responses_are_not_allowed');
    expect((await t.request('POST', '/v1/mood/track/', { key: p.member.key, body: { score: 3, note: 'x' } })).body.code).toBe('unknown_field');
    expect((await t.request('GET', '/v1/mood/track/?date=yesterday', { key: p.member.key })).body.code).toBe('invalid_date_range');
  });

  it('serves the built-in templates; a check-in created from one copies its questions', async () => {
    const list = await t.request('GET', '/v1/templates/', { key: p.guest.key });
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(4);
    const pulse = list.body.results.find((x: { name: string }) => x.name === 'Team pulse');
    const detail = await t.request('GET', `/v1/templates/${pulse.uuid}/`, { key: p.member.key });
    expect(detail.body).toEqual(pulse);
    expect(detail.body.questions[0]).toEqual({ index: 0, question: 'How is your workload?', short_question: 'Workload', question_type: 'multiple_choice', required: true, is_blocker: false, choices: [{ label: 'Too light', value: 'Too light' }, { label: 'About right', value: 'About right' }, { label: 'Too heavy', value: 'Too heavy' }] });
    expect((await t.request('GET', '/v1/templates/?search=retro', { key: p.member.key })).body.results.map((x: { name: string }) => x.name)).toEqual(['Retrospective']);
    expect((await t.request('GET', `/v1/templates/${MISSING}/`, { key: p.member.key })).status).toBe(404);
    const created = await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body: { name: 'Pulse', template_uuid: pulse.uuid } });
    expect(created.body).toMatchObject({ template_uuid: pulse.uuid, frequency_type: 'weekly' });
    expect(created.body.questions.map((q: { question_type: string }) => q.question_type)).toEqual(['multiple_choice', 'boolean', 'text']);
    expect((await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body: { name: 'x', template_uuid: MISSING } })).body).toEqual({ template_uuid: ['No template with this id.'] });
  });
});
