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

  it('creates an invited user, puts them in the teams and keeps an e-mail linking to the app\'s acceptance page in the outbox', async () => {
    const team = (await t.request('POST', '/v1/teams/', { key: p.adminKey, body: { name: 'Platform' } })).body;
    const res = await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email: 'New.Person@Acme.test', first_name: 'Nia', last_name: 'New', team_uuids: [team.uuid] }, example: true });
    expect(res.status).toBe(201);
    expect(res.headers.get('ratelimit-policy')).toBe('"invitations";q=100;w=3600');
    const invitation = { uuid: res.body.uuid, status: 'pending', sent_at: '2026-03-10T15:00:00.000Z', expires_at: '2026-03-17T15:00:00.000Z', sent_count: 1, invited_by_uuid: p.admin.uuid };
    expect(res.body).toMatchObject({
      email: 'new.person@acme.test', role: 'member', status: 'pending', resent: false, sent_count: 1, team_uuids: [team.uuid],
      invited_by_uuid: p.admin.uuid, expires_at: '2026-03-17T15:00:00.000Z',
      user: { email: 'new.person@acme.test', full_name: 'Nia New', role: 'member', is_active: false, status: 'invited', invitation },
    });
    const mail = await t.db('deliveries').where({ kind: 'invitation' });
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ channel: 'email', destination: 'new.person@acme.test', status: 'pending', organization_uuid: p.org.uuid, ref_uuid: res.body.uuid });
    const message = JSON.parse(mail[0].payload);
    expect(message.subject).toBe('Ada Admin invited you to Acme on Rollcall');
    const token = /token=([0-9A-Za-z]{40})/.exec(message.text)![1];
    expect(message.text).toBe(
      'Hi Nia,\n\nAda Admin invited you to join Acme on Rollcall, where the team shares its check-ins.\n\n' +
        `Accept the invitation: https://rollcall.example/app/invitations/accept?token=${token}\n\n` +
        'The link signs you in. It works once, until 2026-03-17 15:00 UTC. Afterwards, sign in at https://rollcall.example/app/ with this address: Rollcall e-mails you a code.\n\n' +
        'If you did not expect this e-mail you can ignore it.\n',
    );
    // Only the token's hash is stored with the invitation.
    expect(JSON.stringify(await t.db('invitations').select())).not.toContain(token);
    const members = await t.request('GET', `/v1/teams/${team.uuid}/members/`, { key: p.adminKey });
    expect(members.body.map((m: { email: string }) => m.email)).toEqual(['new.person@acme.test']);
    // Invited people are visible to admins and managers, with their state; not in the members' directory.
    const invited = await t.request('GET', '/v1/users/?status=invited&include_email=true', { key: p.adminKey, example: true });
    expect(invited.body.count).toBe(1);
    expect(invited.body.results[0]).toMatchObject({ uuid: res.body.user.uuid, email: 'new.person@acme.test', is_active: false, status: 'invited', invitation });
    expect((await t.request('GET', '/v1/users/?status=invited', { key: p.manager.key })).body.results[0]).toMatchObject({ uuid: res.body.user.uuid, status: 'invited', invitation });
    expect((await t.request('GET', `/v1/users/${res.body.user.uuid}/`, { key: p.adminKey })).body).toMatchObject({ status: 'invited', invitation });
    expect((await t.request('GET', '/v1/users/?is_active=false', { key: p.adminKey })).body.count).toBe(1);
    expect((await t.request('GET', '/v1/users/?status=deactivated', { key: p.adminKey })).body.count).toBe(0);
    expect((await t.request('GET', '/v1/users/?status=active', { key: p.adminKey })).body.count).toBe(5);
    expect((await t.request('GET', '/v1/users/?search=nia', { key: p.member.key })).body.count).toBe(0);
    const bad = await t.request('GET', '/v1/users/?status=pending', { key: p.adminKey });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ detail: 'status must be one of: active, invited, deactivated.', code: 'invalid_filter_value', extra: { parameter: 'status' } });

    // A week later the link has expired: the person is still invited, their invitation marked expired.
    t.clock.advance(7 * 24 * 3600 * 1000);
    expect((await t.request('GET', `/v1/users/${res.body.user.uuid}/`, { key: p.adminKey })).body.invitation).toEqual({ ...invitation, status: 'expired' });
  });

  it('links to the address the request reached when PUBLIC_URL is not set', async () => {
    await t.close();
    t = await startTestApp();
    p = await seedPeople(t);
    await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email: 'nia@acme.test' } });
    const [mail] = await t.db('deliveries').where({ kind: 'invitation' });
    expect(JSON.parse(mail.payload).text).toContain(`Accept the invitation: ${t.url}/app/invitations/accept?token=`);
  });

  it('resends to a pending address (200, a new link for 7 more days; the older e-mail, still waiting, is not sent) and answers duplicates clearly', async () => {
    await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email: 'nia@acme.test' } });
    t.clock.advance(60_000);
    const again = await t.request('POST', '/v1/invite-user/', { key: p.manager.key, body: { email: 'nia@acme.test' } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ resent: true, sent_count: 2, last_sent_at: '2026-03-10T15:01:00.000Z', expires_at: '2026-03-17T15:01:00.000Z', status: 'pending' });
    const mails = await t.db('deliveries').where({ kind: 'invitation' }).orderBy('uuid');
    expect(mails).toHaveLength(2);
    expect(JSON.parse(mails[0].payload).text).not.toBe(JSON.parse(mails[1].payload).text);
    expect(mails.map((m) => [m.status, m.last_error])).toEqual([['cancelled', 'replaced by a newer invitation e-mail'], ['pending', null]]);
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

