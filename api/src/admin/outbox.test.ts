import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { formatOutbox, outboxCommand } from './outbox.ts';

describe('rollcall admin outbox: recent outgoing e-mail, whole', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp();
  });
  afterEach(async () => t.close());

  it('shows a held sign-in e-mail with its code put back in, newest last, filtered by recipient', async () => {
    const acme = await t.seedOrganization();
    for (const email of [acme.admin.email, 'nobody@example.com']) {
      expect((await t.request('POST', '/v1/cli/auth/request-code/', { body: { email } })).status).toBe(200);
      t.clock.advance(1000);
    }
    const all = await outboxCommand(t.db, () => t.deps.secretBox, {});
    expect(all.map((m) => m.to)).toEqual([[acme.admin.email], ['nobody@example.com']]);
    const [mine] = await outboxCommand(t.db, () => t.deps.secretBox, { to: acme.admin.email.toUpperCase(), last: '1' });
    expect(mine).toMatchObject({ status: 'pending', kind: expect.any(String) });
    expect(mine.text).toMatch(/sign-in code is \d{6}/);
    expect(JSON.stringify(await t.db('deliveries').select('payload'))).not.toMatch(/sign-in code is \d{6}/);
    const text = formatOutbox([mine], false);
    expect(text).toContain(`pending (held: SMTP_URL is not set)`);
    expect(text).toContain(`To: ${acme.admin.email}`);
    // A key that cannot open the sealed code says so instead of failing.
    const [sealed] = await outboxCommand(t.db, () => { throw new Error('no key'); }, { to: acme.admin.email });
    expect(sealed.text).toContain('[a sealed value the encryption key cannot open]');
    await expect(outboxCommand(t.db, () => t.deps.secretBox, { last: '0' })).rejects.toThrow('--last takes a number from 1 to 1000');
    await expect(outboxCommand(t.db, () => t.deps.secretBox, { to: 'x' })).rejects.toThrow('--to takes an e-mail address');
    expect(formatOutbox([], true)).toBe('No outgoing e-mail.\n');
  });
});
