import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_DETAIL } from '../../../lib/errors.ts';
import { buttonData, commandData, discordKeys, interactionBody, modalData, signedHeaders } from '../../../../test/discord-stand-in.ts';
import { INTERACTIONS_PATH } from './requests.ts';
import { MIA, OTTO, startDiscordApp } from './discord-fixtures.ts';
import type { DiscordApp } from './discord-fixtures.ts';

/**
 * What the interactions endpoint refuses, with nothing saved: no signature, a malformed or forged one, a stale
 * timestamp, a replayed interaction, another application, a person answering through another person's prompt,
 * an archived check-in; and someone whose Discord account is not linked is told how to link it.
 */
describe('Discord interactions endpoint: refused, with nothing saved', () => {
  let app: DiscordApp;
  let form: string;
  beforeEach(async () => {
    app = await startDiscordApp();
    form = (await app.click(MIA, app.buttonOf(MIA))).body.data.custom_id;
  });
  afterEach(async () => app.close());

  const refusal = (code: string) => ({ detail: AUTH_DETAIL, code });
  const answer = () => ({ [`q.${app.checkin.questions[0].uuid}`]: 'Done' });
  const submission = () => interactionBody(5, MIA, modalData(form, answer()));

  it('no signature, a malformed one, a forged one (another key, or the body changed after signing): 401, nothing saved', async () => {
    const { t } = app;
    const before = await app.answersState();
    const raw = submission();
    const unsigned = await t.request('POST', INTERACTIONS_PATH, { raw, headers: { 'content-type': 'application/json' } });
    expect([unsigned.status, unsigned.body]).toEqual([401, refusal('credential_absent')]);
    expect((await app.send(raw, { headers: { 'x-signature-ed25519': 'zz' } })).body).toEqual(refusal('credential_malformed'));
    const forged = signedHeaders(discordKeys(), raw, t.clock.now().getTime() / 1000);
    expect((await t.request('POST', INTERACTIONS_PATH, { raw, headers: forged })).body).toEqual(refusal('invalid_credentials'));
    const headers = signedHeaders(app.keys, raw, t.clock.now().getTime() / 1000);
    const changed = await t.request('POST', INTERACTIONS_PATH, { raw: raw.replace('Done', 'Undone'), headers });
    expect([changed.status, changed.body]).toEqual([401, refusal('invalid_credentials')]);
    // Discord checks the endpoint with a bad signature when it is saved: it must get a 401.
    const ping = interactionBody(1, MIA, null);
    const badPing = await t.request('POST', INTERACTIONS_PATH, { raw: ping, headers: { ...signedHeaders(app.keys, ping, t.clock.now().getTime() / 1000), 'x-signature-ed25519': '0'.repeat(128) } });
    expect(badPing.status).toBe(401);
    expect(await app.answersState()).toBe(before);
  });

  it('a timestamp more than 5 minutes away: 401 credential_expired; within 5 minutes it is taken', async () => {
    const before = await app.answersState();
    const now = app.t.clock.now().getTime() / 1000;
    expect((await app.send(submission(), { at: now - 301 })).body).toEqual(refusal('credential_expired'));
    expect((await app.send(submission(), { at: now + 301 })).body).toEqual(refusal('credential_expired'));
    expect(await app.answersState()).toBe(before);
    expect((await app.send(submission(), { at: now - 290 })).body.data.content).toMatch(/^Saved ✓/);
  });

  it('a replayed interaction (the same one again, even signed anew) is refused and saves nothing more', async () => {
    const raw = submission();
    expect((await app.send(raw)).body.data.content).toMatch(/^Saved ✓/);
    const after = await app.answersState();
    const again = await app.send(raw);
    expect([again.status, again.body]).toEqual([401, refusal('credential_expired')]);
    expect(await app.answersState()).toBe(after);
    const click = interactionBody(3, MIA, buttonData(app.buttonOf(MIA)));
    expect((await app.send(click)).status).toBe(200);
    expect((await app.send(click)).body).toEqual(refusal('credential_expired'));
    // Even one that changes nothing.
    const status = interactionBody(2, MIA, commandData('status'));
    expect((await app.send(status)).status).toBe(200);
    expect((await app.send(status)).body).toEqual(refusal('credential_expired'));
  });

  it('an interaction for another application: 403 workspace_not_connected; signed for no connected application: 401', async () => {
    const before = await app.answersState();
    const other = await app.send(interactionBody(5, MIA, modalData(form, answer()), { application: '1100000000000000999' }));
    expect([other.status, other.body]).toEqual([403, { detail: 'This interaction is for the Discord application 1100000000000000999, which is not the one connected to Rollcall.', code: 'workspace_not_connected' }]);
    expect(await app.answersState()).toBe(before);
  });

  it('a person answering through another person\'s prompt: 403 not_your_prompt, nothing opened or saved', async () => {
    const before = await app.answersState();
    const click = await app.click(OTTO, app.buttonOf(MIA));
    expect([click.status, click.body]).toEqual([403, { detail: "This prompt is another person's.", code: 'not_your_prompt' }]);
    const submitted = await app.submit(OTTO, form, answer());
    expect([submitted.status, submitted.body]).toEqual([403, { detail: "This prompt is another person's.", code: 'not_your_prompt' }]);
    expect(await app.answersState()).toBe(before);
  });

  it('a submission for an archived check-in: an ephemeral message, nothing saved', async () => {
    const { t, p } = app;
    expect((await t.request('DELETE', `/v1/checkins/${app.checkin.uuid}/archive/`, { key: p.adminKey })).status).toBe(204);
    const before = await app.answersState();
    const res = await app.submit(MIA, form, answer());
    expect([res.status, res.body.data.content]).toEqual([200, 'This check-in can no longer be answered here: it was archived, or you no longer take part in it.']);
    expect(await app.answersState()).toBe(before);
  });

  it('junk: not JSON, no user, an unknown button or form, another interaction type: 400 malformed_request', async () => {
    const bad = async (raw: string) => {
      const res = await app.send(raw);
      return [res.status, res.body.code];
    };
    expect(await bad('[1')).toEqual([400, 'malformed_request']);
    expect(await bad(JSON.stringify({ id: '1300000000000000777', application_id: '1100000000000000001', type: 3, data: buttonData('rc:a:p:x') }))).toEqual([400, 'malformed_request']);
    expect(await bad(interactionBody(3, MIA, buttonData('something-else')))).toEqual([400, 'malformed_request']);
    expect(await bad(interactionBody(5, MIA, modalData('rc:a:p:nope', {})))).toEqual([400, 'malformed_request']);
    expect(await bad(interactionBody(4, MIA, {}))).toEqual([400, 'malformed_request']);
    expect(await bad(interactionBody(2, MIA, { name: 'other', type: 1 }))).toEqual([400, 'malformed_request']);
  });
});

