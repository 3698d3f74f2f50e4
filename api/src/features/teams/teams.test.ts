import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { MISSING, seedPeople, subscribeToAllEvents } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';

describe('Teams and members (CONTRACT §3)', () => {
  let t: TestApp;
  let p: People;
  let team: { uuid: string };
  beforeEach(async () => {
    t = await startTestApp();
    p = await seedPeople(t);
    await subscribeToAllEvents(t, p.adminKey);
    team = (await t.request('POST', '/v1/teams/', { key: p.adminKey, body: { name: 'Platform' } })).body;
    await t.request('POST', `/v1/teams/${team.uuid}/member/`, { key: p.adminKey, body: { members: [{ uuid: p.member.user.uuid }, { uuid: p.guest.user.uuid }] } });
  });
  afterEach(async () => t.close());

  it('creates (201) with the team shape, and lets admins and managers manage teams', async () => {
    const created = await t.request('POST', '/v1/teams/', { key: p.manager.key, body: { name: 'Design', is_default: true } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ uuid: created.body.uuid, id: created.body.uuid, name: 'Design', active: true, is_default: true, members_count: 0, created_at: '2026-03-10T15:00:00.000Z' });
    const renamed = await t.request('PATCH', `/v1/teams/${created.body.uuid}/`, { key: p.manager.key, body: { name: 'Design Ops', active: false } });
    expect(renamed.body).toMatchObject({ name: 'Design Ops', active: false });
    // One default per organization.
    await t.request('PATCH', `/v1/teams/${team.uuid}/`, { key: p.adminKey, body: { is_default: true } });
    expect((await t.request('GET', `/v1/teams/${created.body.uuid}/`, { key: p.adminKey })).body.is_default).toBe(false);
    const deleted = await t.request('DELETE', `/v1/teams/${created.body.uuid}/`, { key: p.adminKey });
    expect(deleted.status).toBe(204);
    expect((await t.request('GET', `/v1/teams/${created.body.uuid}/`, { key: p.adminKey })).status).toBe(404);
  });

  it('refuses members and guests the team writes (403 org_manager_required), and requires a name', async () => {
    for (const who of [p.member, p.guest]) {
      const res = await t.request('POST', '/v1/teams/', { key: who.key, body: { name: 'Mine' } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: 'Only organization admins and managers can do this.', code: 'org_manager_required' });
      expect((await t.request('PATCH', `/v1/teams/${team.uuid}/`, { key: who.key, body: { name: 'x' } })).status).toBe(403);
      expect((await t.request('DELETE', `/v1/teams/${team.uuid}/`, { key: who.key })).status).toBe(403);
      expect((await t.request('POST', `/v1/teams/${team.uuid}/member/`, { key: who.key, body: { members: [{ uuid: p.other.user.uuid }] } })).status).toBe(403);
    }
    const missing = await t.request('POST', '/v1/teams/', { key: p.adminKey, body: {} });
    expect(missing.body).toEqual({ name: ['This field is required.'] });
    const unknown = await t.request('POST', '/v1/teams/', { key: p.adminKey, body: { name: 'x', colour: 'red' } });
    expect(unknown.body.code).toBe('unknown_field');
  });

  it('lists all teams for admins and managers, only their own for members and guests', async () => {
    await t.request('POST', '/v1/teams/', { key: p.adminKey, body: { name: 'Sales' } });
    expect((await t.request('GET', '/v1/teams/', { key: p.adminKey })).body.count).toBe(2);
    expect((await t.request('GET', '/v1/teams/', { key: p.manager.key })).body.count).toBe(2);
    const member = await t.request('GET', '/v1/teams/', { key: p.member.key });
    expect(member.body.results.map((x: { name: string }) => x.name)).toEqual(['Platform']);
    expect(member.body.results[0].members_count).toBe(2);
    expect((await t.request('GET', '/v1/teams/', { key: p.other.key })).body.count).toBe(0);
    expect((await t.request('GET', '/v1/teams/?search=sal', { key: p.adminKey })).body.results[0].name).toBe('Sales');
    // A team the caller is not in is as absent as a missing one.
    const missing = await t.request('GET', `/v1/teams/${MISSING}/`, { key: p.other.key });
    const hidden = await t.request('GET', `/v1/teams/${team.uuid}/`, { key: p.other.key });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(missing.body);
    expect((await t.request('GET', `/v1/teams/${team.uuid}/members/`, { key: p.other.key })).status).toBe(404);
  });

  it('answers the members as a bare array of {uuid, full_name, email}; adds idempotently and removes', async () => {
    const members = await t.request('GET', `/v1/teams/${team.uuid}/members/`, { key: p.member.key });
    expect(members.status).toBe(200);
    expect(members.body).toEqual([
      { uuid: p.guest.user.uuid, full_name: 'Gus Member', email: 'gus@acme.test' },
      { uuid: p.member.user.uuid, full_name: 'Mia Member', email: 'mia@acme.test' },
    ]);
    const again = await t.request('POST', `/v1/teams/${team.uuid}/member/`, { key: p.manager.key, body: { members: [{ uuid: p.member.user.uuid }, { uuid: p.other.user.uuid }] } });
    expect(again.status).toBe(200);
    expect(again.body.members_count).toBe(3);
    const removed = await t.request('DELETE', `/v1/teams/${team.uuid}/member/${p.guest.user.uuid}/`, { key: p.manager.key });
    expect(removed.status).toBe(204);
    expect((await t.request('GET', `/v1/teams/${team.uuid}/members/`, { key: p.adminKey })).body).toHaveLength(2);
    expect((await t.request('DELETE', `/v1/teams/${team.uuid}/member/${p.guest.user.uuid}/`, { key: p.manager.key })).status).toBe(404);
    const events = (await t.db('organization_events').orderBy('uuid')).map((e: { event: string }) => e.event);
    expect(events.filter((e: string) => e === 'organization.team_user_added')).toHaveLength(3);
    expect(events.filter((e: string) => e === 'organization.team_user_removed')).toHaveLength(1);
    const bad = await t.request('POST', `/v1/teams/${team.uuid}/member/`, { key: p.adminKey, body: { members: [{ uuid: MISSING }] } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ 'members.0.uuid': ['No user with this id in your organization.'] });
    expect((await t.request('POST', `/v1/teams/${team.uuid}/member/`, { key: p.adminKey, body: { members: [{ uuid: p.other.user.uuid, role: 'lead' }] } })).body).toMatchObject({ code: 'unknown_field', extra: { parameter: 'members.0.role' } });
  });

  it('keeps organizations apart: 404 with the same body, and no foreign members', async () => {
    const globex = await seedPeople(t, { name: 'Globex' });
    const missing = await t.request('GET', `/v1/teams/${MISSING}/`, { key: globex.adminKey });
    for (const [method, path, body] of [
      ['GET', `/v1/teams/${team.uuid}/`, undefined],
      ['PATCH', `/v1/teams/${team.uuid}/`, { name: 'x' }],
      ['DELETE', `/v1/teams/${team.uuid}/`, undefined],
      ['GET', `/v1/teams/${team.uuid}/members/`, undefined],
      ['POST', `/v1/teams/${team.uuid}/member/`, { members: [{ uuid: globex.member.user.uuid }] }],
      ['DELETE', `/v1/teams/${team.uuid}/member/${p.member.user.uuid}/`, undefined],
    ] as const) {
      const res = await t.request(method, path, { key: globex.adminKey, body });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(missing.body);
    }
    const own = (await t.request('POST', '/v1/teams/', { key: globex.adminKey, body: { name: 'G' } })).body;
    const foreign = await t.request('POST', `/v1/teams/${own.uuid}/member/`, { key: globex.adminKey, body: { members: [{ uuid: p.member.user.uuid }] } });
    expect(foreign.body).toEqual({ 'members.0.uuid': ['No user with this id in your organization.'] });
  });
});
