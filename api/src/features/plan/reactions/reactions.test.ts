import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import { countRows, startPlanApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';

describe('Plan reactions on project updates (spec reaction_invalid_emoji, reaction_limit_reached)', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  let base: string;
  let project: string;
  beforeEach(async () => {
    ({ t, acme, call } = await startPlanApp());
    project = (await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Launch' })).body.uuid;
    const update = await call('POST', `/v1/plan/projects/${project}/updates/`, acme.adminKey, { body: 'Shipped.' });
    base = `/v1/plan/projects/${project}/updates/${update.body.uuid}/reactions/`;
  });
  afterEach(async () => t.close());

  it('adds each person\'s reaction once, groups them by emoji, and takes them back', async () => {
    const first = await call('POST', base, acme.member.key, { emoji: '🎉' });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ emoji: '🎉', count: 1, users: [{ uuid: acme.member.user.uuid, id: acme.member.user.uuid, full_name: 'Mia Member', name: 'Mia Member' }], reacted: true });
    expect((await call('POST', base, acme.member.key, { emoji: '🎉' })).status).toBe(200);
    await call('POST', base, acme.other.key, { emoji: '🎉' });
    await call('POST', base, acme.other.key, { emoji: '❤' });
    const list = await call('GET', base, acme.member.key);
    expect(list.body.results.map((g: { emoji: string; count: number; reacted: boolean }) => [g.emoji, g.count, g.reacted])).toEqual([['🎉', 2, true], ['❤️', 1, false]]);
    expect((await call('DELETE', `${base}${encodeURIComponent('❤️')}/`, acme.member.key)).status).toBe(404);
    expect((await call('DELETE', `${base}${encodeURIComponent('❤')}/`, acme.other.key)).status).toBe(204);
    expect((await call('DELETE', `${base}${encodeURIComponent('🎉')}/?dry_run=true`, acme.member.key)).body).toMatchObject({ dry_run: true, status: 204 });
    expect((await call('DELETE', `${base}${encodeURIComponent('🎉')}/`, acme.member.key)).status).toBe(204);
    expect((await call('GET', base, acme.member.key)).body.results).toEqual([{ emoji: '🎉', count: 1, users: [expect.objectContaining({ uuid: acme.other.user.uuid })], reacted: false }]);
    expect(await countRows(t, 'plan_changes', (q) => q.where({ object_kind: 'reaction' }))).toBe(5);
  });

  it('answers 400 reaction_invalid_emoji for anything but one emoji, and reaction_limit_reached at 20 distinct emojis', async () => {
    for (const emoji of ['hi', '👍👍', ':tada:', '👍'.repeat(17)]) {
      const refused = await call('POST', base, acme.member.key, { emoji });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ detail: 'A reaction is a single emoji of at most 32 characters.', code: 'reaction_invalid_emoji' });
    }
    const emojis = ['😀', '😁', '😂', '🤣', '😃', '😄', '😅', '😆', '😉', '😊', '😋', '😎', '😍', '😘', '🥰', '😗', '😙', '🥲', '😚', '🙂'];
    for (const [i, emoji] of emojis.entries()) expect((await call('POST', base, i % 2 ? acme.member.key : acme.other.key, { emoji })).status).toBe(201);
    const over = await call('POST', base, acme.member.key, { emoji: '🤗' });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ detail: expect.any(String), code: 'reaction_limit_reached', extra: { limit: 20 } });
    // One already there is fine.
    expect((await call('POST', base, acme.adminKey, { emoji: '😀' })).status).toBe(201);
  });

  it('hides updates of projects the caller may not see, and goes with a deleted update', async () => {
    const secret = await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Secret', visibility: 'members' });
    const update = await call('POST', `/v1/plan/projects/${secret.body.uuid}/updates/`, acme.adminKey, { body: 'x' });
    expect((await call('POST', `/v1/plan/projects/${secret.body.uuid}/updates/${update.body.uuid}/reactions/`, acme.member.key, { emoji: '👍' })).status).toBe(404);
    await call('POST', base, acme.member.key, { emoji: '👍' });
    const updateUuid = base.split('/updates/')[1].split('/')[0];
    expect((await call('DELETE', `/v1/plan/projects/${project}/updates/${updateUuid}/`, acme.adminKey)).status).toBe(204);
    expect(await countRows(t, 'plan_reactions')).toBe(0);
  });
});
