import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { seedPeople } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';

describe('Each person\'s own settings: GET and PATCH /v1/me/ (issue 36)', () => {
  let t: TestApp;
  let p: People;
  beforeEach(async () => {
    t = await startTestApp();
    p = await seedPeople(t);
  });
  afterEach(async () => t.close());

  it('changes a member\'s own time zone, language, holiday calendar, notifications and time off, and GET /v1/me/ shows them', async () => {
    const mia = p.member;
    const before = await t.request('GET', '/v1/me/', { key: mia.key });
    expect(before.body).toMatchObject({ timezone: 'UTC', language: null, holiday_calendar: null, notifications: { reminders: true, report_emails: true } });
    const body = {
      timezone: 'America/Santiago', language: 'es', holiday_calendar: 'es-md', notifications: { reminders: false },
      time_off: [{ start: '2026-04-06', end: '2026-04-10' }],
    };
    const saved = await t.request('PATCH', '/v1/me/', { key: mia.key, body, example: true });
    expect(saved.status).toBe(200);
    const expected = {
      id: mia.user.uuid, uuid: mia.user.uuid, email: 'mia@acme.test', first_name: 'Mia', last_name: 'Member', full_name: 'Mia Member', role: 'member',
      timezone: 'America/Santiago', organization_name: 'Acme', organization_uuid: p.org.uuid,
      user: { uuid: mia.user.uuid, full_name: 'Mia Member', email: 'mia@acme.test' }, organization: { uuid: p.org.uuid, name: 'Acme' },
      language: 'es', holiday_calendar: 'ES-MD', notifications: { reminders: false, report_emails: true },
    };
    expect(saved.body).toEqual({ ...expected, time_off: [{ start: '2026-04-06', end: '2026-04-10' }] });
    const after = await t.request('GET', '/v1/me/', { key: mia.key });
    expect(after.status).toBe(200);
    expect(after.body).toEqual(expected);
    // The same time off as an admin sees it on the person.
    expect((await t.request('GET', `/v1/users/${mia.user.uuid}/`, { key: p.adminKey })).body.time_off).toEqual([{ start: '2026-04-06', end: '2026-04-10' }]);
    // Absent fields stay; null clears.
    const cleared = await t.request('PATCH', '/v1/me/', { key: mia.key, body: { language: null, holiday_calendar: null, timezone: null, notifications: { report_emails: false } } });
    expect(cleared.body).toMatchObject({ timezone: 'UTC', language: null, holiday_calendar: null, notifications: { reminders: false, report_emails: false }, time_off: [{ start: '2026-04-06', end: '2026-04-10' }] });
    // A CLI token of the same person reads the same.
    const token = await t.seedToken(p.org.uuid, mia.user.uuid);
    expect((await t.request('GET', '/v1/me/', { token })).body).toMatchObject({ language: null, notifications: { reminders: false, report_emails: false } });
  });

  it('refuses a time zone, language, holiday calendar or time off that is not one, naming the field', async () => {
    const cases: [Record<string, unknown>, Record<string, string[]>][] = [
      [{ timezone: 'Mars/Olympus' }, { timezone: ['Must be an IANA time zone, for example Europe/Madrid.'] }],
      [{ language: 'fr' }, { language: ['Must be one of: en, es, pt.'] }],
      [{ holiday_calendar: 'XX' }, { holiday_calendar: ['Must be a country code with a public-holiday calendar, optionally with a region, for example ES or ES-MD.'] }],
      [{ holiday_calendar: 'ES-ZZ' }, { holiday_calendar: ['Must be a country code with a public-holiday calendar, optionally with a region, for example ES or ES-MD.'] }],
      [{ holiday_calendar: 'constructor' }, { holiday_calendar: ['Must be a country code with a public-holiday calendar, optionally with a region, for example ES or ES-MD.'] }],
      [{ notifications: { reminders: 'sometimes' } }, { 'notifications.reminders': ['Must be a boolean.'] }],
      [{ time_off: [{ start: '2026-04-10', end: '2026-04-06' }] }, { 'time_off.0.end': ['Must be on or after start.'] }],
      [{ time_off: [{ start: '2026-02-30', end: '2026-03-01' }] }, { 'time_off.0.start': ['Must be a date as YYYY-MM-DD.'] }],
    ];
    for (const [body, fields] of cases) {
      const res = await t.request('PATCH', '/v1/me/', { key: p.member.key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body, JSON.stringify(body)).toEqual(fields);
    }
    const unknown = await t.request('PATCH', '/v1/me/', { key: p.member.key, body: { role: 'admin' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'unknown_field', extra: { parameter: 'role' } });
    expect((await t.request('GET', '/v1/me/', { key: p.member.key })).body).toMatchObject({ role: 'member', timezone: 'UTC', language: null, holiday_calendar: null });
  });

  it('takes a person: an agent key answers 403 insufficient_scope, no credential 401', async () => {
    const agent = await t.seedUser(p.org.uuid, { kind: 'agent', email: 'bot@acme.test' });
    const refused = await t.request('PATCH', '/v1/me/', { key: agent.key, body: { language: 'pt' } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('insufficient_scope');
    const anonymous = await t.request('PATCH', '/v1/me/', { body: { language: 'pt' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('credential_absent');
  });
});
