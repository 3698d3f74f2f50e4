import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { TEST_CA, startHttpsReceiver } from '../../test/receivers.ts';
import type { HttpsReceiver } from '../../test/receivers.ts';
import { readJson } from '../lib/json.ts';
import { keyFingerprint, keyMismatch, requiredKey } from '../outbound/encryption-key.ts';
import { SecretBox } from '../outbound/secret-box.ts';
import { CommandError } from './commands.ts';
import { forgetSecretsCommand } from './forget-secrets.ts';

/** The key is lost for good: what forget-secrets leaves must start with a new key, workflows included. */
describe('rollcall admin forget-secrets', () => {
  let t: TestApp;
  let rx: HttpsReceiver;
  beforeEach(async () => {
    rx = await startHttpsReceiver(() => ({ status: 204 }));
    t = await startTestApp({ allowPrivateWebhooks: true }, {}, { ca: TEST_CA });
  });
  afterEach(async () => {
    await t.close();
    await rx.close();
  });

  it('removes webhooks, gives workflows new secrets under the next key, turns off those that send requests, and leaves nothing the lost key sealed', async () => {
    const acme = await t.seedOrganization();
    const create = async (name: string, actions: unknown[]) =>
      (await t.request('POST', '/v1/workflows/', { key: acme.adminKey, body: { name, trigger_type: 'api_trigger', actions } })).body;
    const hook = await create('Notify CI', [{ type: 'http_request', url: `${rx.url}/hook`, headers: { Authorization: 'Bearer ci-token' } }]);
    const mail = await create('Mail the team', [{ type: 'send_email', to: ['team@acme.test'], subject: 'Hi', body_html: '<p>Hi</p>' }]);
    await t.request('POST', '/v1/agent-webhook/', { key: acme.adminKey, body: { agent_name: 'builder', webhook_url: `${rx.url}/agent`, webhook_secret: 's3cret' } });
    await t.request('POST', '/v1/agent-messages/', { key: acme.adminKey, body: { agent_name: 'builder', content: 'Rebase please' } });
    const run = (await t.request('POST', `/v1/workflows/${hook.uuid}/trigger/`, { key: acme.adminKey, body: { payload: {} } })).body;

    const asked = await forgetSecretsCommand(t.db, t.clock, false, () => {
      throw new Error('no key is made before --yes');
    }).catch((err: unknown) => err);
    expect(asked).toBeInstanceOf(CommandError);
    expect((asked as Error).message).toBe(
      'this removes 1 agent webhook(s), 0 organization webhook subscription(s) and 0 chat connection(s), whose secrets no key can open any more; ' +
        'it gives 2 workflow(s) a new signing secret without their request header values and turns off the 1 active one(s) with http_request actions; run it again with --yes',
    );

    const next = SecretBox.newKey();
    const done = await forgetSecretsCommand(t.db, t.clock, true, () => new SecretBox(next));
    expect(done).toMatchObject({ removed: { agent_webhooks: 1, organization_webhooks: 0, chat_connections: 0 }, workflows_resealed: 2, workflows_turned_off: 1, cancelled_deliveries: 1 });

    // The next start: the new key fits, another does not.
    const required = await requiredKey(t.db);
    expect(keyMismatch(required, { key: next, source: 'ENCRYPTION_KEY', fingerprint: keyFingerprint(next) }, t.config.dataDir)).toBeNull();
    const other = SecretBox.newKey();
    expect(keyMismatch(required, { key: other, source: 'ENCRYPTION_KEY', fingerprint: keyFingerprint(other) }, t.config.dataDir)).toContain('need the encryption key they were stored with');
    expect(await t.db('deliveries').whereNotNull('secret_encrypted').select('uuid')).toEqual([]);

    const workflows = await t.db('workflows').orderBy('name').select('name', 'active', 'secrets_encrypted');
    expect(workflows.map((w: { name: string; active: unknown }) => [w.name, Boolean(w.active)])).toEqual([['Mail the team', true], ['Notify CI', false]]);
    for (const w of workflows) {
      expect(readJson(new SecretBox(next).decrypt(w.secrets_encrypted), null)).toEqual({ signing_secret: expect.stringMatching(/^whsec_/), headers: {} });
    }
    expect((await t.request('GET', `/v1/workflows/${mail.uuid}/`, { key: acme.adminKey })).body).toMatchObject({ active: true });

    // The request queued before: it fails at its turn with the reason, and its run says so.
    await t.deps.delivery.runDue();
    expect(rx.received).toEqual([]);
    const runs = (await t.request('GET', `/v1/workflows/${hook.uuid}/runs/`, { key: acme.adminKey })).body;
    expect(runs.results[0]).toMatchObject({
      uuid: run.run_uuid,
      status: 'failed',
      actions: [{ status: 'failed', error: 'http_request delivery without its workflow secret (removed by rollcall admin forget-secrets)' }],
    });
  });
});
