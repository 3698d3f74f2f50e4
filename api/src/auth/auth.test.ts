import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import { makeAuthenticate } from '../http/auth.ts';
import { errorHandler } from '../http/errors.ts';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { deactivateUserCommand, setPlanCommand } from '../admin/commands.ts';
import { createDb, isSqlite } from '../db/connection.ts';
import { setUserActive } from '../features/users/repository.ts';
import { revokeCliToken } from './tokens.ts';

const DETAIL = 'Authentication credentials were not provided.';

describe('Authentication (spec "Authentication", CONTRACT §4)', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp();
  });
  afterEach(async () => t.close());

  it('answers 401 credential_absent with the spec detail when no credential is sent', async () => {
    const res = await t.request('GET', '/v1/me/');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: DETAIL, code: 'credential_absent' });
  });

  it('tells malformed, unknown and expired credentials apart by code, with the same detail', async () => {
    const { org } = await t.seedOrganization();
    expect((await t.request('GET', '/v1/me/', { key: 'not-a-key' })).body).toEqual({ detail: DETAIL, code: 'credential_malformed' });
    expect((await t.request('GET', '/v1/me/', { headers: { authorization: 'Basic abc' } })).body).toEqual({ detail: DETAIL, code: 'credential_malformed' });
    expect((await t.request('GET', '/v1/me/', { token: 'short' })).body).toEqual({ detail: DETAIL, code: 'credential_malformed' });
    const unknown = await t.request('GET', '/v1/me/', { key: `rk_${'a'.repeat(40)}` });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ detail: DETAIL, code: 'invalid_credentials' });

    const member = await t.seedUser(org.uuid);
    await t.db('api_keys').where({ uuid: member.keyUuid }).update({ expires_at: '2026-03-10T14:00:00.000Z' });
    const expired = await t.request('GET', '/v1/me/', { key: member.key });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ detail: DETAIL, code: 'credential_expired' });
  });

  it('answers 400 credential_ambiguous to a request with both X-API-KEY and a Bearer token, whichever are valid', async () => {
    const { org, admin, adminKey } = await t.seedOrganization();
    const member = await t.seedUser(org.uuid);
    const token = await t.seedToken(org.uuid, admin.uuid);
    const ambiguous = { detail: 'Send one credential: X-API-KEY or Authorization: Bearer, not both.', code: 'credential_ambiguous' };
    for (const [key, bearer] of [[member.key, token], [member.key, adminKey], [adminKey, adminKey], ['not-a-key', token], [member.key, 'short']]) {
      const res = await t.request('GET', '/v1/me/', { key, token: bearer });
      expect([key, bearer, res.status, res.body]).toEqual([key, bearer, 400, ambiguous]);
    }
    // Another Authorization scheme beside X-API-KEY is not a credential of ours (a gateway's): the key is read.
    expect((await t.request('GET', '/v1/me/', { key: member.key, headers: { authorization: 'Basic Z2F0ZTp3YXk=' } })).body.id).toBe(member.user.uuid);
    expect((await t.request('GET', '/v1/me/', { token })).body.id).toBe(admin.uuid);
  });

  it('accepts a CLI Bearer token for 30 days, then answers credential_expired; a revoked token is invalid', async () => {
    const { org, admin } = await t.seedOrganization();
    const token = await t.seedToken(org.uuid, admin.uuid);
    expect((await t.request('GET', '/v1/me/', { token })).status).toBe(200);
    t.clock.advance(30 * 24 * 3600 * 1000);
    expect((await t.request('GET', '/v1/me/', { token })).body).toEqual({ detail: DETAIL, code: 'credential_expired' });

    const second = await t.seedToken(org.uuid, admin.uuid);
    const row = (await t.db('cli_tokens').orderBy('created_at', 'desc').first())!;
    await revokeCliToken(t.db, row.uuid, t.clock.now());
    t.deps.credentialCache.forget();
    expect((await t.request('GET', '/v1/me/', { token: second })).body).toEqual({ detail: DETAIL, code: 'invalid_credentials' });
  });

  it('applies the plan table on the general surface with 403 and its codes', async () => {
    const free = await t.seedOrganization({ name: 'Free Co', plan: 'free' });
    const basic = await t.seedOrganization({ name: 'Basic Co', plan: 'basic' });
    const pro = await t.seedOrganization({ name: 'Pro Co', plan: 'pro' });
    const freeRes = await t.request('GET', '/v1/me/', { key: free.adminKey });
    expect(freeRes.status).toBe(403);
    expect(freeRes.body).toEqual({ detail: 'API keys are not available on the free plan.', code: 'plan_free_api_keys_forbidden' });
    const basicRes = await t.request('GET', '/v1/me/', { key: basic.adminKey });
    expect(basicRes.status).toBe(403);
    expect(basicRes.body.code).toBe('plan_missing_core_api_integrations');

    const member = await t.seedUser(pro.org.uuid);
    await setUserActive(t.db, member.user.uuid, false, t.clock.now());
    const inactive = await t.request('GET', '/v1/me/', { key: member.key });
    expect(inactive.status).toBe(403);
    expect(inactive.body).toEqual({ detail: 'The owner of this API key is deactivated.', code: 'api_key_owner_inactive' });
  });

  it('gives the same refusals as 401 on the Plan surface', async () => {
    const free = await t.seedOrganization({ name: 'Free Co', plan: 'free' });
    // A route on the Plan surface declares it with this option.
    const router = new Router();
    router.get('/v1/plan/probe/', makeAuthenticate(t.deps)({ surface: 'plan' }), (ctx) => {
      ctx.body = { ok: true };
    });
    const app = new Koa();
    app.use(errorHandler(t.deps.logger));
    app.use(router.routes());
    const server = http.createServer(app.callback()).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/plan/probe/`, {
      headers: { 'x-api-key': free.adminKey },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ detail: 'API keys are not available on the free plan.', code: 'plan_free_api_keys_forbidden' });
    server.close();
  });

  it('lets free-plan CLI Bearer callers use only the allow-listed endpoints', async () => {
    const free = await t.seedOrganization({ name: 'Free Co', plan: 'free' });
    const token = await t.seedToken(free.org.uuid, free.admin.uuid);
    expect((await t.request('GET', '/v1/me/', { token })).status).toBe(200);
    expect((await t.request('GET', '/v1/organization/', { token })).status).toBe(200);
    const refused = await t.request('GET', '/v1/api-keys/', { token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'This endpoint is not available on the free plan.', code: 'plan_upgrade_required' });
  });

  it('gives identical bodies to an API key and a CLI Bearer token of the same user (credential parity)', async () => {
    const { org, admin, adminKey } = await t.seedOrganization();
    const token = await t.seedToken(org.uuid, admin.uuid);
    for (const path of ['/v1/me/', '/v1/organization/', '/v1/api-keys/']) {
      const byKey = await t.request('GET', path, { key: adminKey });
      const byToken = await t.request('GET', path, { token });
      expect(byKey.status).toBe(200);
      expect(byToken.body).toEqual(byKey.body);
      expect(byToken.headers.get('ratelimit-policy')).toBe(byKey.headers.get('ratelimit-policy'));
    }
  });

  it('takes only API keys on /v1/platform/*', async () => {
    const { org, admin, adminKey } = await t.seedOrganization();
    const token = await t.seedToken(org.uuid, admin.uuid);
    const ok = await t.request('GET', '/v1/platform/status/', { key: adminKey });
    expect(ok.status).toBe(200);
    expect(ok.body.version).toMatch(/^\d+\.\d+\.\d+$/);
    const refused = await t.request('GET', '/v1/platform/status/', { token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'This endpoint accepts API keys only.', code: 'credential_not_accepted' });
  });

  it('notices a plan downgrade: at once on PostgreSQL (it is told); on SQLite a write on the server\'s own connection is not another process\'s, and waits out the 60-second cache', async () => {
    const { org, adminKey } = await t.seedOrganization();
    expect((await t.request('GET', '/v1/me/', { key: adminKey })).status).toBe(200);
    await setPlanCommand(t.db, t.clock, org.uuid, 'free'); // as `rollcall admin org plan` would, from outside the server
    if (isSqlite(t.db)) {
      t.clock.advance(59_000);
      expect((await t.request('GET', '/v1/me/', { key: adminKey })).status).toBe(200);
      t.clock.advance(1_000);
    } else {
      // The command's NOTIFY reaches this server's listening connection within milliseconds; no clock moves.
      const deadline = Date.now() + 1000;
      while ((await t.request('GET', '/v1/me/', { key: adminKey })).status === 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    }
    const after = await t.request('GET', '/v1/me/', { key: adminKey });
    expect(after.status).toBe(403);
    expect(after.body.code).toBe('plan_free_api_keys_forbidden');
  });

  it('stops a user\'s key and CLI token as soon as an operator deactivates them from another process, as the API does', async () => {
    const { org } = await t.seedOrganization();
    const member = await t.seedUser(org.uuid, { email: 'leaver@acme.test' });
    const token = await t.seedToken(org.uuid, member.user.uuid);
    expect((await t.request('GET', '/v1/me/', { key: member.key })).status).toBe(200);
    expect((await t.request('GET', '/v1/me/', { token })).status).toBe(200); // both resolved and cached now
    // `rollcall admin user deactivate` runs in its own process, on its own connection to the database.
    const operator = createDb(t.config.databaseUrl);
    try {
      await deactivateUserCommand(operator, t.clock, 'leaver@acme.test');
    } finally {
      await operator.destroy();
    }
    // No clock moves: the 60-second cache is not what ends it. The server is told (PostgreSQL) or sees the file
    // change (SQLite) within a fraction of a second; the loop only waits for that signal to arrive.
    const deadline = Date.now() + 5000;
    while ((await t.request('GET', '/v1/me/', { key: member.key })).status === 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect((await t.request('GET', '/v1/me/', { key: member.key })).body).toEqual({ detail: 'The owner of this API key is deactivated.', code: 'api_key_owner_inactive' });
    expect((await t.request('GET', '/v1/me/', { token })).body).toEqual({ detail: DETAIL, code: 'invalid_credentials' });
    // The command ends the person's sign-ins for good: reactivated, their token stays revoked.
    await t.db('users').where({ uuid: member.user.uuid }).update({ is_active: true });
    await t.deps.credentialCache.invalidate();
    expect((await t.request('GET', '/v1/me/', { key: member.key })).status).toBe(200);
    expect((await t.request('GET', '/v1/me/', { token })).body).toEqual({ detail: DETAIL, code: 'invalid_credentials' });
  });

  it('answers /v1/me/ with the spec fields and what clients read', async () => {
    const { org, admin, adminKey } = await t.seedOrganization();
    const res = await t.request('GET', '/v1/me/', { key: adminKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: admin.uuid,
      uuid: admin.uuid,
      email: admin.email,
      first_name: 'Ada',
      last_name: 'Admin',
      full_name: 'Ada Admin',
      role: 'admin',
      timezone: 'UTC',
      organization_name: 'Acme',
      organization_uuid: org.uuid,
      user: { uuid: admin.uuid, full_name: 'Ada Admin', email: admin.email },
      organization: { uuid: org.uuid, name: 'Acme' },
      language: null,
      holiday_calendar: null,
      notifications: { reminders: true, report_emails: true },
    });
  });
});
