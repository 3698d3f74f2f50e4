import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clickPayload, commandBody, eventBody, imMessage, interactionBody, submitPayload, textValue } from '../../../../test/slack-stand-in.ts';
import { slackHeaders } from '../../../../test/slack-stand-in.ts';
import { AUTH_DETAIL } from '../../../lib/errors.ts';
import { REQUEST_PATHS } from './requests.ts';
import { startSlackApp } from './slack-fixtures.ts';
import type { SlackApp } from './slack-fixtures.ts';

/**
 * What Slack's request URLs refuse, with nothing saved: no signature, a bad one, a stale timestamp, another
 * workspace, a person answering through another person's prompt, a replayed request, an archived check-in.
 */
describe('Slack request URLs: refused, with nothing saved', () => {
  let app: SlackApp;
  let prompt: string;
  let submission: string;
  beforeEach(async () => {
    app = await startSlackApp();
    prompt = await app.promptOf(app.p.member.user.uuid);
    const [q1] = app.checkin.questions;
    const metadata = JSON.stringify({ c: app.checkin.uuid, d: '2026-03-10', p: prompt });
    submission = interactionBody(submitPayload(app.ids.mia, { private_metadata: metadata }, { [`q.${q1.uuid}`]: textValue('Done') }));
  });
  afterEach(async () => app.close());

  const refusal = (code: string) => ({ detail: AUTH_DETAIL, code });

  it('unsigned, badly signed or stale: 401, and nothing happens', async () => {
    const { t } = app;
    const before = await app.answersState();
    for (const kind of ['events', 'interactions', 'commands'] as const) {
      const unsigned = await t.request('POST', REQUEST_PATHS[kind], { raw: 'junk', headers: { 'content-type': 'application/json' } });
      expect([unsigned.status, unsigned.body]).toEqual([401, refusal('credential_absent')]);
    }
    const malformed = await t.request('POST', REQUEST_PATHS.interactions, { raw: submission, headers: { ...slackHeaders(submission, t.clock.now().getTime() / 1000), 'x-slack-signature': 'v0=abc' } });
    expect([malformed.status, malformed.body]).toEqual([401, refusal('credential_malformed')]);
    const wrongSecret = await app.send('interactions', submission, { secret: 'another0signing0secret0000000000' });
    expect([wrongSecret.status, wrongSecret.body]).toEqual([401, refusal('invalid_credentials')]);
    // The right signature of other bytes: one changed character of the body.
    const headers = slackHeaders(submission, t.clock.now().getTime() / 1000);
    const tampered = await t.request('POST', REQUEST_PATHS.interactions, { raw: submission.replace('Done', 'Dona'), headers });
    expect([tampered.status, tampered.body]).toEqual([401, refusal('invalid_credentials')]);
    const stale = await app.send('interactions', submission, { at: t.clock.now().getTime() / 1000 - 301 });
    expect([stale.status, stale.body]).toEqual([401, refusal('credential_expired')]);
    const future = await app.send('interactions', submission, { at: t.clock.now().getTime() / 1000 + 301 });
    expect(future.status).toBe(401);
    expect(await app.answersState()).toBe(before);
    // Within the 5 minutes, the same submission is taken.
    const fresh = await app.send('interactions', submission, { at: t.clock.now().getTime() / 1000 - 299 });
    expect([fresh.status, fresh.body]).toEqual([200, { response_action: 'clear' }]);
  });

  it('a replayed request (the same signature again) is refused and saves nothing more', async () => {
    const { t } = app;
    const headers = slackHeaders(submission, t.clock.now().getTime() / 1000);
    const first = await t.request('POST', REQUEST_PATHS.interactions, { raw: submission, headers });
    expect(first.body).toEqual({ response_action: 'clear' });
    const after = await app.answersState();
    t.clock.advance(30_000);
    const again = await t.request('POST', REQUEST_PATHS.interactions, { raw: submission, headers });
    expect([again.status, again.body]).toEqual([401, refusal('credential_expired')]);
    expect(await app.answersState()).toBe(after);
    // An event Slack sends again (its retry: a new signature, the same event_id) does nothing more either.
    const message = eventBody(imMessage(app.ids.otto, 'Wrote the docs'), { id: 'Ev1' });
    expect((await app.send('events', message)).status).toBe(200);
    const once = await app.answersState();
    t.clock.advance(1000);
    expect((await app.send('events', message)).status).toBe(200);
    expect(await app.answersState()).toBe(once);
  });

  it('another workspace: 403 workspace_not_connected, even with the right signing secret', async () => {
    const before = await app.answersState();
    const other = interactionBody(submitPayload(app.ids.mia, { private_metadata: JSON.stringify({ c: app.checkin.uuid, d: '2026-03-10', p: prompt }) }, {}, 'T0OTHER'));
    const res = await app.send('interactions', other);
    expect([res.status, res.body]).toEqual([403, { detail: 'This request comes from the Slack workspace T0OTHER, which is not the one connected to Rollcall.', code: 'workspace_not_connected' }]);
    expect((await app.send('commands', commandBody(app.ids.mia, 'kudos <@UOTTO> thanks', 'T0OTHER'))).status).toBe(403);
    expect((await app.send('events', eventBody(imMessage(app.ids.mia, 'hi'), { team: 'T0OTHER' }))).status).toBe(403);
    expect(await app.answersState()).toBe(before);
    // The workspace was learned from the bot token once (auth.test), on the first request.
    expect(app.slack.calls('auth.test')).toHaveLength(1);
  });

  it('a person answering through another person\'s prompt: 403 not_your_prompt, nothing opened or saved', async () => {
    const before = await app.answersState();
    const click = await app.send('interactions', interactionBody(clickPayload(app.ids.otto, `p:${prompt}`)));
    expect([click.status, click.body]).toEqual([403, { detail: 'This prompt is another person\'s.', code: 'not_your_prompt' }]);
    expect(app.slack.calls('views.open')).toEqual([]);
    const [q1] = app.checkin.questions;
    const forged = interactionBody(submitPayload(app.ids.otto, { private_metadata: JSON.stringify({ c: app.checkin.uuid, d: '2026-03-10', p: prompt }) }, { [`q.${q1.uuid}`]: textValue('Not mine') }));
    const submitted = await app.send('interactions', forged);
    expect([submitted.status, submitted.body]).toEqual([403, { detail: 'This prompt is another person\'s.', code: 'not_your_prompt' }]);
    expect(await app.answersState()).toBe(before);
  });

  it('a payload for an archived check-in: a notice in the modal, nothing saved', async () => {
    const { t, p } = app;
    expect((await t.request('DELETE', `/v1/checkins/${app.checkin.uuid}/archive/`, { key: p.adminKey })).status).toBe(204);
    const before = await app.answersState();
    const res = await app.send('interactions', submission);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ response_action: 'update', view: { type: 'modal', blocks: [{ text: { text: 'This check-in can no longer be answered here: it was archived, or you no longer take part in it.' } }] } });
    expect(await app.answersState()).toBe(before);
  });

  it('a connection without a signing secret keeps sending but takes no request; the admin screen says so', async () => {
    const { t, p } = app;
    await t.request('PATCH', '/v1/organization/', { key: p.adminKey, body: { platform: { kind: 'slack', bot_token: 'xoxb-test-token' } } });
    const status = await t.request('GET', '/v1/integrations/', { key: p.adminKey });
    expect(status.body).toMatchObject({ platform: 'slack', can_receive: false, problem: 'No signing secret: Rollcall sends to Slack but cannot take answers, buttons or /rollcall. Add the app\'s signing secret to the connection.' });
    const res = await app.send('interactions', submission);
    expect([res.status, res.body]).toEqual([401, refusal('invalid_credentials')]);
    const sent = await t.request('POST', '/v1/send-message/', { key: p.adminKey, body: { message: 'Still here', target_channels: ['C1'] } });
    expect(sent.status).toBe(200);
    await t.deps.delivery.runDue();
    expect(app.slack.calls('chat.postMessage').at(-1)!.json).toMatchObject({ channel: 'C1', text: 'Still here' });
  });

  it('signed junk answers 400, never 5xx; the URL check answers its challenge', async () => {
    for (const [kind, raw] of [['events', '[]'], ['events', '{"oops": '], ['interactions', 'payload=%7Bbad'], ['interactions', 'nothing=1'], ['commands', '']] as const) {
      const res = await app.send(kind, raw);
      expect([kind, raw, res.status]).toEqual([kind, raw, 400]);
    }
    const check = await app.send('events', JSON.stringify({ token: 'legacy', challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P', type: 'url_verification' }), { example: true });
    expect([check.status, check.body]).toEqual([200, { challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P' }]);
  });
});
