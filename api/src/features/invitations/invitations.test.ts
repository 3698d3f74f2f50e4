import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { MISSING, seedPeople } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';

describe('POST /v1/invite-user/ (CONTRACT §3)', () => {
  let t: TestApp;
  let p: People;
  beforeEach(async () => {
    t = await startTestApp({ publicUrl: 'https://rollcall.example' });
    p = await seedPeople(t);
  });
  afterEach(async () => t.close());

  it('creates an inactive user, puts them in the teams and keeps the invitation e-mail in the outbox', async () => {
    const team = (await t.request('POST', '/v1/teams/', { key: p.adminKey, body: { name: 'Platform' } })).body;
    const res = await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email: 'New.Person@Acme.test', first_name: 'Nia', last_name: 'New', team_uuids: [team.uuid] } });
    expect(res.status).toBe(201);
    expect(res.headers.get('ratelimit-policy')).toBe('"invitations";q=100;w=3600');
    expect(res.body).toMatchObject({
      email: 'new.person@acme.test', role: 'member', status: 'pending', resent: false, sent_count: 1, team_uuids: [team.uuid],
      invited_by_uuid: p.admin.uuid,
      user: { email: 'new.person@acme.test', full_name: 'Nia New', role: 'member', is_active: false },
    });
    const mail = await t.db('deliveries').where({ kind: 'invitation' });
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ channel: 'email', destination: 'new.person@acme.test', status: 'pending', organization_uuid: p.org.uuid });
    const message = JSON.parse(mail[0].payload);
    expect(message.subject).toBe('Ada Admin invited you to Acme on Rollcall');
    expect(message.text).toMatch(/https:\/\/rollcall\.example\/invitations\/accept\?token=[0-9A-Za-z]{40}/);
    // Only the token's hash is stored with the invitation.
    const token = /token=([0-9A-Za-z]{40})/.exec(message.text)![1];
    expect(JSON.stringify(await t.db('invitations').select())).not.toContain(token);
    const members = await t.request('GET', `/v1/teams/${team.uuid}/members/`, { key: p.adminKey });
    expect(members.body.map((m: { email: string }) => m.email)).toEqual(['new.person@acme.test']);
    // Pending people are visible to admins, not in the members' directory.
    expect((await t.request('GET', '/v1/users/?is_active=false', { key: p.adminKey })).body.count).toBe(1);
    expect((await t.request('GET', '/v1/users/?search=nia', { key: p.member.key })).body.count).toBe(0);
  });

  it('resends to a pending address (200, a new link) and answers duplicates clearly', async () => {
    await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email: 'nia@acme.test' } });
    t.clock.advance(60_000);
    const again = await t.request('POST', '/v1/invite-user/', { key: p.manager.key, body: { email: 'nia@acme.test' } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ resent: true, sent_count: 2, last_sent_at: '2026-03-10T15:01:00.000Z', status: 'pending' });
    const mails = await t.db('deliveries').where({ kind: 'invitation' }).orderBy('uuid');
    expect(mails).toHaveLength(2);
    expect(JSON.parse(mails[0].payload).text).not.toBe(JSON.parse(mails[1].payload).text);
    expect(await t.db('users').where({ email: 'nia@acme.test' })).toHaveLength(1);

    const existing = await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email: 'mia@acme.test' } });
    expect(existing.status).toBe(409);
    expect(existing.body).toEqual({ detail: 'A user with this e-mail address is already a member of the organization.', code: 'user_already_exists', extra: { user_uuid: p.member.user.uuid } });
    await t.request('PATCH', `/v1/users/${p.other.user.uuid}/`, { key: p.adminKey, body: { is_active: false } });
    const deactivated = await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email: 'otto@acme.test' } });
    expect(deactivated.status).toBe(409);
    expect(deactivated.body.code).toBe('user_deactivated');
  });

  it('invites guests, and lets only admins invite admins; members and guests may not invite', async () => {
    const guest = await t.request('POST', '/v1/invite-user/', { key: p.manager.key, body: { email: 'g2@acme.test', is_guest: true } });
    expect(guest.body.role).toBe('guest');
    const conflicting = await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email: 'g3@acme.test', is_guest: true, role: 'manager' } });
    expect(conflicting.body).toEqual({ role: ['Contradicts is_guest: true.'] });
    const admin = await t.request('POST', '/v1/invite-user/', { key: p.manager.key, body: { email: 'boss@acme.test', role: 'admin' } });
    expect(admin.status).toBe(403);
    expect(admin.body.code).toBe('org_admin_required');
    expect((await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email: 'boss@acme.test', role: 'admin' } })).status).toBe(201);
    for (const who of [p.member, p.guest]) {
      const res = await t.request('POST', '/v1/invite-user/', { key: who.key, body: { email: 'x@acme.test' } });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('org_manager_required');
    }
  });

  it('validates the body: e-mail, unknown fields, teams of the organization', async () => {
    expect((await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email: 'not-an-email' } })).body).toEqual({ email: ['Enter a valid e-mail address.'] });
    expect((await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: {} })).body).toEqual({ email: ['This field is required.'] });
    expect((await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email: 'a@b.test', message: 'hi' } })).body.code).toBe('unknown_field');
    const team = await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email: 'a@b.test', team_uuids: [MISSING] } });
    expect(team.body).toEqual({ 'team_uuids.0': ['No team with this id in your organization.'] });
    expect(await t.db('users').where({ email: 'a@b.test' })).toHaveLength(0);
  });

  it('has its own hourly budget (invitations scope)', async () => {
    await t.close();
    t = await startTestApp({ hourlyBudgets: { reads: 5000, writes: 1000, messaging: 300, email: 200, invitations: 2, workflow_triggers: 200, agent: 2000, authentication: 20 } });
    p = await seedPeople(t);
    for (const n of [1, 2]) expect((await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email: `n${n}@acme.test` } })).status).toBe(201);
    const third = await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email: 'n3@acme.test' } });
    expect(third.status).toBe(429);
    expect(third.body.code).toBe('throttled');
    expect((await t.request('POST', '/v1/teams/', { key: p.adminKey, body: { name: 'still fine' } })).status).toBe(201);
  });
});

