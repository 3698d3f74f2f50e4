import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_DETAIL } from '../../../lib/errors.ts';
import { OTHER_KEY, activity } from '../../../../test/teams-stand-in.ts';
import { startTeamsApp } from './teams-fixtures.ts';
import type { TeamsApp } from './teams-fixtures.ts';

/**
 * What the Teams messaging endpoint refuses, with nothing saved: no token, a bad signature, an expired token, a
 * token for another bot, an activity from another tenant, a person answering through another person's prompt, an
 * activity delivered again, a prompt of an archived check-in.
 */
describe('Microsoft Teams messaging endpoint: refused, with nothing saved', () => {
  let app: TeamsApp;
  let save: Record<string, unknown>;
  beforeEach(async () => {
    app = await startTeamsApp();
    const prompt = await app.promptOf(app.p.member.user.uuid);
    save = { rollcall: 'rollcall_answer', p: prompt, [`q.${app.checkin.questions[0].uuid}`]: 'Done' };
  });
  afterEach(async () => app.close());

  const refusal = (code: string) => ({ detail: AUTH_DETAIL, code });
  const now = () => Math.floor(app.t.clock.now().getTime() / 1000);

  it('no token, a forged signature, an expired token or one for another bot: 401, and nothing happens', async () => {
    const { t, teams, people } = app;
    const before = await app.answersState();
    const body = JSON.stringify(activity(teams, people.mia, { value: save }));
    const unsigned = await t.request('POST', '/v1/integrations/teams/messages/', { raw: body, headers: { 'content-type': 'application/json' } });
    expect([unsigned.status, unsigned.body]).toEqual([401, refusal('credential_absent')]);
    const junk = await app.send(body, { token: 'not.a-token.at-all-really' });
    expect([junk.status, junk.body]).toEqual([401, refusal('credential_malformed')]);
    const forged = await app.send(body, { token: teams.token(now(), {}, OTHER_KEY.privateKey) });
    expect([forged.status, forged.body]).toEqual([401, refusal('invalid_credentials')]);
    const expired = await app.send(body, { token: teams.token(now(), { exp: now() - 301 }) });
    expect([expired.status, expired.body]).toEqual([401, refusal('credential_expired')]);
    const otherBot = await app.send(body, { token: teams.token(now(), { aud: '11111111-2222-4333-8444-555555555555' }) });
    expect([otherBot.status, otherBot.body]).toEqual([401, refusal('invalid_credentials')]);
    const otherIssuer = await app.send(body, { token: teams.token(now(), { iss: 'https://sts.windows.net/x/' }) });
    expect([otherIssuer.status, otherIssuer.body]).toEqual([401, refusal('invalid_credentials')]);
    // A token for another Bot Connector than the activity names (where Rollcall would send).
    const elsewhere = await app.send(body, { token: teams.token(now(), { serviceurl: 'https://smba.example.net/' }) });
    expect([elsewhere.status, elsewhere.body]).toEqual([401, refusal('invalid_credentials')]);
    expect(await app.answersState()).toBe(before);
    // Within the 5 minutes of skew, the same save is taken.
    const fresh = await app.send(body, { token: teams.token(now(), { exp: now() - 299 }) });
    expect(fresh.status).toBe(200);
    expect(await app.answersState()).not.toBe(before);
  });

  it('an activity delivered again (the same conversation and id) is refused and saves nothing more', async () => {
    const body = JSON.stringify(activity(app.teams, app.people.mia, { value: save }));
    expect((await app.send(body)).status).toBe(200);
    const after = await app.answersState();
    app.t.clock.advance(30_000);
    const again = await app.send(body);
    expect([again.status, again.body]).toEqual([401, refusal('credential_expired')]);
    expect(await app.answersState()).toBe(after);
  });

  it('another tenant: 403 workspace_not_connected, even with a token for the bot', async () => {
    const before = await app.answersState();
    const res = await app.submit(app.people.mia, save, { tenant: '99999999-9999-4999-8999-999999999999' });
    expect([res.status, res.body]).toEqual([403, { detail: 'This activity comes from the Microsoft Entra tenant 99999999-9999-4999-8999-999999999999, which is not the one connected to Rollcall.', code: 'workspace_not_connected' }]);
    expect(await app.answersState()).toBe(before);
  });

  it('a person saving through another person\'s prompt: 403 not_your_prompt, nothing saved', async () => {
    const before = await app.answersState();
    const res = await app.submit(app.people.otto, save);
    expect([res.status, res.body]).toEqual([403, { detail: 'This prompt is another person\'s.', code: 'not_your_prompt' }]);
    expect(await app.answersState()).toBe(before);
  });

  it('a prompt of an archived check-in: the person is told, nothing saved', async () => {
    const { t, p, people } = app;
    expect((await t.request('DELETE', `/v1/checkins/${app.checkin.uuid}/archive/`, { key: p.adminKey })).status).toBe(204);
    const before = await app.answersState();
    expect((await app.submit(people.mia, save)).status).toBe(200);
    expect(await app.answersState()).toBe(before);
    await t.deps.delivery.runDue();
    expect(app.posted(`a:personal-${people.mia.aadObjectId}`).at(-1)!.json.attachments[0].content.body[0].text).toBe('This check-in can no longer be answered here: it was archived, or you no longer take part in it.');
  });

  it('signed junk answers 400, never 5xx; an incoming-webhook connection keeps posting to its channel', async () => {
    const { t, p, teams } = app;
    for (const raw of ['[]', '{"oops": ', JSON.stringify({ type: 'message', serviceUrl: 'http://plain.example/', channelData: { tenant: { id: '0d3a6c2e-1111-4a4a-8b8b-2c2c2c2c2c2c' } } })]) {
      expect([raw, (await app.send(raw)).status]).toEqual([raw, 400]);
    }
    const connected = await t.request('PATCH', '/v1/organization/', { key: p.adminKey, body: { platform: { kind: 'microsoft_teams', webhook_url: `${teams.url}/webhook/1` } } });
    expect(connected.status).toBe(200);
    const status = await t.request('GET', '/v1/integrations/', { key: p.adminKey });
    expect(status.body).toMatchObject({ platform: 'microsoft_teams', can_receive: false });
    const sent = await t.request('POST', '/v1/send-message/', { key: p.adminKey, body: { message: 'Still here', target_channels: ['default'] } });
    expect(sent.status).toBe(200);
    await t.deps.delivery.runDue();
    const posted = teams.received.filter((r) => r.url === '/webhook/1');
    expect(posted.map((r) => r.json.attachments[0].content.body[0].text)).toEqual(['Still here']);
    // And the bot's messaging endpoint takes nothing from Teams for it.
    expect((await app.submit(app.people.mia, save)).status).toBe(401);
  });
});
