import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { seedPeople, subscribeToAllEvents } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';
import { startSmtpSink } from '../../../test/receivers.ts';
import { signInCodeFor } from '../../../test/sign-in.ts';

const APP = 'https://rollcall.acme.test';
const DAY = 24 * 3600 * 1000;

/**
 * Accepting an invitation: the e-mail's link (POST /v1/invitations/accept/, with or without the web app's session),
 * once and for 7 days, and the e-mailed-code sign-in, which accepts a waiting invitation too.
 */
describe('accepting an invitation', () => {
  let t: TestApp;
  let p: People;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeEach(async () => {
    sink = await startSmtpSink();
    t = await startTestApp({}, { SMTP_URL: sink.url, PUBLIC_URL: APP });
    p = await seedPeople(t);
    await subscribeToAllEvents(t, p.adminKey);
  });
  afterEach(async () => {
    await t.close();
    await sink.close();
  });

  describe('POST /v1/invitations/accept/', () => {
    const invite = async (email = 'nia@acme.test') => (await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email } })).body;
    /** The token of the newest invitation e-mail to `to`, as the person's mailbox shows it. */
    async function tokenFor(to: string): Promise<string> {
      await t.deps.delivery.runDue();
      const mail = sink.messages.filter((m) => m.envelopeTo.includes(to)).at(-1);
      const match = new RegExp(`${APP}/app/invitations/accept\\?token=([0-9A-Za-z]{40})`).exec(mail?.text ?? '');
      if (!match) throw new Error(`no invitation e-mailed to ${to}: ${mail?.text}`);
      return match[1];
    }
    const accept = (body: Record<string, unknown>, headers: Record<string, string> = {}) => t.request('POST', '/v1/invitations/accept/', { body, headers });

    it('makes the person an active member with the e-mailed token, once; a resend replaces the older link', async () => {
      const invited = await invite();
      const first = await tokenFor('nia@acme.test');
      await invite();
      const old = await accept({ token: first });
      expect(old.status).toBe(404);
      expect(old.body).toEqual({
        detail: 'This invitation link is not valid: a newer invitation e-mail replaced it, the invitation was revoked, or the link was cut short. Ask whoever invited you to send it again.',
        code: 'invitation_not_found',
      });
      const token = await tokenFor('nia@acme.test');
      const accepted = await accept({ token });
      expect(accepted.status).toBe(200);
      expect(accepted.headers.get('set-cookie')).toBeNull();
      expect(accepted.body).toEqual({
        detail: 'Invitation accepted.',
        user: expect.objectContaining({ uuid: invited.user.uuid, email: 'nia@acme.test', is_active: true, status: 'active', invitation: null }),
        organization: { uuid: p.org.uuid, name: 'Acme' },
      });
      expect(accepted.headers.get('ratelimit-policy')).toBe('"authentication";q=20;w=3600');
      const events = await t.db('organization_events').where({ event: 'organization.user_activated' });
      expect(events.map((e) => JSON.parse(e.payload))).toEqual([expect.objectContaining({ user: { uuid: invited.user.uuid, full_name: 'nia@acme.test', email: 'nia@acme.test' }, by: null })]);

      const again = await accept({ token });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ detail: 'This invitation was already accepted. Sign in with your e-mail address: Rollcall e-mails you a code.', code: 'invitation_already_accepted' });
      expect((await t.request('GET', '/v1/users/?search=nia', { key: p.member.key })).body.count).toBe(1);
      expect((await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email: 'nia@acme.test' } })).body.code).toBe('user_already_exists');
      expect((await accept({ token: 'short' })).body).toEqual({ token: ['Not an invitation token.'] });
      expect((await accept({ token: 'x'.repeat(40) })).body.code).toBe('invitation_not_found');
    });

    it('expires 7 days after its e-mail (400 invitation_expired); a resend gives a new week', async () => {
      const invited = await invite();
      const token = await tokenFor('nia@acme.test');
      t.clock.advance(7 * DAY);
      const expired = await accept({ token, session: true }, { origin: APP });
      expect(expired.status).toBe(400);
      expect(expired.body).toEqual({
        detail: 'This invitation expired on 2026-03-17T15:00:00.000Z. Ask whoever invited you to send it again: the new e-mail\'s link works for 7 days.',
        code: 'invitation_expired',
        extra: { expired_at: '2026-03-17T15:00:00.000Z' },
      });
      expect(expired.headers.get('set-cookie')).toBeNull();
      expect((await t.request('GET', `/v1/users/${invited.user.uuid}/`, { key: p.adminKey })).body).toMatchObject({ is_active: false, status: 'invited', invitation: { status: 'expired' } });
      await invite();
      t.clock.advance(7 * DAY - 1000);
      expect((await accept({ token: await tokenFor('nia@acme.test') })).status).toBe(200);
    });

    it('with session: true also signs the person in: the rollcall_session cookie, as POST /v1/cli/auth/session/ sets it', async () => {
      const invited = await invite();
      const token = await tokenFor('nia@acme.test');
      const res = await t.request('POST', '/v1/invitations/accept/', { body: { token, session: true }, headers: { origin: APP }, example: true });
      expect(res.status).toBe(200);
      const setCookie = res.headers.get('set-cookie')!;
      expect(setCookie).toMatch(/^rollcall_session=rct_[0-9A-Za-z]{48}; Path=\/v1\/; Max-Age=2592000; HttpOnly; SameSite=Strict$/);
      expect(res.body).toMatchObject({ detail: 'Invitation accepted.', authenticated: true, expires_at: '2026-04-09T15:00:00.000Z', user: { uuid: invited.user.uuid, status: 'active' } });
      expect(JSON.stringify(res.body)).not.toContain('rct_');
      const me = await t.request('GET', '/v1/me/', { headers: { cookie: setCookie.split(';')[0] } });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ uuid: invited.user.uuid, email: 'nia@acme.test', organization: { uuid: p.org.uuid, name: 'Acme' } });
    });

    it('sets a session only for the app\'s own pages (403 cross_origin_request), and then accepts nothing', async () => {
      await invite();
      const token = await tokenFor('nia@acme.test');
      const foreign = await accept({ token, session: true }, { origin: 'https://evil.example' });
      expect(foreign.status).toBe(403);
      expect(foreign.body).toEqual({ detail: "A session is set only for Rollcall's own pages; this request came from another site (https://evil.example).", code: 'cross_origin_request' });
      const none = await accept({ token, session: true });
      expect(none.status).toBe(403);
      expect(none.body.code).toBe('cross_origin_request');
      expect(none.headers.get('set-cookie')).toBeNull();
      expect((await t.request('GET', '/v1/users/?status=invited', { key: p.adminKey })).body.count).toBe(1);
      expect((await accept({ token, session: true }, { origin: APP })).status).toBe(200);
    });

    it('redirects the links of e-mails sent before 1.8.0 (/invitations/accept?token=…) to the app\'s page', async () => {
      const res = await fetch(`${t.url}/invitations/accept?token=abc123`, { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/app/invitations/accept?token=abc123');
    });
  });

  describe('signing in with the e-mailed code while invited', () => {
    const lastMailTo = (to: string) => sink.messages.filter((m) => m.envelopeTo.includes(to)).at(-1)!;

    it('accepts the waiting invitation: the code e-mail says so, and the person signs in as a member', async () => {
      const invited = (await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email: 'nia@acme.test' } })).body;
      await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'nia@acme.test' } });
      const code = await signInCodeFor(t, sink, 'nia@acme.test');
      expect(lastMailTo('nia@acme.test').text).toContain('You are signing in to Acme. Signing in accepts your invitation to Acme.');
      const res = await t.request('POST', '/v1/cli/auth/session/', { body: { email: 'nia@acme.test', code }, headers: { origin: APP } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ authenticated: true, user: { uuid: invited.user.uuid }, organization: { uuid: p.org.uuid } });
      expect((await t.request('GET', `/v1/users/${invited.user.uuid}/`, { key: p.adminKey })).body).toMatchObject({ is_active: true, status: 'active', invitation: null });
      expect((await t.db('invitations').where({ uuid: invited.uuid }).first())?.accepted_at).toBe('2026-03-10T15:00:00.000Z');
      // The link of the invitation e-mail has done its work.
      await t.deps.delivery.runDue();
      const token = /token=([0-9A-Za-z]{40})/.exec(sink.messages.find((m) => m.subject?.includes('invited you'))?.text ?? '')![1];
      expect((await t.request('POST', '/v1/invitations/accept/', { body: { token } })).body.code).toBe('invitation_already_accepted');
    });

    it('after the invitation expired: the e-mail says so and the code signs nobody in; a resend opens it again', async () => {
      await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email: 'nia@acme.test' } });
      t.clock.advance(8 * DAY);
      const asked = await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'nia@acme.test' } });
      // The same answer as for any address.
      expect(asked.body).toEqual((await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'nobody@acme.test' } })).body);
      await t.deps.delivery.runDue();
      const mail = lastMailTo('nia@acme.test');
      expect(mail.text).toBe(
        `Someone asked to sign in to Rollcall at ${APP} with this address. Your invitation to Acme expired before it was accepted.\n\n` +
          "Ask whoever invited you to send it again: the new e-mail's link works for 7 days, and signing in with this address accepts it too.\n\n" +
          'If it was not you, you can ignore this e-mail.\n',
      );
      expect(mail.text).not.toMatch(/\d{6}/);
      const verify = await t.request('POST', '/v1/cli/auth/verify-code/', { body: { email: 'nia@acme.test', code: '123456' } });
      expect(verify.status).toBe(400);
      expect(verify.body.code).toBe('invalid_code');

      await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email: 'nia@acme.test' } });
      await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'nia@acme.test' } });
      const signedIn = await t.request('POST', '/v1/cli/auth/verify-code/', { body: { email: 'nia@acme.test', code: await signInCodeFor(t, sink, 'nia@acme.test') } });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.token).toMatch(/^rct_/);
      expect((await t.request('GET', '/v1/me/', { token: signedIn.body.token })).body.email).toBe('nia@acme.test');
    });

    it('a revoked invitation signs nobody in: the address has no account again', async () => {
      const invited = (await t.request('POST', '/v1/invite-user/', { key: p.adminKey, body: { email: 'nia@acme.test' } })).body;
      await t.request('DELETE', `/v1/invitations/${invited.uuid}/`, { key: p.adminKey });
      await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'nia@acme.test' } });
      await t.deps.delivery.runDue();
      expect(lastMailTo('nia@acme.test').text).toContain('but no account uses it');
      // The invitation e-mail itself was never sent: it was still waiting when the invitation was revoked.
      expect(sink.messages.filter((m) => m.envelopeTo.includes('nia@acme.test'))).toHaveLength(1);
    });
  });
});