describe('POST /v1/invitations/accept/', () => {
  let t: TestApp;
  let p: People;
  beforeEach(async () => {
    t = await startTestApp();
    p = await seedPeople(t);
  });
  afterEach(async () => t.close());

  const tokenOf = async (index: number) => /token=([0-9A-Za-z]{40})/.exec(JSON.parse((await t.db('deliveries').where({ kind: 'invitation' }).orderBy('uuid'))[index].payload).text)![1];

  it('activates the invited user with the e-mailed token, once; a resend replaces the older link', async () => {
    const invited = await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email: 'nia@acme.test' } });
    await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email: 'nia@acme.test' } });
    const old = await t.request('POST', '/v1/invitations/accept/', { body: { token: await tokenOf(0) } });
    expect(old.status).toBe(404);
    const accepted = await t.request('POST', '/v1/invitations/accept/', { body: { token: await tokenOf(1) } });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ detail: 'Invitation accepted.', user: { uuid: invited.body.user.uuid, is_active: true }, organization: { uuid: p.org.uuid, name: 'Acme' } });
    expect(accepted.headers.get('ratelimit-policy')).toBe('"authentication";q=20;w=3600');
    const again = await t.request('POST', '/v1/invitations/accept/', { body: { token: await tokenOf(1) } });
    expect(again.body.code).toBe('invitation_already_accepted');
    expect((await t.request('GET', '/v1/users/?search=nia', { key: p.member.key })).body.count).toBe(1);
    expect((await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email: 'nia@acme.test' } })).body.code).toBe('user_already_exists');
    expect((await t.request('POST', '/v1/invitations/accept/', { body: { token: 'short' } })).body).toEqual({ token: ['Not an invitation token.'] });
  });
});
