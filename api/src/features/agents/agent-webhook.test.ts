import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { TEST_CA, startHttpsReceiver } from '../../../test/receivers.ts';
import type { HttpsReceiver } from '../../../test/receivers.ts';
import { SecretBox } from '../../outbound/secret-box.ts';

describe('Agent webhook push (spec "Events / Agent webhook", CONTRACT §6, §10) through the delivery outbox', () => {
  let t: TestApp;
  let acme: Awaited<ReturnType<TestApp['seedOrganization']>>;
  let rx: HttpsReceiver;
  beforeEach(async () => {
    t = await startTestApp({ allowPrivateWebhooks: true, inboundEmailSecret: 'inbound-secret-1234', inboundEmailDomain: 'inbox.rollcall.test' }, {}, { ca: TEST_CA });
    t.clock.set(new Date()); // Standard Webhooks verification checks the timestamp against the wall clock
    acme = await t.seedOrganization();
    rx = await startHttpsReceiver(() => ({ status: 200 }));
  });
  afterEach(async () => {
    await t.close();
    await rx.close();
  });

  it('pushes every new message with X-Webhook-Secret; pending until the 2xx, then delivered', async () => {
    const reg = await t.request('POST', '/v1/agent-webhook/', { key: acme.adminKey, body: { agent_name: 'builder', webhook_url: `${rx.url}/hook`, webhook_secret: 'whsec-agent-123' } });
    expect(reg.status).toBe(201);
    expect(reg.body).toEqual({ agent_name: 'builder', webhook_url: `${rx.url}/hook` });
    const sent = await t.request('POST', '/v1/agent-messages/', { key: acme.adminKey, body: { agent_name: 'builder', content: 'Rebase please' } });
    // Not yet pushed: still listed as undelivered and carried by a health read.
    expect((await t.request('GET', '/v1/agent-messages/?agent_name=builder&delivered=false', { key: acme.adminKey })).body.map((m: { id: string }) => m.id)).toEqual([sent.body.id]);
    expect((await t.request('GET', '/v1/agent-health/?agent_name=builder', { key: acme.adminKey })).body.pending_messages).toHaveLength(1);

    await t.deps.delivery.runDue();
    expect(rx.received).toHaveLength(1);
    const [push] = rx.received;
    expect(push.method).toBe('POST');
    expect(push.url).toBe('/hook');
    expect(push.headers['x-webhook-secret']).toBe('whsec-agent-123');
    expect(push.json).toEqual({ event: 'agent.message', message: sent.body });
    expect(new Webhook(new Uint8Array(Buffer.from('whsec-agent-123')), { format: 'raw' }).verify(push.body, push.headers)).toEqual(push.json);
    expect((await t.request('GET', '/v1/agent-messages/?agent_name=builder&delivered=false', { key: acme.adminKey })).body).toEqual([]);
    expect((await t.request('POST', '/v1/agent-health/', { key: acme.adminKey, body: { agent_name: 'builder', ok: true } })).body.pending_messages).toEqual([]);
    expect(JSON.stringify(await t.db('agents'))).not.toContain('whsec-agent-123');
    expect(JSON.stringify(await t.db('deliveries'))).not.toContain('whsec-agent-123');
    expect(t.logs.join('\n')).not.toContain('whsec-agent-123');
  });

  it('refuses at registration a secret no request could carry as X-Webhook-Secret; a stored one fails its pushes at once', async () => {
    const message = 'Must fit in the X-Webhook-Secret header: no line breaks or other control characters, no characters beyond Latin-1, no spaces at either end.';
    for (const webhook_secret of ['line\nbreak', 'bell\u0007', 'trailing ', '😀']) {
      const res = await t.request('POST', '/v1/agent-webhook/', { key: acme.adminKey, body: { agent_name: 'builder', webhook_url: `${rx.url}/hook`, webhook_secret } });
      expect([webhook_secret, res.status, res.body]).toEqual([webhook_secret, 400, { webhook_secret: [message] }]);
    }
    // Latin-1 and inner spaces travel as they are.
    const ok = await t.request('POST', '/v1/agent-webhook/', { key: acme.adminKey, body: { agent_name: 'builder', webhook_url: `${rx.url}/hook`, webhook_secret: 'señal secreta' } });
    expect(ok.status).toBe(201);
    // One stored before registration checked it: the push fails for good, with undici's reason, and is not retried.
    await t.db('agents').where({ name: 'builder' }).update({ webhook_secret_encrypted: t.deps.secretBox.encrypt('line\nbreak') });
    await t.request('POST', '/v1/agent-messages/', { key: acme.adminKey, body: { agent_name: 'builder', content: 'hi' } });
    await t.deps.delivery.runDue();
    t.clock.advance(24 * 3_600_000);
    await t.deps.delivery.runDue();
    expect(rx.received).toHaveLength(0);
    const [row] = await t.db('deliveries').where({ channel: 'agent_webhook' });
    expect(row).toMatchObject({ status: 'failed', attempts: 1, last_error: 'local error, not retried: invalid X-Webhook-Secret header' });
  });

  it('an e-mail reply is pushed too; a failing webhook leaves the message to the health check, which cancels the push', async () => {
    await t.request('POST', '/v1/agent-webhook/', { key: acme.adminKey, body: { agent_name: 'builder', webhook_url: `${rx.url}/hook`, webhook_secret: 's3cret' } });
    const raw = ['From: Bob <bob@example.com>', 'To: builder.acme@inbox.rollcall.test', 'Subject: Re: hi', 'Message-ID: <m1@example.com>', '', 'Looks good.', ''].join('\r\n');
    await t.request('POST', '/v1/inbound-email/', { raw, headers: { 'content-type': 'message/rfc822', authorization: 'Bearer inbound-secret-1234' } });
    await t.deps.delivery.runDue();
    expect(rx.received.map((r) => [r.json.message.message_type, r.json.message.metadata.from, r.headers['x-webhook-secret']])).toEqual([['email', 'bob@example.com', 's3cret']]);

    rx.setResponder(() => ({ status: 500 }));
    const failing = await t.request('POST', '/v1/agent-messages/', { key: acme.adminKey, body: { agent_name: 'builder', content: 'Are you there?' } });
    await t.deps.delivery.runDue();
    expect(rx.received).toHaveLength(2);
    const health = await t.request('POST', '/v1/agent-health/', { key: acme.adminKey, body: { agent_name: 'builder', ok: true } });
    expect(health.body.pending_messages.map((m: { id: string }) => m.id)).toEqual([failing.body.id]);
    const row = (await t.db('deliveries').where({ channel: 'agent_webhook', subject_uuid: failing.body.id }).first())!;
    expect(row.status).toBe('cancelled');
  });

  it('unregisters with a JSON body on DELETE; https only, and private addresses refused unless allowed', async () => {
    await t.request('POST', '/v1/agent-webhook/', { key: acme.adminKey, body: { agent_name: 'builder', webhook_url: `${rx.url}/hook`, webhook_secret: 's3cret' } });
    const del = await t.request('DELETE', '/v1/agent-webhook/', { key: acme.adminKey, body: { agent_name: 'builder' } });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ detail: 'Webhook unregistered for agent "builder".' });
    await t.request('POST', '/v1/agent-messages/', { key: acme.adminKey, body: { agent_name: 'builder', content: 'not pushed' } });
    await t.deps.delivery.runDue();
    expect(rx.received).toHaveLength(0);
    expect((await t.request('DELETE', '/v1/agent-webhook/', { key: acme.adminKey, body: { agent_name: 'ghost' } })).status).toBe(404);

    const http = await t.request('POST', '/v1/agent-webhook/', { key: acme.adminKey, body: { agent_name: 'builder', webhook_url: 'http://example.com/hook', webhook_secret: 'x' } });
    expect(http.body).toEqual({ webhook_url: ['Must be an HTTPS URL (ALLOW_PRIVATE_WEBHOOKS allows private addresses, not http://).'] });
    // With private addresses allowed, an https:// loopback URL is accepted (the local recipe of docs/agents.md).
    const loopback = await t.request('POST', '/v1/agent-webhook/', { key: acme.adminKey, body: { agent_name: 'builder', webhook_url: 'https://127.0.0.1:8443/hook', webhook_secret: 'x' } });
    expect(loopback.status).toBe(201);
    const strict = await startTestApp();
    try {
      const org = await strict.seedOrganization();
      const local = await strict.request('POST', '/v1/agent-webhook/', { key: org.adminKey, body: { agent_name: 'b', webhook_url: `${rx.url}/hook`, webhook_secret: 'x' } });
      expect(local.status).toBe(400);
      expect(local.body).toEqual({ webhook_url: ['Must not point to a private, loopback or link-local address.'] });
    } finally {
      await strict.close();
    }
  });

  it('a stored secret this key cannot open: the message is accepted (201) and its push fails at once, with the reason', async () => {
    await t.request('POST', '/v1/agent-webhook/', { key: acme.adminKey, body: { agent_name: 'builder', webhook_url: `${rx.url}/hook`, webhook_secret: 's3cret' } });
    // A database restored without its key: the secret was sealed under another one.
    await t.db('agents').update({ webhook_secret_encrypted: new SecretBox(SecretBox.newKey()).encrypt('s3cret') });
    const sent = await t.request('POST', '/v1/agent-messages/', { key: acme.adminKey, body: { agent_name: 'builder', content: 'Rebase please' } });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ agent_name: 'builder', content: 'Rebase please', delivered: false });
    await t.deps.delivery.runDue();
    expect(rx.received).toHaveLength(0);
    const deliveries = await t.request('GET', '/v1/deliveries/?channel=agent_webhook', { key: acme.adminKey });
    expect(deliveries.body.results).toEqual([
      expect.objectContaining({
        status: 'failed',
        attempts: 1,
        next_attempt_at: null,
        last_error: "local error, not retried: cannot decrypt the agent's webhook secret: the encryption key (ENCRYPTION_KEY or DATA_DIR/encryption.key) is not the one it was stored with, or the stored value is damaged",
      }),
    ]);
    // The message waits for the agent's health check, as with any failed push.
    const health = await t.request('POST', '/v1/agent-health/', { key: acme.adminKey, body: { agent_name: 'builder', ok: true } });
    expect(health.body.pending_messages.map((m: { id: string }) => m.id)).toEqual([sent.body.id]);
  });

  it('a 410 from the webhook removes it', async () => {
    rx.setResponder(() => ({ status: 410 }));
    await t.request('POST', '/v1/agent-webhook/', { key: acme.adminKey, body: { agent_name: 'builder', webhook_url: `${rx.url}/hook`, webhook_secret: 's3cret' } });
    await t.request('POST', '/v1/agent-messages/', { key: acme.adminKey, body: { agent_name: 'builder', content: 'one' } });
    await t.deps.delivery.runDue();
    expect((await t.db('agents').first())!.webhook_url).toBeNull();
    expect((await t.request('GET', '/v1/agent/health/', { key: acme.adminKey })).body.results[0]).toMatchObject({ agent_name: 'builder', webhook_registered: false, pending_count: 1 });
  });
});