describe('DELETE /v1/invitations/{uuid}/ (revoke)', () => {
  let t: TestApp;
  let p: People;
  beforeEach(async () => {
    t = await startTestApp({ publicUrl: 'https://rollcall.example' });
    p = await seedPeople(t);
  });
  afterEach(async () => t.close());

  const invite = async (body: Record<string, unknown>, key = p.adminKey) => (await t.request('POST', '/v1/invite-user/', { key, body })).body;
  const tokenOf = async (invitationUuid: string) => /token=([0-9A-Za-z]{40})/.exec(JSON.parse((await t.db('deliveries').where({ ref_uuid: invitationUuid }).orderBy('uuid')).at(-1)!.payload).text)![1];

  it('takes the invitation back: 204, the person and their places go, the waiting e-mail is not sent, the link stops, the address can be invited again', async () => {
    const team = (await t.request('POST', '/v1/teams/', { key: p.adminKey, body: { name: 'Platform' } })).body;
    const invited = await invite({ email: 'nia@acme.test', team_uuids: [team.uuid] });
    const token = await tokenOf(invited.uuid);
    const res = await t.request('DELETE', `/v1/invitations/${invited.uuid}/`, { key: p.manager.key, example: true });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await t.request('GET', `/v1/users/${invited.user.uuid}/`, { key: p.adminKey })).status).toBe(404);
    expect(await t.db('team_members').where({ user_uuid: invited.user.uuid })).toEqual([]);
    expect(await t.db('invitations').where({ uuid: invited.uuid })).toEqual([]);
    expect(await t.db('deliveries').where({ ref_uuid: invited.uuid }).select('status', 'last_error')).toEqual([{ status: 'cancelled', last_error: 'invitation revoked' }]);
    const accept = await t.request('POST', '/v1/invitations/accept/', { body: { token } });
    expect(accept.status).toBe(404);
    expect(accept.body.code).toBe('invitation_not_found');
    const again = await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email: 'nia@acme.test' } });
    expect(again.status).toBe(201);
    expect(again.body.resent).toBe(false);
    expect((await t.request('DELETE', `/v1/invitations/${invited.uuid}/`, { key: p.adminKey })).status).toBe(404);
  });

  it('refuses an accepted invitation (409: deactivate instead), members, managers on an admin\'s invitation, and other organizations\' (404)', async () => {
    const invited = await invite({ email: 'nia@acme.test' });
    const admin = await invite({ email: 'boss@acme.test', role: 'admin' });
    for (const who of [p.member, p.guest]) {
      const res = await t.request('DELETE', `/v1/invitations/${invited.uuid}/`, { key: who.key });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('org_manager_required');
    }
    const manager = await t.request('DELETE', `/v1/invitations/${admin.uuid}/`, { key: p.manager.key });
    expect(manager.status).toBe(403);
    expect(manager.body).toEqual({ detail: "Only organization admins can revoke an admin's invitation.", code: 'org_admin_required' });

    const other = await t.seedOrganization({ name: 'Globex' });
    const foreign = await t.request('DELETE', `/v1/invitations/${invited.uuid}/`, { key: other.adminKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual((await t.request('DELETE', `/v1/invitations/${MISSING}/`, { key: p.adminKey })).body);
    expect(foreign.body).toEqual({ detail: 'Not found.', code: 'not_found' });

    await t.request('POST', '/v1/invitations/accept/', { body: { token: await tokenOf(invited.uuid) } });
    const accepted = await t.request('DELETE', `/v1/invitations/${invited.uuid}/`, { key: p.adminKey });
    expect(accepted.status).toBe(409);
    expect(accepted.body).toEqual({
      detail: 'This invitation was accepted: nia@acme.test is a member. Deactivate them instead (PATCH /v1/users/{uuid}/ with is_active: false).',
      code: 'invitation_already_accepted',
      extra: { user_uuid: invited.user.uuid },
    });
    expect((await t.request('GET', `/v1/users/${invited.user.uuid}/`, { key: p.adminKey })).body.status).toBe('active');
  });
});