describe('Discord: linking a person\'s account', () => {
  let app: DiscordApp;
  beforeEach(async () => {
    app = await startDiscordApp({ link: false });
  });
  afterEach(async () => app.close());

  it('someone not linked gets no direct message and is told how to link; /rollcall link gives a one-time link the person confirms through the API', async () => {
    const { t, p, discord } = app;
    expect(discord.calls('POST', '/users/@me/channels')).toEqual([]);
    const integrations = await t.request('GET', '/v1/integrations/', { key: p.adminKey });
    expect(integrations.body.people_not_found.map((u: { first_name: string }) => u.first_name).sort()).toEqual(['Mia', 'Otto']);
    expect((await app.command(MIA, 'help')).body.data.content).toContain('**/rollcall link**');
    const status = await app.command(MIA, 'status');
    expect(status.body.data.content).toBe('Your Discord account is not linked to Rollcall yet. Type `/rollcall link`, open the link it gives you and confirm, signed in to Rollcall. Then your check-ins come here.');

    const asked = await app.command(MIA, 'link', [], { example: true });
    expect(asked.body.data.flags).toBe(64);
    const url = asked.body.data.components[0].components[0].url as string;
    expect(url).toMatch(/^https:\/\/rollcall\.example\.com\/app\/link\/[A-Za-z0-9]{32}$/);
    const token = url.split('/').at(-1)!;
    // Another organization's person cannot take it: 404, as for a token that does not exist.
    const other = await t.seedOrganization({ name: 'Globex' });
    const elsewhere = await t.request('POST', '/v1/me/chat-accounts/', { key: other.adminKey, body: { token } });
    expect([elsewhere.status, elsewhere.body]).toEqual([404, { detail: 'Not found.', code: 'not_found' }]);
    const confirmed = await t.request('POST', '/v1/me/chat-accounts/', { key: p.member.key, body: { token }, example: true });
    expect([confirmed.status, confirmed.body]).toEqual([201, { platform: 'discord', external_id: MIA, name: 'user001', linked_at: '2026-03-10T08:00:00.000Z' }]);
    expect((await t.request('POST', '/v1/me/chat-accounts/', { key: p.member.key, body: { token } })).status).toBe(404);
    expect((await t.request('GET', '/v1/me/chat-accounts/', { key: p.member.key, example: true })).body).toEqual({ results: [confirmed.body] });
    expect((await t.request('GET', '/v1/integrations/', { key: p.adminKey })).body.people_not_found.map((u: { first_name: string }) => u.first_name)).toEqual(['Otto']);

    // Linked, Mia gets her check-ins here.
    expect((await app.command(MIA, 'status')).body.data.content).toBe('- **Daily** (2026-03-10): waiting for your answers');
    const sent = await t.request('POST', '/v1/send-message/', { key: p.adminKey, body: { message: 'Hello', target_users: [p.member.user.uuid] } });
    expect(sent.status).toBeLessThan(300);
    await t.deps.delivery.runDue();
    expect(app.messagesTo(MIA).at(-1)!.content).toBe('Hello');
  });

  it('a link expires after 15 minutes; linking again moves the account', async () => {
    const { t, p } = app;
    const tokenOf = async (user: string) => ((await app.command(user, 'link')).body.data.components[0].components[0].url as string).split('/').at(-1)!;
    const stale = await tokenOf(MIA);
    t.clock.advance(16 * 60_000);
    expect((await t.request('POST', '/v1/me/chat-accounts/', { key: p.member.key, body: { token: stale } })).status).toBe(404);
    expect((await t.request('POST', '/v1/me/chat-accounts/', { key: p.member.key, body: { token: await tokenOf(MIA) } })).status).toBe(201);
    // The same Discord account linked by Otto now is Otto's; Mia has none.
    expect((await t.request('POST', '/v1/me/chat-accounts/', { key: p.other.key, body: { token: await tokenOf(MIA) } })).status).toBe(201);
    expect((await t.request('GET', '/v1/me/chat-accounts/', { key: p.member.key })).body).toEqual({ results: [] });
    expect((await t.request('GET', '/v1/me/chat-accounts/', { key: p.other.key })).body.results.map((a: { external_id: string }) => a.external_id)).toEqual([MIA]);
    const bad = await t.request('POST', '/v1/me/chat-accounts/', { key: p.member.key, body: { token: 42, extra: true } });
    expect(bad.status).toBe(400);
  });
});
