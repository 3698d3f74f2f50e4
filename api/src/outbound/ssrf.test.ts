import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { TEST_CA, startHttpsReceiver } from '../../test/receivers.ts';
import type { HttpsReceiver } from '../../test/receivers.ts';
import { enqueue as enqueueDelivery } from '../outbox/deliveries.ts';
import type { ResolvedAddress } from './address-policy.ts';
import { isForbiddenAddress, refuseUrl } from './address-policy.ts';

describe('Webhook address checks (CONTRACT §10): at registration and at connect time', () => {
  let t: TestApp;
  let acme: Awaited<ReturnType<TestApp['seedOrganization']>>;
  let rx: HttpsReceiver;
  // A resolver the test controls: public at registration, loopback when the worker connects (DNS rebinding).
  const answers = new Map<string, ResolvedAddress[]>();
  const resolve = async (host: string) => {
    const found = answers.get(host);
    if (!found) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found;
  };
  beforeEach(async () => {
    t = await startTestApp({ allowPrivateWebhooks: false }, {}, { ca: TEST_CA, resolve });
    acme = await t.seedOrganization();
    rx = await startHttpsReceiver();
    answers.clear();
    answers.set('localhost', [{ address: '127.0.0.1', family: 4 }]);
    answers.set('internal.example.test', [{ address: '93.184.216.34', family: 4 }, { address: '10.1.2.3', family: 4 }]);
  });
  afterEach(async () => {
    await t.close();
    await rx.close();
  });

  it('refuses the SSRF matrix at registration', async () => {
    const matrix = [
      ['https://127.0.0.1/hook', 'Must not point to a private, loopback or link-local address.'],
      ['https://[::1]/hook', 'Must not point to a private, loopback or link-local address.'],
      ['https://[::ffff:127.0.0.1]/hook', 'Must not point to a private, loopback or link-local address.'],
      ['https://[::ffff:a00:1]/hook', 'Must not point to a private, loopback or link-local address.'],
      ['https://169.254.169.254/latest/meta-data', 'Must not point to a private, loopback or link-local address.'],
      ['https://10.0.0.1/hook', 'Must not point to a private, loopback or link-local address.'],
      ['https://100.64.0.1/hook', 'Must not point to a private, loopback or link-local address.'],
      ['https://192.168.1.1/hook', 'Must not point to a private, loopback or link-local address.'],
      ['https://localhost/hook', 'Must not point to a private, loopback or link-local address.'],
      ['https://internal.example.test/hook', 'Must not point to a private, loopback or link-local address.'],
      ['https://unknown.example.test/hook', 'The host name could not be resolved.'],
      ['http://93.184.216.34/hook', 'Must be an HTTPS URL.'],
      ['https://user:pw@93.184.216.34/hook', 'Must not carry a user name or password.'],
    ];
    for (const [url, message] of matrix) {
      const res = await t.request('POST', '/v1/webhook-subscription/', { key: acme.adminKey, body: { hook_url: url, subscriptions: ['kudos.posted'] } });
      expect(res.status, url).toBe(400);
      expect(res.body, url).toEqual({ hook_url: [message] });
    }
    expect(await t.db('webhook_subscriptions').first()).toBeUndefined();
    const ok = await t.request('POST', '/v1/webhook-subscription/', { key: acme.adminKey, body: { hook_url: 'https://93.184.216.34/hook', subscriptions: ['kudos.posted'] } });
    expect(ok.status).toBe(201);
  });

  it('classifies addresses', () => {
    for (const a of ['127.0.0.1', '::1', '::ffff:7f00:1', '::ffff:a00:1', '169.254.169.254', '10.9.9.9', '100.64.0.1', '100.127.255.255', '172.16.0.1', '192.168.0.1', '0.0.0.0', '::', 'fe80::1', 'fc00::1', '64:ff9b::a00:1', 'not-an-ip']) {
      expect(isForbiddenAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '100.128.0.1', '172.32.0.1', '2606:4700::1111']) expect(isForbiddenAddress(a), a).toBe(false);
  });

  it('refuses at connect time a host that now resolves to loopback (DNS rebinding), and IP literals', async () => {
    answers.set('hooks.example.test', [{ address: '93.184.216.34', family: 4 }]);
    expect(await refuseUrl(`https://hooks.example.test:${rx.port}/hook`, { allowPrivate: false, resolve })).toBeNull();
    const created = await t.request('POST', '/v1/webhook-subscription/', { key: acme.adminKey, body: { hook_url: `https://hooks.example.test:${rx.port}/hook`, subscriptions: ['kudos.posted'] } });
    expect(created.status).toBe(201);
    answers.set('hooks.example.test', [{ address: '127.0.0.1', family: 4 }]);
    await t.request('POST', '/v1/webhook-subscription/sample/', { key: acme.adminKey, body: { event: 'kudos.posted' } });
    // A row pointing straight at a loopback literal (written by code that skipped the registration check).
    await enqueueDelivery(t.db, { organizationUuid: acme.org.uuid, channel: 'agent_webhook', kind: 'agent.message', destination: `${rx.url}/agent`, payload: {}, secretEncrypted: t.deps.secretBox.encrypt('s3cret-value') }, t.clock.now());
    await enqueueDelivery(t.db, { organizationUuid: acme.org.uuid, channel: 'agent_webhook', kind: 'agent.message', destination: `https://[::ffff:127.0.0.1]:${rx.port}/agent`, payload: {}, secretEncrypted: t.deps.secretBox.encrypt('s3cret-value') }, t.clock.now());
    await t.deps.delivery.runDue();
    expect(rx.received).toHaveLength(0);
    const rows = await t.db('deliveries').orderBy('uuid');
    expect(rows.map((r) => r.status)).toEqual(['failed', 'failed', 'failed']);
    for (const row of rows) expect(row.last_error).toMatch(/^destination_not_allowed: /);
  });
});
