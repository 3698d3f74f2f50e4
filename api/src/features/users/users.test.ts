import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { MISSING, seedPeople, subscribeToAllEvents } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';

describe('Users (CONTRACT §3, §12)', () => {
  let t: TestApp;
  let p: People;
  beforeEach(async () => {
    t = await startTestApp();
    p = await seedPeople(t);
    await subscribeToAllEvents(t, p.adminKey);
  });
  afterEach(async () => t.close());

  const names = (body: { results: { full_name: string }[] }) => body.results.map((u) => u.full_name);

  it('lists by role: admins and managers everyone, members the directory, guests themselves', async () => {
    const admin = await t.request('GET', '/v1/users/', { key: p.adminKey });
    expect(admin.status).toBe(200);
    expect(admin.body.count).toBe(5);
    expect(names(admin.body)).toEqual(['Ada Admin', 'Gus Member', 'Manny Member', 'Mia Member', 'Otto Member']);
    expect(admin.body.results[0]).toEqual({
      uuid: p.admin.uuid, id: p.admin.uuid, first_name: 'Ada', last_name: 'Admin', full_name: 'Ada Admin', role: 'admin',
      is_active: true, status: 'active', invitation: null, timezone: null, occupation: null, image: null, created_at: '2026-03-10T15:00:00.000Z',
    });
    expect((await t.request('GET', '/v1/users/', { key: p.manager.key })).body.count).toBe(5);
    const member = await t.request('GET', '/v1/users/', { key: p.member.key });
    expect(member.status).toBe(200);
    expect(member.body.count).toBe(5);
    const guest = await t.request('GET', '/v1/users/', { key: p.guest.key });
    expect(guest.body.count).toBe(1);
    expect(guest.body.results[0].uuid).toBe(p.guest.user.uuid);
  });

  it('shows e-mail only with include_email=true, and only to admins or the user themselves', async () => {
    const plain = await t.request('GET', '/v1/users/', { key: p.adminKey });
    expect(plain.body.results[0]).not.toHaveProperty('email');
    const admin = await t.request('GET', '/v1/users/?include_email=true', { key: p.adminKey });
    expect(admin.body.results.every((u: { email?: string }) => typeof u.email === 'string')).toBe(true);
    const member = await t.request('GET', '/v1/users/?include_email=true', { key: p.member.key });
    const withEmail = member.body.results.filter((u: { email?: string }) => u.email);
    expect(withEmail).toHaveLength(1);
    expect(withEmail[0]).toMatchObject({ uuid: p.member.user.uuid, email: 'mia@acme.test' });
    const manager = await t.request('GET', `/v1/users/${p.member.user.uuid}/?include_email=true`, { key: p.manager.key });
    expect(manager.body).not.toHaveProperty('email');
    const self = await t.request('GET', `/v1/users/${p.member.user.uuid}/?include_email=true`, { key: p.member.key });
    expect(self.body.email).toBe('mia@acme.test');
  });

  it('filters with search (2–256 characters), role and ordering, and pages with next links that keep the filters', async () => {
    const search = await t.request('GET', '/v1/users/?search=otto', { key: p.member.key });
    expect(names(search.body)).toEqual(['Otto Member']);
    const byEmail = await t.request('GET', '/v1/users/?search=manny%40', { key: p.adminKey });
    expect(names(byEmail.body)).toEqual(['Manny Member']);
    const short = await t.request('GET', '/v1/users/?search=o', { key: p.adminKey });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({ detail: 'The search text needs at least 2 characters.', code: 'search_query_too_short', extra: { parameter: 'search' } });
    const long = await t.request('GET', `/v1/users/?search=${'x'.repeat(257)}`, { key: p.adminKey });
    expect(long.body.code).toBe('search_query_too_long');
    const guests = await t.request('GET', '/v1/users/?role=guest', { key: p.adminKey });
    expect(names(guests.body)).toEqual(['Gus Member']);
    expect((await t.request('GET', '/v1/users/?role=boss', { key: p.adminKey })).body).toMatchObject({ code: 'invalid_filter_value', extra: { parameter: 'role' } });
    const ordered = await t.request('GET', '/v1/users/?ordering=-first_name', { key: p.adminKey });
    expect(names(ordered.body)[0]).toBe('Otto Member');
    expect((await t.request('GET', '/v1/users/?ordering=password', { key: p.adminKey })).body.code).toBe('invalid_sort');
    const page1 = await t.request('GET', '/v1/users/?page_size=2&role=member', { key: p.adminKey });
    expect(page1.body.count).toBe(2);
    const all = await t.request('GET', '/v1/users/?page_size=2', { key: p.adminKey });
    expect(all.body.results).toHaveLength(2);
    expect(all.body.next).toBe(`${t.url}/v1/users/?page_size=2&page=2`);
    const page2 = await t.request('GET', all.body.next.replace(t.url, ''), { key: p.adminKey });
    expect(page2.body.results).toHaveLength(2);
    expect(page2.body.previous).toBe(`${t.url}/v1/users/?page_size=2`);
    const since = await t.request('GET', '/v1/users/?start_date=2026-03-11', { key: p.adminKey });
    expect(since.body.count).toBe(0);
    expect((await t.request('GET', '/v1/users/?since=2026-03-10&until=2026-03-10', { key: p.adminKey })).body.count).toBe(5);
    expect((await t.request('GET', '/v1/users/?since=10-03-2026', { key: p.adminKey })).body.code).toBe('invalid_date_range');
  });

  it('lets a user edit their own profile, and only admins change roles or other people', async () => {
    const own = await t.request('PATCH', `/v1/users/${p.member.user.uuid}/`, { key: p.member.key, body: { occupation: 'Engineer', timezone: 'America/Bogota' } });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ occupation: 'Engineer', timezone: 'America/Bogota', email: 'mia@acme.test' });
    expect((await t.request('GET', '/v1/me/', { key: p.member.key })).body.timezone).toBe('America/Bogota');
    const role = await t.request('PATCH', `/v1/users/${p.member.user.uuid}/`, { key: p.member.key, body: { role: 'admin' } });
    expect(role.status).toBe(403);
    expect(role.body).toEqual({ detail: 'Only organization admins can change roles or deactivate users.', code: 'org_admin_required' });
    const other = await t.request('PATCH', `/v1/users/${p.other.user.uuid}/`, { key: p.manager.key, body: { first_name: 'X' } });
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('org_admin_required');
    const promoted = await t.request('PATCH', `/v1/users/${p.member.user.uuid}/`, { key: p.adminKey, body: { role: 'manager' } });
    expect(promoted.body.role).toBe('manager');
    const badZone = await t.request('PATCH', `/v1/users/${p.member.user.uuid}/`, { key: p.adminKey, body: { timezone: 'Mars/Olympus' } });
    expect(badZone.status).toBe(400);
    expect(badZone.body).toEqual({ timezone: ['Must be an IANA time zone, for example Europe/Madrid.'] });
    const unknown = await t.request('PATCH', `/v1/users/${p.member.user.uuid}/`, { key: p.adminKey, body: { email: 'x@y.z' } });
    expect(unknown.body).toEqual({ detail: 'Unknown field: email.', code: 'unknown_field', extra: { parameter: 'email' } });
  });

  it('hides other users from guests with a 404, the same body as an absent user', async () => {
    const missing = await t.request('GET', `/v1/users/${MISSING}/`, { key: p.guest.key });
    expect(missing.status).toBe(404);
    const hidden = await t.request('GET', `/v1/users/${p.member.user.uuid}/`, { key: p.guest.key });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(missing.body);
    const patch = await t.request('PATCH', `/v1/users/${p.member.user.uuid}/`, { key: p.guest.key, body: { first_name: 'X' } });
    expect(patch.body).toEqual(missing.body);
    expect((await t.request('GET', `/v1/users/${p.guest.user.uuid}/`, { key: p.guest.key })).status).toBe(200);
    expect((await t.request('GET', '/v1/users/not-a-uuid/', { key: p.adminKey })).status).toBe(404);
  });

  it('never shows another organization\'s users (404, same body as absent; lists exclude them)', async () => {
    const globex = await seedPeople(t, { name: 'Globex' });
    const missing = await t.request('GET', `/v1/users/${MISSING}/`, { key: globex.adminKey });
    for (const [method, body] of [['GET', undefined], ['PATCH', { first_name: 'X' }]] as const) {
      const res = await t.request(method, `/v1/users/${p.member.user.uuid}/`, { key: globex.adminKey, body });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(missing.body);
    }
    expect((await t.request('GET', '/v1/users/?search=acme.test', { key: globex.adminKey })).body.count).toBe(0);
  });

  it('deactivates: the user\'s keys and CLI tokens stop at once, their data stays, and an event is recorded', async () => {
    const token = await t.seedToken(p.org.uuid, p.member.user.uuid);
    expect((await t.request('GET', '/v1/me/', { key: p.member.key })).status).toBe(200);
    expect((await t.request('GET', '/v1/me/', { token })).status).toBe(200);
    const off = await t.request('PATCH', `/v1/users/${p.member.user.uuid}/`, { key: p.adminKey, body: { is_active: false } });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ is_active: false, status: 'deactivated', invitation: null });
    const key = await t.request('GET', '/v1/me/', { key: p.member.key });
    expect(key.status).toBe(403);
    expect(key.body.code).toBe('api_key_owner_inactive');
    expect((await t.request('GET', '/v1/me/', { token })).body.code).toBe('invalid_credentials');
    // Still there for admins, gone from the members' directory.
    expect((await t.request('GET', `/v1/users/${p.member.user.uuid}/`, { key: p.adminKey })).body.is_active).toBe(false);
    expect(names((await t.request('GET', '/v1/users/', { key: p.other.key })).body)).not.toContain('Mia Member');
    const events = await t.db('organization_events').where({ event: 'organization.user_deactivated' });
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0].payload).user).toEqual({ uuid: p.member.user.uuid, full_name: 'Mia Member', email: 'mia@acme.test' });
    await t.request('PATCH', `/v1/users/${p.member.user.uuid}/`, { key: p.adminKey, body: { is_active: true } });
    expect((await t.request('GET', '/v1/me/', { key: p.member.key })).status).toBe(200);
    // Deactivation ended their sign-ins for good (CLI tokens and web sessions): reactivating revives their keys only.
    expect((await t.request('GET', '/v1/me/', { token })).body.code).toBe('invalid_credentials');
    expect(await t.db('cli_tokens').where({ user_uuid: p.member.user.uuid }).whereNull('revoked_at')).toEqual([]);
  });

  it('keeps at least one active admin (400 last_admin)', async () => {
    const res = await t.request('PATCH', `/v1/users/${p.admin.uuid}/`, { key: p.adminKey, body: { role: 'member' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'An organization keeps at least one active admin.', code: 'last_admin' });
    await t.request('PATCH', `/v1/users/${p.manager.user.uuid}/`, { key: p.adminKey, body: { role: 'admin' } });
    expect((await t.request('PATCH', `/v1/users/${p.admin.uuid}/`, { key: p.adminKey, body: { role: 'member' } })).status).toBe(200);
  });

  it('counts reads and writes against their own hourly budgets', async () => {
    const read = await t.request('GET', '/v1/users/', { key: p.member.key });
    expect(read.headers.get('ratelimit-policy')).toBe('"reads";q=5000;w=3600');
    const write = await t.request('PATCH', `/v1/users/${p.member.user.uuid}/`, { key: p.member.key, body: { occupation: 'QA' } });
    expect(write.headers.get('ratelimit-policy')).toBe('"writes";q=1000;w=3600');
  });
});
