import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { seedPeople } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';

const WEEKLY = '01900000-0000-7000-8000-000000000002';
const RETRO = '01900000-0000-7000-8000-000000000003';
const DAILY = '01900000-0000-7000-8000-000000000001';

describe('Check-ins: names are unique among live ones, templates bring their schedule', () => {
  let t: TestApp;
  let p: People;
  beforeEach(async () => {
    t = await startTestApp();
    p = await seedPeople(t);
  });
  afterEach(async () => t.close());

  const create = (body: Record<string, unknown>, key = p.adminKey) => t.request('POST', '/v1/checkins/create/', { key, body });

  it('refuses a second live check-in of the same name, case aside (409 checkin_name_conflict naming it), on create and rename', async () => {
    const first = await create({ name: 'Daily stand-up' });
    expect(first.status).toBe(201);
    const again = await create({ name: 'daily STAND-UP' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      code: 'checkin_name_conflict',
      detail: 'Your organization already has a check-in named "daily STAND-UP"; choose another name or archive that one.',
      extra: { uuid: first.body.uuid },
    });
    const other = await create({ name: 'Weekly' });
    expect(other.status).toBe(201);
    const rename = await t.request('PATCH', `/v1/checkins/${other.body.uuid}/config/`, { key: p.adminKey, body: { name: 'Daily stand-up' } });
    expect(rename.status).toBe(409);
    expect(rename.body.code).toBe('checkin_name_conflict');
    // Keeping its own name (or changing its case) is no conflict with itself.
    expect((await t.request('PATCH', `/v1/checkins/${first.body.uuid}/config/`, { key: p.adminKey, body: { name: 'Daily Stand-up' } })).status).toBe(200);
    // An archived check-in frees its name.
    expect((await t.request('DELETE', `/v1/checkins/${first.body.uuid}/archive/`, { key: p.adminKey })).status).toBe(204);
    expect((await create({ name: 'Daily stand-up' })).status).toBe(201);
  });

  it('never sees another organization\'s names', async () => {
    expect((await create({ name: 'Daily stand-up' })).status).toBe(201);
    const globex = await seedPeople(t, { name: 'Globex' });
    expect((await create({ name: 'Daily stand-up' }, globex.adminKey)).status).toBe(201);
  });

  it('asks a weekly template\'s check-in on Fridays and a retrospective every other Friday; a daily one every weekday', async () => {
    const weekly = await create({ name: 'Weekly', template_uuid: WEEKLY });
    expect(weekly.status).toBe(201);
    expect(weekly.body).toMatchObject({ frequency_type: 'weekly', frequency_on_days: [5], schedule: { days: [5] }, frequency: 1 });
    const retro = await create({ name: 'Retro', template_uuid: RETRO });
    expect(retro.body).toMatchObject({ frequency_type: 'biweekly', frequency_on_days: [5], frequency: 2 });
    const daily = await create({ name: 'Daily', template_uuid: DAILY });
    expect(daily.body).toMatchObject({ frequency_type: 'daily', frequency_on_days: [1, 2, 3, 4, 5], frequency: 1 });
    // What the body says wins over the template's schedule.
    const chosen = await create({ name: 'Weekly on Mondays', template_uuid: WEEKLY, schedule: { days: [1], time: '10:00', timezone: 'Europe/Madrid' } });
    expect(chosen.body).toMatchObject({ frequency_type: 'weekly', frequency_on_days: [1], schedule: { days: [1], time: '10:00', timezone: 'Europe/Madrid' } });
    // A weekly frequency_type without a template asks once a week too.
    const plain = await create({ name: 'Plain weekly', frequency_type: 'weekly' });
    expect(plain.body).toMatchObject({ frequency_type: 'weekly', frequency_on_days: [5] });
  });
});
