import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../../test/harness.ts';
import type { TestApp } from '../../../../test/harness.ts';
import { startHttpsReceiver, TEST_CA } from '../../../../test/receivers.ts';
import { planClient, seedPlanOrg } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';
import { NOTIFICATION_CATALOG } from '../notifications/catalog.ts';

describe('Plan channels and the notification catalogue (spec "Plan endpoints named")', () => {
  let t: TestApp;
  let rx: Awaited<ReturnType<typeof startHttpsReceiver>>;
  let acme: PlanOrg;
  let call: PlanCall;
  beforeAll(async () => {
    rx = await startHttpsReceiver((req) => {
      if (req.url.startsWith('/api/conversations.list')) {
        return { status: 200, body: { ok: true, channels: [{ id: 'C1', name: 'general' }, { id: 'G2', name: 'leads', is_private: true }], response_metadata: { next_cursor: '' } } };
      }
      if (req.url.startsWith('/api/users.lookupByEmail')) return { status: 200, body: { ok: true, user: { id: 'U_MIA' } } };
      return { status: 200, body: { ok: true } };
    });
    t = await startTestApp({}, { SLACK_API_URL: `${rx.url}/api`, DISCORD_WEBHOOK_BASE_URL: `${rx.url}/api/webhooks/`, ALLOW_PRIVATE_WEBHOOKS: 'true' }, { ca: TEST_CA });
  });
  afterAll(async () => {
    await t.close();
    await rx.close();
  });
  beforeEach(async () => {
    acme = await seedPlanOrg(t, { name: `Acme ${Math.random()}` });
    call = planClient(t);
  });

  it('answers 400 platform_not_connected without a chat platform', async () => {
    const res = await call('GET', '/v1/plan/channels/', acme.member.key);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('platform_not_connected');
  });

  it('lists the Slack channels (items carry external_id), by type; type=channel is the caller\'s personal destination', async () => {
    await call('PATCH', '/v1/organization/', acme.adminKey, { platform: { kind: 'slack', bot_token: 'xoxb-test-token' } });
    // Members see public channels only; admins the private ones the bot is in too.
    const all = await call('GET', '/v1/plan/channels/', acme.adminKey);
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      count: 2, next: null, previous: null,
      results: [
        { external_id: 'C1', id: 'C1', name: 'general', type: 'public', platform: 'slack' },
        { external_id: 'G2', id: 'G2', name: 'leads', type: 'private', platform: 'slack' },
      ],
    });
    expect((await call('GET', '/v1/plan/channels/', acme.member.key)).body.results.map((c: { external_id: string }) => c.external_id)).toEqual(['C1']);
    expect((await call('GET', '/v1/plan/channels/?type=private', acme.adminKey)).body.results.map((c: { external_id: string }) => c.external_id)).toEqual(['G2']);
    expect((await call('GET', '/v1/plan/channels/?type=private', acme.member.key)).body.results).toEqual([]);
    expect((await call('GET', '/v1/plan/channels/?type=channel', acme.member.key)).body.results.map((c: { external_id: string }) => c.external_id)).toEqual(['C1']);
    expect((await call('GET', '/v1/plan/channels/?search=LEA', acme.adminKey)).body.results.map((c: { external_id: string }) => c.external_id)).toEqual(['G2']);
    const personal = await call('GET', '/v1/plan/channels/?type=direct_message', acme.member.key);
    expect(personal.body.results).toEqual([{ external_id: 'U_MIA', id: 'U_MIA', name: `Direct message to mia@${acme.org.slug}.test`, type: 'personal', platform: 'slack' }]);
    expect(rx.received.at(-1)?.url).toBe(`/api/users.lookupByEmail?email=mia%40${acme.org.slug}.test`);
    expect((await call('GET', '/v1/plan/channels/?type=dm', acme.member.key)).body).toEqual({ detail: expect.stringContaining('type must be one of: channel, public, private_channel, private, direct_message, group_chat'), code: 'invalid_filter_value', extra: { parameter: 'type' } });
  });

  it('lists the one channel of an incoming-webhook platform', async () => {
    await call('PATCH', '/v1/organization/', acme.adminKey, { platform: { kind: 'discord', webhook_url: `${rx.url}/api/webhooks/1/abc`, channel_name: '#eng' } });
    expect((await call('GET', '/v1/plan/channels/', acme.member.key)).body.results).toEqual([{ external_id: 'default', id: 'default', name: '#eng', type: 'public', platform: 'discord' }]);
    expect((await call('GET', '/v1/plan/channels/?type=direct_message', acme.member.key)).body.results).toEqual([]);
  });

  it('serves the notification catalogue: items carry key', async () => {
    const res = await call('GET', '/v1/plan/notifications/catalog/?page_size=100', acme.member.key);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(NOTIFICATION_CATALOG.length);
    expect(res.body.results[0]).toEqual({ key: 'task.assigned', name: 'Task assigned', description: 'A task was assigned to you.', object_type: 'task', channels: ['inbox', 'email', 'chat'], default_enabled: true, scope: 'personal' });
    const keys = res.body.results.map((k: { key: string }) => k.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toContain('project.update_posted');
  });
});
