import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { MISSING, seedPeople } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';
import { TEST_CA, startHttpsReceiver } from '../../../test/receivers.ts';
import type { HttpsReceiver } from '../../../test/receivers.ts';

describe('Kudos (CONTRACT §7, §12)', () => {
  let t: TestApp;
  let p: People;
  let team: string;
  beforeEach(async () => {
    t = await startTestApp({ allowPrivateWebhooks: true }, {}, { ca: TEST_CA });
    p = await seedPeople(t);
    team = (await t.request('POST', '/v1/teams/', { key: p.adminKey, body: { name: 'Platform' } })).body.uuid;
    const members = [p.member, p.other, p.manager].map((x) => ({ uuid: x.user.uuid }));
    await t.request('POST', `/v1/teams/${team}/member/`, { key: p.adminKey, body: { members } });
  });
  afterEach(async () => t.close());

  const give = (key: string, body: Record<string, unknown>) => t.request('POST', '/v1/kudos/', { key, body });
  const names = (list: { full_name: string }[]) => list.map((r) => r.full_name);

  it('expands a team to its active members, leaves the giver out, and answers 201 with the kudos', async () => {
    await t.request('PATCH', `/v1/users/${p.other.user.uuid}/`, { key: p.adminKey, body: { is_active: false } });
    const res = await give(p.member.key, { content: 'Great release!', receivers: [team] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      uuid: res.body.uuid,
      id: res.body.uuid,
      content: 'Great release!',
      is_anonymous: false,
      giver: { uuid: p.member.user.uuid, full_name: 'Mia Member', image: null },
      receivers: [{ uuid: p.manager.user.uuid, full_name: 'Manny Member', image: null }],
      teams: [{ uuid: team, name: 'Platform' }],
      company_value: null,
      boosts_count: 0,
      boosted: false,
      created_at: '2026-03-10T15:00:00.000Z',
    });
    // users_receivers and teams_receivers are typed subsets of receivers; one uuid may be in both.
    const typed = await give(p.adminKey, { content: 'Thanks', receivers: [p.guest.user.uuid], users_receivers: [p.guest.user.uuid], teams_receivers: [team] });
    expect(typed.status).toBe(201);
    expect(names(typed.body.receivers).sort()).toEqual(['Gus Member', 'Manny Member', 'Mia Member']);
  });

  it('refuses self-kudos (400 self_kudos), unknown receivers (field map) and bodies with no receiver', async () => {
    const self = await give(p.member.key, { content: 'Me!', users_receivers: [p.member.user.uuid, p.other.user.uuid] });
    expect(self.status).toBe(400);
    expect(self.body).toEqual({ detail: 'You cannot give kudos to yourself.', code: 'self_kudos' });
    const solo = (await t.request('POST', '/v1/teams/', { key: p.adminKey, body: { name: 'Solo' } })).body.uuid;
    await t.request('POST', `/v1/teams/${solo}/member/`, { key: p.adminKey, body: { members: [{ uuid: p.member.user.uuid }] } });
    const onlyMe = await give(p.member.key, { content: 'Us', teams_receivers: [solo] });
    expect(onlyMe.status).toBe(400);
    expect(onlyMe.body.code).toBe('self_kudos');
    const globex = await seedPeople(t, { name: 'Globex' });
    const unknown = await give(p.member.key, { content: 'x', receivers: [globex.member.user.uuid, p.other.user.uuid], teams_receivers: [p.other.user.uuid] });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ 'receivers.0': ['No user or team with this id in your organization.'], 'teams_receivers.0': ['No team with this id in your organization.'] });
    expect((await give(p.member.key, { content: 'x' })).body).toEqual({ receivers: ['Name at least one receiver: a user or team uuid.'] });
    expect((await give(p.member.key, { content: 'x', receivers: [p.other.user.uuid], stars: 5 })).body).toEqual({ detail: 'Unknown field: stars.', code: 'unknown_field', extra: { parameter: 'stars' } });
    expect((await give(p.member.key, { receivers: [p.other.user.uuid] })).body).toEqual({ content: ['This field is required.'] });
    expect((await give(p.member.key, { content: '  ', receivers: [p.other.user.uuid] })).body).toEqual({ content: ['This field may not be blank.'] });
    expect(await t.db('kudos')).toHaveLength(0);
    expect(await t.db('kudos_daily_counts').sum({ n: 'count' }).first()).toEqual({ n: null });
  });

  it('counts a daily limit per giver in the organization’s day: the 10th passes, the 11th is 406 kudos_daily_limit', async () => {
    for (let i = 1; i <= 10; i++) expect((await give(p.member.key, { content: `#${i}`, receivers: [team] })).status).toBe(201);
    const over = await give(p.member.key, { content: '#11', receivers: [team] });
    expect(over.status).toBe(406);
    expect(over.body).toEqual({ detail: 'You have given the 10 kudos a day your organization allows; you can give more tomorrow.', code: 'kudos_daily_limit', extra: { limit: 10, given_today: 10 } });
    expect((await t.db('kudos').where({ giver_uuid: p.member.user.uuid })).length).toBe(10);
    expect((await t.request('GET', '/v1/kudos/settings/', { key: p.member.key })).body).toEqual({ daily_limit: 10, chat_announcements: true, chat_channel: null, given_today: 10, remaining_today: 0 });
    // Another giver has their own count.
    expect((await give(p.other.key, { content: 'mine', receivers: [p.member.user.uuid] })).status).toBe(201);
    // The limit is per organization and admins set it.
    expect((await t.request('PATCH', '/v1/kudos/settings/', { key: p.member.key, body: { daily_limit: 20 } })).status).toBe(403);
    const raised = await t.request('PATCH', '/v1/kudos/settings/', { key: p.adminKey, body: { daily_limit: 11 } });
    expect(raised.body).toMatchObject({ daily_limit: 11 });
    expect((await give(p.member.key, { content: '#11', receivers: [team] })).status).toBe(201);
    expect((await give(p.member.key, { content: '#12', receivers: [team] })).status).toBe(406);
    // The organization's day ends at local midnight (UTC here): 15:00 + 9 h is the next day.
    t.clock.advance(9 * 3_600_000);
    expect((await give(p.member.key, { content: 'new day', receivers: [team] })).status).toBe(201);
  });

  it('follows the organization’s time zone for the day of the limit', async () => {
    await t.request('PATCH', '/v1/organization/', { key: p.adminKey, body: { timezone: 'Asia/Tokyo' } });
    await t.request('PATCH', '/v1/kudos/settings/', { key: p.adminKey, body: { daily_limit: 1 } });
    t.clock.set('2026-03-10T14:30:00.000Z'); // 23:30 in Tokyo
    expect((await give(p.member.key, { content: 'late', receivers: [team] })).status).toBe(201);
    expect((await give(p.member.key, { content: 'later', receivers: [team] })).status).toBe(406);
    t.clock.set('2026-03-10T15:00:00.000Z'); // 00:00 the next day in Tokyo
    expect((await give(p.member.key, { content: 'next day', receivers: [team] })).status).toBe(201);
  });

  it('lists given and received, the timeline for everyone, the organization list for admins only', async () => {
    const a = (await give(p.member.key, { content: 'to Otto', receivers: [p.other.user.uuid] })).body;
    t.clock.advance(1000);
    const b = (await give(p.other.key, { content: 'to Mia', receivers: [p.member.user.uuid] })).body;
    const uuids = (res: { body: { results: { uuid: string }[] } }) => res.body.results.map((k) => k.uuid);
    expect(uuids(await t.request('GET', '/v1/kudos/?filter=kudos_given', { key: p.member.key }))).toEqual([a.uuid]);
    expect(uuids(await t.request('GET', '/v1/kudos/?filter=kudos_received', { key: p.member.key }))).toEqual([b.uuid]);
    expect(uuids(await t.request('GET', '/v1/kudos/', { key: p.member.key }))).toEqual([b.uuid, a.uuid]);
    expect(uuids(await t.request('GET', '/v1/kudos/timeline/', { key: p.manager.key }))).toEqual([b.uuid, a.uuid]);
    // Guests see the kudos they are part of.
    expect(uuids(await t.request('GET', '/v1/kudos/timeline/', { key: p.guest.key }))).toEqual([]);
    const refused = await t.request('GET', '/v1/kudos/organization/', { key: p.member.key });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'Only organization admins can do this.', code: 'org_admin_required' });
    const org = await t.request('GET', `/v1/kudos/organization/?giver=${p.other.user.uuid}`, { key: p.adminKey });
    expect(uuids(org)).toEqual([b.uuid]);
    expect(uuids(await t.request('GET', '/v1/kudos/?search=otto', { key: p.member.key }))).toEqual([a.uuid]);
    expect(uuids(await t.request('GET', '/v1/kudos/timeline/?start_date=2026-03-11', { key: p.member.key }))).toEqual([]);
    expect(uuids(await t.request('GET', '/v1/kudos/timeline/?date=2026-03-10', { key: p.member.key }))).toHaveLength(2);
    const bad = await t.request('GET', '/v1/kudos/?filter=everything', { key: p.member.key });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ detail: 'filter must be one of: kudos_received, kudos_given.', code: 'invalid_filter_value', extra: { parameter: 'filter' } });
    expect((await t.request('GET', '/v1/kudos/?since=yesterday', { key: p.member.key })).body.code).toBe('invalid_date_range');
    // Another organization's kudos is as absent as a missing one.
    const globex = await seedPeople(t, { name: 'Globex' });
    const foreign = await t.request('GET', `/v1/kudos/${a.uuid}/`, { key: globex.adminKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual((await t.request('GET', `/v1/kudos/${MISSING}/`, { key: globex.adminKey })).body);
    expect((await t.request('GET', `/v1/kudos/${a.uuid}/`, { key: p.guest.key })).status).toBe(404);
    // Agent and organization keys act for no person: they cannot give kudos.
    const agent = await t.seedUser(p.org.uuid, { role: 'admin', kind: 'agent' });
    expect((await give(agent.key, { content: 'bot', receivers: [team] })).body.code).toBe('insufficient_scope');
  });

  it('boosts once per person, never your own (400 self_boost, 409 already_boosted)', async () => {
    const k = (await give(p.member.key, { content: 'Nice', receivers: [p.other.user.uuid] })).body;
    const boosted = await t.request('POST', `/v1/kudos/${k.uuid}/boost/`, { key: p.manager.key });
    expect(boosted.status).toBe(201);
    expect(boosted.body).toMatchObject({ uuid: k.uuid, boosts_count: 1, boosted: true });
    const again = await t.request('POST', `/v1/kudos/${k.uuid}/boost/`, { key: p.manager.key });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: 'You already boosted this kudos.', code: 'already_boosted' });
    const own = await t.request('POST', `/v1/kudos/${k.uuid}/boost/`, { key: p.member.key });
    expect(own.status).toBe(400);
    expect(own.body).toEqual({ detail: 'You cannot boost a kudos you gave.', code: 'self_boost' });
    expect((await t.request('POST', `/v1/kudos/${k.uuid}/boost/`, { key: p.other.key })).status).toBe(201);
    expect((await t.request('POST', `/v1/kudos/${MISSING}/boost/`, { key: p.other.key })).status).toBe(404);
    expect((await t.request('POST', `/v1/kudos/${k.uuid}/boost/`, { key: p.adminKey, body: { twice: true } })).body.code).toBe('unknown_field');
    expect((await t.request('GET', `/v1/kudos/${k.uuid}/`, { key: p.member.key })).body).toMatchObject({ boosts_count: 2, boosted: false });
  });

  it('company values: everyone lists, admins write (409 on a duplicate); kudos name one', async () => {
    const created = await t.request('POST', '/v1/company-values/', { key: p.adminKey, body: { value: 'Teamwork', emoji: '🤝' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ uuid: created.body.uuid, id: created.body.uuid, value: 'Teamwork', emoji: '🤝', description: null, created_at: '2026-03-10T15:00:00.000Z' });
    expect((await t.request('POST', '/v1/company-values/', { key: p.member.key, body: { value: 'Mine' } })).status).toBe(403);
    const dup = await t.request('POST', '/v1/company-values/', { key: p.adminKey, body: { value: 'teamwork' } });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ detail: 'The company value "teamwork" already exists.', code: 'company_value_exists' });
    const list = await t.request('GET', '/v1/company-values/', { key: p.guest.key });
    expect(list.body).toEqual({ count: 1, next: null, previous: null, results: [created.body] });
    const renamed = await t.request('PATCH', `/v1/company-values/${created.body.uuid}/`, { key: p.adminKey, body: { description: 'Together' } });
    expect(renamed.body).toMatchObject({ value: 'Teamwork', description: 'Together' });
    const one = await t.request('GET', `/v1/company-values/${created.body.uuid}/`, { key: p.member.key, example: true });
    expect([one.status, one.body]).toEqual([200, renamed.body]);
    const k = await give(p.member.key, { content: 'Pairing', receivers: [p.other.user.uuid], company_value: created.body.uuid });
    expect(k.body.company_value).toEqual({ id: created.body.uuid, uuid: created.body.uuid, value: 'Teamwork', emoji: '🤝' });
    const globex = await seedPeople(t, { name: 'Globex' });
    const foreignValue = (await t.request('POST', '/v1/company-values/', { key: globex.adminKey, body: { value: 'Speed' } })).body.uuid;
    expect((await give(p.member.key, { content: 'x', receivers: [p.other.user.uuid], company_value: foreignValue })).body).toEqual({ company_value: ['No company value with this id in your organization.'] });
    expect((await t.request('GET', `/v1/company-values/${foreignValue}/`, { key: p.adminKey })).status).toBe(404);
    expect((await t.request('DELETE', `/v1/company-values/${created.body.uuid}/`, { key: p.adminKey })).status).toBe(204);
    expect((await t.request('GET', `/v1/kudos/${k.body.uuid}/`, { key: p.member.key })).body.company_value).toBeNull();
  });

  it('wall of fame: top receiver and giver, value distribution and the leaderboard over a period (CONTRACT §12 shape)', async () => {
    const value = (await t.request('POST', '/v1/company-values/', { key: p.adminKey, body: { value: 'Ownership', emoji: '🚀' } })).body.uuid;
    t.clock.set('2026-02-20T10:00:00.000Z');
    await give(p.adminKey, { content: 'February', receivers: [p.other.user.uuid] });
    t.clock.set('2026-03-10T15:00:00.000Z');
    const k1 = (await give(p.member.key, { content: 'one', receivers: [team], company_value: value })).body; // Manny, Otto
    await give(p.adminKey, { content: 'two', receivers: [p.manager.user.uuid] });
    await give(p.other.key, { content: 'three', receivers: [p.manager.user.uuid], is_anonymous: true });
    await t.request('POST', `/v1/kudos/${k1.uuid}/boost/`, { key: p.adminKey });

    const wall = await t.request('GET', '/v1/kudos/wall-of-fame/', { key: p.member.key });
    expect(wall.status).toBe(200);
    const manny = { uuid: p.manager.user.uuid, full_name: 'Manny Member', image: null };
    const otto = { uuid: p.other.user.uuid, full_name: 'Otto Member', image: null };
    expect(wall.body).toEqual({
      period: 'month',
      period_start: '2026-03-01T00:00:00.000Z',
      top_receiver: { user: manny, kudos_received: 3, kudos_given: 0, total_plus_kudos_received: 1, total_plus_kudos_given: 0 },
      // Anonymous kudos never count for their giver: Otto's is not his.
      top_giver: { user: { uuid: p.admin.uuid, full_name: 'Ada Admin', image: null }, kudos_received: 0, kudos_given: 1, total_plus_kudos_received: 0, total_plus_kudos_given: 1 },
      dna_distribution: [{ company_value: { id: value, value: 'Ownership', emoji: '🚀' }, count: 1, percentage: 100 }],
      leaderboard: {
        count: 2,
        next: null,
        previous: null,
        results: [
          { position: 1, user: manny, score: 3, total_plus_kudos: 1 },
          { position: 2, user: otto, score: 1, total_plus_kudos: 1 },
        ],
      },
      leaderboard_summary: { position: null, total: 2 },
    });
    const paged = await t.request('GET', '/v1/kudos/wall-of-fame/?period=all&limit=1', { key: p.other.key });
    expect(paged.body.leaderboard.results).toEqual([{ position: 1, user: manny, score: 3, total_plus_kudos: 1 }]);
    expect(paged.body.leaderboard.next).toBe(`${t.url}/v1/kudos/wall-of-fame/?period=all&limit=1&offset=1`);
    expect(paged.body.leaderboard_summary).toEqual({ position: 2, total: 2 });
    const second = await t.request('GET', paged.body.leaderboard.next.replace(t.url, ''), { key: p.other.key });
    expect(second.body.leaderboard.results).toEqual([{ position: 2, user: otto, score: 2, total_plus_kudos: 1 }]);
    for (const period of ['week', 'quarter', 'year']) expect((await t.request('GET', `/v1/kudos/wall-of-fame/?period=${period}`, { key: p.member.key })).status).toBe(200);
    expect((await t.request('GET', '/v1/kudos/wall-of-fame/?period=week', { key: p.member.key })).body.period_start).toBe('2026-03-09T00:00:00.000Z');
    const bad = await t.request('GET', '/v1/kudos/wall-of-fame/?period=decade', { key: p.member.key });
    expect(bad.body).toEqual({ detail: 'period must be one of: week, month, quarter, year, all.', code: 'invalid_filter_value', extra: { parameter: 'period' } });
  });
});

