import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { startSmtpSink } from '../../../test/receivers.ts';
import { signInCodeFor } from '../../../test/sign-in.ts';
import { createOrganization } from '../organization/service.ts';
import { createUser, setUserActive } from '../users/repository.ts';
import { pruneSignInCodes } from './service.ts';

const DETAIL = 'Authentication credentials were not provided.';
const REQUESTED = {
  detail: 'If an account uses this address, a six-digit sign-in code is on its way. It is valid for 10 minutes.',
  is_multi_org: false,
  organizations: [],
};

describe('command-line sign-in (spec "CLI Bearer token", CONTRACT §4)', () => {
  let t: TestApp;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeEach(async () => {
    sink = await startSmtpSink();
    t = await startTestApp({}, { SMTP_URL: sink.url, PUBLIC_URL: 'https://rollcall.acme.test' });
  });
  afterEach(async () => {
    await t.close();
    await sink.close();
  });

  const codeFor = (to: string) => signInCodeFor(t, sink, to);

  it('e-mails a code through the outbox, signs in with it for 30 days, then answers credential_expired', async () => {
    const acme = await t.seedOrganization();
    const requested = await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'ADMIN@acme.test' } });
    expect(requested.status).toBe(200);
    expect(requested.body).toEqual(REQUESTED);
    expect(requested.headers.get('ratelimit-policy')).toBe('"authentication";q=20;w=3600');

    const code = await codeFor('admin@acme.test');
    const mail = sink.messages.at(-1)!;
    expect(mail.subject).toBe('Your Rollcall sign-in code');
    expect(mail.text).toContain('It is valid for 10 minutes and can be tried 5 times. You are signing in to Acme.');
    expect(mail.text).toContain('If you did not ask to sign in at https://rollcall.acme.test');
    // Neither the outbox row nor the code table holds the code in clear; the log never shows it.
    const row = (await t.db('deliveries').where({ kind: 'cli_sign_in' }).first())!;
    expect(row.payload).not.toContain(code);
    expect(row.payload).toContain('{{secret}}');
    expect(row.organization_uuid).toBeNull();
    expect(JSON.stringify(await t.db('cli_sign_in_codes'))).not.toContain(code);
    expect(t.logs.join('\n')).not.toContain(code);

    const verified = await t.request('POST', '/v1/cli/auth/verify-code/', { body: { email: 'admin@acme.test', code } });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({
      token: expect.stringMatching(/^rct_[0-9A-Za-z]{48}$/),
      expires_at: '2026-04-09T15:00:00.000Z',
      organization: { id: acme.org.uuid, uuid: acme.org.uuid, name: 'Acme', plan: 'pro' },
      user: { uuid: acme.admin.uuid, email: 'admin@acme.test', full_name: 'Ada Admin' },
    });
    const token = verified.body.token as string;
    expect(JSON.stringify(await t.db('cli_tokens'))).not.toContain(token);
    expect((await t.request('GET', '/v1/me/', { token })).body).toMatchObject({ uuid: acme.admin.uuid, organization_uuid: acme.org.uuid });
    // A code signs in once.
    const again = await t.request('POST', '/v1/cli/auth/verify-code/', { body: { email: 'admin@acme.test', code } });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('code_expired');

    t.clock.advance(30 * 24 * 3600 * 1000 - 1000);
    expect((await t.request('GET', '/v1/cli/auth/status/', { token })).status).toBe(200);
    t.clock.advance(1000);
    const expired = await t.request('GET', '/v1/cli/auth/status/', { token });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ detail: DETAIL, code: 'credential_expired' });
  });

  it('answers a known and an unknown address alike: same status, body and outbox behaviour', async () => {
    await t.seedOrganization();
    const known = await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'admin@acme.test' } });
    const unknown = await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'nobody@acme.test' } });
    expect(unknown.status).toBe(known.status);
    expect(unknown.text).toBe(known.text);
    expect([...unknown.headers.keys()].sort()).toEqual([...known.headers.keys()].sort());
    // One e-mail to each address, each with its code sealed beside it, and one code row each.
    const rows = await t.db('deliveries').where({ kind: 'cli_sign_in' }).orderBy('created_at');
    expect(rows.map((r) => [r.destination, r.channel, r.status, r.organization_uuid, typeof r.secret_encrypted])).toEqual([
      ['admin@acme.test', 'email', 'pending', null, 'string'],
      ['nobody@acme.test', 'email', 'pending', null, 'string'],
    ]);
    expect((await t.db('cli_sign_in_codes').select('email')).map((r) => r.email).sort()).toEqual(['admin@acme.test', 'nobody@acme.test']);
    await t.deps.delivery.runDue();
    const toNobody = sink.messages.find((m) => m.envelopeTo.includes('nobody@acme.test'))!;
    expect(toNobody.subject).toBe('Rollcall sign-in');
    expect(toNobody.text).toContain('no account uses it');
    expect(toNobody.text).not.toMatch(/\d{6}/);
    // Verifying for an address without an account is refused like a wrong code.
    const guess = await t.request('POST', '/v1/cli/auth/verify-code/', { body: { email: 'nobody@acme.test', code: '123456' } });
    expect(guess.status).toBe(400);
    expect(guess.body).toEqual({ detail: 'That code is not right. Check the latest sign-in e-mail.', code: 'invalid_code', extra: { attempts_left: 4 } });
    // A deactivated account is no account.
    const member = await t.seedUser((await t.db('organizations').first())!.uuid, { email: 'gone@acme.test' });
    await setUserActive(t.db, member.user.uuid, false, t.clock.now());
    await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'gone@acme.test' } });
    await t.deps.delivery.runDue();
    expect(sink.messages.find((m) => m.envelopeTo.includes('gone@acme.test'))!.subject).toBe('Rollcall sign-in');
  });

  it('refuses the right code after five wrong ones, and a code older than 10 minutes', async () => {
    await t.seedOrganization();
    await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'admin@acme.test' } });
    const code = await codeFor('admin@acme.test');
    const wrong = code === '000000' ? '111111' : '000000';
    const lefts: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.request('POST', '/v1/cli/auth/verify-code/', { body: { email: 'admin@acme.test', code: wrong } });
      expect(res.status).toBe(400);
      lefts.push(res.body.extra.attempts_left);
    }
    expect(lefts).toEqual([4, 3, 2, 1, 0]);
    const refused = await t.request('POST', '/v1/cli/auth/verify-code/', { body: { email: 'admin@acme.test', code } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      detail: 'This code is no longer valid: it expired after 10 minutes, was used, or was tried 5 times. Ask for a new code.',
      code: 'code_expired',
    });

    await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'admin@acme.test' } });
    const fresh = await codeFor('admin@acme.test');
    t.clock.advance(10 * 60 * 1000);
    expect((await t.request('POST', '/v1/cli/auth/verify-code/', { body: { email: 'admin@acme.test', code: fresh } })).body.code).toBe('code_expired');

    // A newer code replaces the one before it.
    await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'admin@acme.test' } });
    const first = await codeFor('admin@acme.test');
    await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'admin@acme.test' } });
    const second = await codeFor('admin@acme.test');
    if (first !== second) expect((await t.request('POST', '/v1/cli/auth/verify-code/', { body: { email: 'admin@acme.test', code: first } })).body.code).toBe('invalid_code');
    expect((await t.request('POST', '/v1/cli/auth/verify-code/', { body: { email: 'admin@acme.test', code: second } })).status).toBe(200);

    // The hourly job drops codes a day past their expiry.
    t.clock.advance(25 * 3600 * 1000);
    const stored = (await t.db('cli_sign_in_codes')).length;
    expect(stored).toBe(4);
    expect(await pruneSignInCodes(t.db, t.clock.now())).toBe(stored);
  });

  it('asks which organization when the address is in several, and signs in to the one chosen', async () => {
    const acme = await t.seedOrganization();
    const globex = await createOrganization(t.db, { name: 'Globex', plan: 'free', planBetaEnabled: false }, t.clock.now());
    const there = await createUser(t.db, { organizationUuid: globex.uuid, email: 'admin@acme.test', firstName: 'Ada', role: 'member' }, t.clock.now());
    await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'admin@acme.test' } });
    const code = await codeFor('admin@acme.test');
    expect(sink.messages.at(-1)!.text).toContain('You can sign in to Acme, Globex.');

    const choose = await t.request('POST', '/v1/cli/auth/verify-code/', { body: { email: 'admin@acme.test', code } });
    expect(choose.status).toBe(200);
    expect(choose.body).toEqual({
      requires_organization_selection: true,
      detail: 'This address belongs to several organizations: send the same code again with organization_id.',
      organizations: [
        { id: acme.org.uuid, uuid: acme.org.uuid, name: 'Acme' },
        { id: globex.uuid, uuid: globex.uuid, name: 'Globex' },
      ],
    });
    const elsewhere = await t.request('POST', '/v1/cli/auth/verify-code/', { body: { email: 'admin@acme.test', code, organization_id: '0190c8f4-0000-7000-8000-000000000000' } });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toEqual({ detail: 'This address has no account in that organization.', code: 'invalid_organization', extra: { parameter: 'organization_id' } });

    const signedIn = await t.request('POST', '/v1/cli/auth/verify-code/', { body: { email: 'admin@acme.test', code, organization_id: globex.uuid } });
    expect(signedIn.body.organization).toEqual({ id: globex.uuid, uuid: globex.uuid, name: 'Globex', plan: 'free' });
    expect(signedIn.body.user.uuid).toBe(there.uuid);
    const status = await t.request('GET', '/v1/cli/auth/status/', { token: signedIn.body.token });
    expect(status.body).toEqual({
      authenticated: true,
      user: { uuid: there.uuid, email: 'admin@acme.test', full_name: 'Ada' },
      organization: { id: globex.uuid, uuid: globex.uuid, name: 'Globex' },
    });
  });

  it('answers auth/status for either credential, and logout (CLI tokens only) revokes at once', async () => {
    const acme = await t.seedOrganization();
    const token = await t.seedToken(acme.org.uuid, acme.admin.uuid);
    const byKey = await t.request('GET', '/v1/cli/auth/status/', { key: acme.adminKey });
    const byToken = await t.request('GET', '/v1/cli/auth/status/', { token });
    expect(byKey.status).toBe(200);
    expect(byToken.body).toEqual(byKey.body);

    const withKey = await t.request('POST', '/v1/cli/auth/logout/', { key: acme.adminKey });
    expect(withKey.status).toBe(403);
    expect(withKey.body).toEqual({ detail: 'This endpoint does not accept API keys; sign in with the command-line client.', code: 'credential_not_accepted' });

    expect((await t.request('GET', '/v1/me/', { token })).status).toBe(200); // cached now
    const out = await t.request('POST', '/v1/cli/auth/logout/', { token });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ detail: 'Signed out: this token no longer works.' });
    const after = await t.request('GET', '/v1/me/', { token });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ detail: DETAIL, code: 'invalid_credentials' });
  });

  it('counts the authentication budget per client address and per e-mail address (429 throttled, Retry-After)', async () => {
    await t.close();
    // The test's requests come through a trusted proxy on loopback, which names each client in X-Forwarded-For.
    t = await startTestApp({}, { SMTP_URL: sink.url, RATE_LIMIT_AUTHENTICATION: '3', TRUST_PROXY: 'loopback' });
    await t.seedOrganization();
    // Per e-mail: the fourth request for one address is refused, whatever the client address.
    for (let i = 0; i < 3; i++) {
      const res = await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'admin@acme.test' }, headers: { 'x-forwarded-for': `203.0.113.${i}` } });
      expect(res.status).toBe(200);
    }
    const perEmail = await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'admin@acme.test' }, headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(perEmail.status).toBe(429);
    expect(perEmail.body).toEqual({ detail: 'Request was throttled. Expected available in 3600 seconds.', code: 'throttled', extra: { retry_after: 3600 } });
    expect(perEmail.headers.get('retry-after')).toBe('3600');
    // Per client address: the same address is refused on its fourth call, for any e-mail and junk bodies too.
    const from = { 'x-forwarded-for': '198.51.100.7' };
    expect((await t.request('POST', '/v1/cli/auth/verify-code/', { body: { email: 'a@x.test', code: '000000' }, headers: from })).status).toBe(400);
    expect((await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'b@x.test' }, headers: from })).status).toBe(200);
    expect((await t.request('POST', '/v1/cli/auth/request-code/', { body: { nope: true }, headers: from })).status).toBe(400);
    const perAddress = await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'c@x.test' }, headers: from });
    expect(perAddress.status).toBe(429);
    expect(perAddress.body.code).toBe('throttled');
    // The next hour starts afresh.
    t.clock.advance(3600 * 1000);
    expect((await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'c@x.test' }, headers: from })).status).toBe(200);
  });

  it('validates the bodies with field maps', async () => {
    const bad = await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'not-an-address' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ email: ['Enter a valid e-mail address.'] });
    const code = await t.request('POST', '/v1/cli/auth/verify-code/', { body: { email: 'a@x.test', code: '12a456' } });
    expect(code.body).toEqual({ code: ['Enter the six digits of the code.'] });
    const extra = await t.request('POST', '/v1/cli/auth/verify-code/', { body: { email: 'a@x.test', code: '123456', remember: true } });
    expect(extra.body).toEqual({ detail: 'Unknown field: remember.', code: 'unknown_field', extra: { parameter: 'remember' } });
  });
});
