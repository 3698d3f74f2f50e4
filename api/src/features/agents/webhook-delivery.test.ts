import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { TEST_CA, startHttpsReceiver } from '../../../test/receivers.ts';
import type { HttpsReceiver } from '../../../test/receivers.ts';
import { enqueueAgentWebhook } from './webhook-delivery.ts';

describe('Agent webhook deliveries (spec "Webhook secrets", CONTRACT §6, §10)', () => {
  let t: TestApp;
  let acme: Awaited<ReturnType<TestApp['seedOrganization']>>;
  let rx: HttpsReceiver;
  beforeEach(async () => {
    t = await startTestApp({ allowPrivateWebhooks: true }, { DELIVERY_CONCURRENCY: '8' }, { ca: TEST_CA });
    t.clock.set(new Date());
    acme = await t.seedOrganization();
    rx = await startHttpsReceiver();
  });
  afterEach(async () => {
    await t.close();
    await rx.close();
  });

  it('POSTs {event: "agent.message", message} with X-Webhook-Secret and a verifiable signature; the hook marks it delivered in order', async () => {
    const delivered: string[] = [];
    t.deps.delivery.onDelivered('agent_webhook', async (trx, row) => {
      expect(trx.isTransaction).toBe(true);
      delivered.push(row.subject_uuid!);
    });
    let first = true;
    rx.setResponder(async () => {
      if (first) {
        first = false;
        await new Promise((r) => setTimeout(r, 150)); // a slow first answer must not let the second overtake it
      }
      return { status: 200 };
    });
    await t.db.transaction(async (trx) => {
      for (const n of [1, 2, 3]) {
        await enqueueAgentWebhook(trx, { organizationUuid: acme.org.uuid, agentName: 'builder', url: `${rx.url}/agent`, sealedSecret: t.deps.secretBox.encrypt('agent-secret-abc'), message: { uuid: `m${n}`, content: `hello ${n}` } }, t.clock.now());
      }
    });
    await t.deps.delivery.runDue();
    expect(rx.received.map((r) => r.json.message.content)).toEqual(['hello 1', 'hello 2', 'hello 3']);
    expect(delivered).toEqual(['m1', 'm2', 'm3']);
    const [req] = rx.received;
    expect(req.json).toEqual({ event: 'agent.message', message: { uuid: 'm1', content: 'hello 1' } });
    expect(req.headers['x-webhook-secret']).toBe('agent-secret-abc');
    expect(new Webhook(new Uint8Array(Buffer.from('agent-secret-abc')), { format: 'raw' }).verify(req.body, req.headers)).toEqual(req.json);
    expect(JSON.stringify(await t.db('deliveries'))).not.toContain('agent-secret-abc');
  });

  it('calls the gone hook on 410 and fails the delivery', async () => {
    const gone: string[] = [];
    t.deps.delivery.onGone('agent_webhook', async (_trx, row) => void gone.push(row.subject_uuid!));
    rx.setResponder(() => ({ status: 410 }));
    await enqueueAgentWebhook(t.db, { organizationUuid: acme.org.uuid, agentName: 'a', url: `${rx.url}/agent`, sealedSecret: t.deps.secretBox.encrypt('zzzzzzzz'), message: { uuid: 'm9' } }, t.clock.now());
    await t.deps.delivery.runDue();
    expect(gone).toEqual(['m9']);
    const [row] = await t.db('deliveries');
    expect(row).toMatchObject({ status: 'failed', last_status_code: 410 });
  });
});