describe('Kudos events and announcements (CONTRACT §7, §10)', () => {
  let t: TestApp;
  let p: People;
  let rx: HttpsReceiver;
  beforeEach(async () => {
    rx = await startHttpsReceiver((req) => (req.url.startsWith('/api/webhooks/') ? { status: 200, body: { id: '1' } } : { status: 204 }));
    t = await startTestApp({ allowPrivateWebhooks: true }, { DISCORD_WEBHOOK_BASE_URL: `${rx.url}/api/webhooks/` }, { ca: TEST_CA });
    t.clock.set(new Date()); // webhook-timestamp is checked against the receiver's real clock
    p = await seedPeople(t);
  });
  afterEach(async () => {
    await t.close();
    await rx.close();
  });

  it('sends kudos.posted to webhooks; an anonymous kudos names its giver nowhere (lists, detail, event)', async () => {
    const sub = (await t.request('POST', '/v1/webhook-subscription/', { key: p.adminKey, body: { hook_url: `${rx.url}/hook`, subscriptions: ['kudos.posted'] } })).body;
    const secret = (await t.request('POST', '/v1/kudos/', { key: p.member.key, body: { content: 'Quietly: thanks', receivers: [p.other.user.uuid], is_anonymous: true } })).body;
    expect(secret.giver).toBeNull();
    await t.deps.delivery.runDue();
    expect(rx.received).toHaveLength(1);
    const hook = rx.received[0];
    expect(new Webhook(sub.signing_secret).verify(hook.body, hook.headers)).toEqual(hook.json);
    expect(hook.json).toMatchObject({ event: 'kudos.posted', hook: { id: sub.hook_id } });
    expect(hook.json.body).toEqual({
      uuid: secret.uuid, id: secret.uuid, kudos_uuid: secret.uuid, content: 'Quietly: thanks', is_anonymous: true,
      receivers: [{ uuid: p.other.user.uuid, full_name: 'Otto Member' }], receiver_uuids: [p.other.user.uuid], teams: [], company_value: null,
      created_at: secret.created_at,
    });
    expect(hook.body).not.toContain(p.member.user.uuid);
    for (const [key, path] of [[p.adminKey, '/v1/kudos/organization/'], [p.other.key, '/v1/kudos/timeline/'], [p.other.key, '/v1/kudos/?filter=kudos_received'], [p.other.key, `/v1/kudos/${secret.uuid}/`], [p.adminKey, '/v1/kudos/wall-of-fame/']]) {
      const res = await t.request('GET', path, { key });
      expect(res.status).toBe(200);
      expect(res.text).not.toContain(p.member.user.uuid);
      expect(res.text).not.toContain('Mia');
    }
    // A giver filter never finds an anonymous kudos (it would name its giver).
    expect((await t.request('GET', `/v1/kudos/organization/?giver=${p.member.user.uuid}`, { key: p.adminKey })).body.count).toBe(0);
    // The giver still finds it among the kudos they gave.
    expect((await t.request('GET', '/v1/kudos/?filter=kudos_given', { key: p.member.key })).body.count).toBe(1);
  });

  it('announces a kudos on the connected chat platform through the outbox', async () => {
    await t.request('PATCH', '/v1/organization/', { key: p.adminKey, body: { platform: { kind: 'discord', webhook_url: `${rx.url}/api/webhooks/1/abc` } } });
    await t.request('POST', '/v1/kudos/', { key: p.member.key, body: { content: 'Shipped it', receivers: [p.other.user.uuid] } });
    await t.request('POST', '/v1/kudos/', { key: p.member.key, body: { content: 'Secret thanks', receivers: [p.other.user.uuid], is_anonymous: true } });
    const rows = await t.db('deliveries').where({ channel: 'chat', kind: 'kudos.announcement' });
    expect(rows).toHaveLength(2);
    await t.deps.delivery.runDue();
    const posts = rx.received.filter((r) => r.url.startsWith('/api/webhooks/1/abc')).map((r) => r.json.content);
    expect(posts).toEqual(['@Otto Member 🎉 Kudos from Mia Member to Otto Member: Shipped it', '@Otto Member 🎉 Anonymous kudos to Otto Member: Secret thanks']);
    // Announcements can be turned off per organization.
    await t.request('PATCH', '/v1/kudos/settings/', { key: p.adminKey, body: { chat_announcements: false } });
    await t.request('POST', '/v1/kudos/', { key: p.member.key, body: { content: 'Quiet', receivers: [p.other.user.uuid] } });
    expect(await t.db('deliveries').where({ channel: 'chat', kind: 'kudos.announcement' })).toHaveLength(2);
  });
});
