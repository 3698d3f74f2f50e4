import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { startSmtpSink } from '../../../test/receivers.ts';
import { signInCodeFor } from '../../../test/sign-in.ts';

const APP = 'https://rollcall.acme.test';

/**
 * The web app's session: the e-mailed code traded for an HttpOnly, SameSite=Strict cookie, taken by the API as the
 * Bearer token it holds, refused on writes from another origin, ended by logout and by sign-out everywhere.
 */
describe('web session cookie (POST /v1/cli/auth/session/)', () => {
  let t: TestApp;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeEach(async () => {
    sink = await startSmtpSink();
    t = await startTestApp({}, { SMTP_URL: sink.url, PUBLIC_URL: APP });
  });
  afterEach(async () => {
    await t.close();
    await sink.close();
  });

  const codeFor = (to: string) => signInCodeFor(t, sink, to);

  /** Signs in through the code and returns the cookie pair (`rollcall_session=…`) and the whole Set-Cookie line. */
  async function signIn(email: string): Promise<{ cookie: string; setCookie: string; body: unknown }> {
    await t.request('POST', '/v1/cli/auth/request-code/', { body: { email } });
    const res = await t.request('POST', '/v1/cli/auth/session/', { body: { email, code: await codeFor(email) }, example: true });
    expect(res.status).toBe(200);
    const setCookie = res.headers.get('set-cookie')!;
    return { cookie: setCookie.split(';')[0], setCookie, body: res.body };
  }

  it('sets the token as an HttpOnly, SameSite=Strict cookie for /v1/ and never puts it in the body', async () => {
    const acme = await t.seedOrganization();
    const { cookie, setCookie, body } = await signIn('admin@acme.test');
    expect(setCookie).toMatch(/^rollcall_session=rct_[0-9A-Za-z]{48}; Path=\/v1\/; Max-Age=2592000; HttpOnly; SameSite=Strict$/);
    expect(body).toEqual({
      authenticated: true,
      expires_at: expect.any(String),
      organization: { id: acme.org.uuid, uuid: acme.org.uuid, name: 'Acme', plan: 'pro' },
      user: { uuid: acme.admin.uuid, email: 'admin@acme.test', full_name: expect.any(String) },
    });
    expect(JSON.stringify(body)).not.toContain('rct_');

    const status = await t.request('GET', '/v1/cli/auth/status/', { headers: { cookie: `theme=dark; ${cookie}` } });
    expect(status.status).toBe(200);
    expect(status.body.user.uuid).toBe(acme.admin.uuid);
    // The same token as a Bearer header: the cookie is that credential, nothing more.
    const token = cookie.slice('rollcall_session='.length);
    expect((await t.request('GET', '/v1/me/', { token })).body).toEqual((await t.request('GET', '/v1/me/', { headers: { cookie } })).body);
  });

  it('over HTTPS is __Host-rollcall_session (Secure, Path=/), the only name read there: a sibling subdomain cannot plant a session', async () => {
    for (const requireHttps of [true, false]) {
      const secure = await startTestApp({ requireHttps }, { SMTP_URL: sink.url, PUBLIC_URL: APP, TRUST_PROXY: 'loopback' });
      try {
        const acme = await secure.seedOrganization();
        const mia = await secure.seedUser(acme.org.uuid, { email: 'mia@acme.test' });
        const proto = { 'x-forwarded-proto': 'https' };
        await secure.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'admin@acme.test' }, headers: proto });
        await secure.deps.delivery.runDue();
        const code = /sign-in code is (\d{6})/.exec(sink.messages.at(-1)!.text ?? '')![1];
        const res = await secure.request('POST', '/v1/cli/auth/session/', { body: { email: 'admin@acme.test', code }, headers: proto });
        const lines = res.headers.getSetCookie();
        expect(lines, `REQUIRE_HTTPS ${requireHttps}`).toEqual([
          expect.stringMatching(/^__Host-rollcall_session=rct_[0-9A-Za-z]{48}; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Strict; Secure$/),
          // A plain-named session set before is dropped: it is no longer read over HTTPS.
          'rollcall_session=; Path=/v1/; Max-Age=0; HttpOnly; SameSite=Strict; Secure',
        ]);
        const session = lines[0].split(';')[0];
        const token = session.slice('__Host-rollcall_session='.length);
        expect((await secure.request('GET', '/v1/me/', { headers: { ...proto, cookie: session } })).body.uuid).toBe(acme.admin.uuid);
        // A plain-named cookie (which a sibling subdomain could set for the parent domain) is not a credential over
        // HTTPS, beside the session or alone, even holding a live token.
        const planted = `rollcall_session=${await secure.seedToken(acme.org.uuid, mia.user.uuid)}`;
        expect((await secure.request('GET', '/v1/me/', { headers: { ...proto, cookie: `${planted}; ${session}` } })).body.uuid).toBe(acme.admin.uuid);
        expect((await secure.request('GET', '/v1/me/', { headers: { ...proto, cookie: `${session}; ${planted}` } })).body.uuid).toBe(acme.admin.uuid);
        expect((await secure.request('GET', '/v1/me/', { headers: { ...proto, cookie: planted } })).body.code).toBe('credential_absent');
        // Path=/ sends it to every path; the API reads it under /v1/ only (/mcp refuses it).
        expect((await secure.request('POST', '/mcp', { headers: { ...proto, cookie: session, origin: APP, accept: 'application/json, text/event-stream' }, body: {} })).body.code).toBe('credential_not_accepted');

        const out = await secure.request('POST', '/v1/cli/auth/logout/', { headers: { ...proto, cookie: session, origin: APP } });
        expect(out.status).toBe(200);
        expect(out.headers.getSetCookie()).toEqual([
          '__Host-rollcall_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict; Secure',
          'rollcall_session=; Path=/v1/; Max-Age=0; HttpOnly; SameSite=Strict; Secure',
        ]);
        expect((await secure.request('GET', '/v1/me/', { headers: proto, token })).body.code).toBe('invalid_credentials');
      } finally {
        await secure.close();
      }
    }
  }, 120_000);

  it('refuses a cookie-authenticated write from another origin or without one (403 cross_origin_request), and takes our own', async () => {
    const acme = await t.seedOrganization();
    const { cookie } = await signIn('admin@acme.test');
    const body = { name: 'Core' };
    const foreign = await t.request('POST', '/v1/teams/', { body, headers: { cookie, origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({
      code: 'cross_origin_request',
      detail: "This write was signed in with Rollcall's session cookie but came from another site (https://evil.example); only the app's own pages may use the session.",
    });
    const none = await t.request('POST', '/v1/teams/', { body, headers: { cookie } });
    expect(none.status).toBe(403);
    expect(none.body.code).toBe('cross_origin_request');
    expect(await t.db('teams').where({ name: 'Core' }).first()).toBeUndefined();

    const own = await t.request('POST', '/v1/teams/', { body, headers: { cookie, origin: APP } });
    expect(own.status).toBe(201);
    // Reads need no Origin (another site cannot read the answer), and a header credential is not origin-checked.
    expect((await t.request('GET', '/v1/teams/', { headers: { cookie } })).status).toBe(200);
    expect((await t.request('POST', '/v1/teams/', { key: acme.adminKey, body: { name: 'Ops' }, headers: { cookie, origin: 'https://evil.example' } })).status).toBe(201);
  });

  it('takes the cookie only when no X-API-KEY or Authorization header is sent', async () => {
    const acme = await t.seedOrganization();
    const mia = await t.seedUser(acme.org.uuid, { email: 'mia@acme.test', firstName: 'Mia' });
    const { cookie } = await signIn('admin@acme.test');
    expect((await t.request('GET', '/v1/me/', { key: mia.key, headers: { cookie } })).body.uuid).toBe(mia.user.uuid);
    const bad = await t.request('GET', '/v1/me/', { headers: { cookie: 'rollcall_session=not-a-token' } });
    expect(bad.status).toBe(401);
    expect(bad.body.code).toBe('credential_malformed');
    expect((await t.request('GET', '/v1/me/', { headers: { cookie: 'other=1' } })).body.code).toBe('credential_absent');
  });

  it('logout ends the session and clears the cookie; sign-out everywhere ends every token and session of the person', async () => {
    const acme = await t.seedOrganization();
    const first = await signIn('admin@acme.test');
    const out = await t.request('POST', '/v1/cli/auth/logout/', { headers: { cookie: first.cookie, origin: APP } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toBe('rollcall_session=; Path=/v1/; Max-Age=0; HttpOnly; SameSite=Strict');
    expect((await t.request('GET', '/v1/me/', { headers: { cookie: first.cookie } })).body.code).toBe('invalid_credentials');

    const browser = await signIn('admin@acme.test');
    const terminal = await t.seedToken(acme.org.uuid, acme.admin.uuid);
    const mia = await t.seedUser(acme.org.uuid, { email: 'mia@acme.test' });
    const miaToken = await t.seedToken(acme.org.uuid, mia.user.uuid);
    const everywhere = await t.request('POST', '/v1/cli/auth/logout-everywhere/', { headers: { cookie: browser.cookie, origin: APP }, example: true });
    expect(everywhere.status).toBe(200);
    expect(everywhere.body).toEqual({ detail: 'Signed out everywhere: every CLI token and web session of this person no longer works.', revoked: 2 });
    expect(everywhere.headers.get('set-cookie')).toMatch(/^rollcall_session=; /);
    expect((await t.request('GET', '/v1/me/', { headers: { cookie: browser.cookie } })).status).toBe(401);
    expect((await t.request('GET', '/v1/me/', { token: terminal })).status).toBe(401);
    // Someone else's sessions, and API keys, are untouched.
    expect((await t.request('GET', '/v1/me/', { token: miaToken })).status).toBe(200);
    expect((await t.request('GET', '/v1/me/', { key: acme.adminKey })).status).toBe(200);
  });

  it('shares the sign-in budgets of verify-code and its refusals', async () => {
    await t.seedOrganization();
    await t.request('POST', '/v1/cli/auth/request-code/', { body: { email: 'admin@acme.test' } });
    const wrong = await t.request('POST', '/v1/cli/auth/session/', { body: { email: 'admin@acme.test', code: '000000' } });
    expect(wrong.status).toBe(400);
    expect(['invalid_code']).toContain(wrong.body.code);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    expect(wrong.headers.get('ratelimit-policy')).toBe('"authentication";q=20;w=3600');
  });
});
