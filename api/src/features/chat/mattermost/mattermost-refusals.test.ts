import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_DETAIL } from '../../../lib/errors.ts';
import { commandRequest } from '../../../../test/mattermost-stand-in.ts';
import { REQUEST_PATHS } from './requests.ts';
import { startMattermostApp } from './mattermost-fixtures.ts';
import type { MattermostApp } from './mattermost-fixtures.ts';

/**
 * What Mattermost's request URLs refuse, with nothing saved: no proof, a forged or tampered one, a stale dialog,
 * another team, a person answering through another person's prompt, a replayed submission, an archived check-in.
 */
describe('Mattermost request URLs: refused, with nothing saved', () => {
  let app: MattermostApp;
  let context: Record<string, string>;
  let state: string;
  beforeEach(async () => {
    app = await startMattermostApp();
    context = app.buttonOf(app.ids.mia).integration.context;
    await app.click(app.ids.mia, context);
    state = app.lastDialog().dialog.state;
  });
  afterEach(async () => app.close());

  const refusal = (code: string) => ({ detail: AUTH_DETAIL, code });
  const answer = () => ({ [`q.${app.checkin.questions[0].uuid}`]: 'Done' });

  it('a button without our signature, or with another one: 401, no dialog opened', async () => {
    const opened = app.mm.calls('POST', '/actions/dialogs/open').length;
    expect([(await app.click(app.ids.mia, undefined)).status, (await app.click(app.ids.mia, undefined)).body]).toEqual([401, refusal('credential_absent')]);
    expect((await app.click(app.ids.mia, { o: context.o, v: context.v, s: 'short' })).body).toEqual(refusal('credential_malformed'));
    const forged = { ...context, s: 'A'.repeat(43) };
    expect((await app.click(app.ids.mia, forged)).body).toEqual(refusal('invalid_credentials'));
    // Mia's signature over another prompt's value.
    const otto = await app.promptOf(app.p.other.user.uuid);
    expect((await app.click(app.ids.mia, { ...context, v: `p:${otto}` })).body).toEqual(refusal('invalid_credentials'));
    expect(app.mm.calls('POST', '/actions/dialogs/open')).toHaveLength(opened);
    const junk = await app.t.request('POST', REQUEST_PATHS.actions, { raw: '[1', headers: { 'content-type': 'application/json' } });
    expect([junk.status, junk.body.code]).toEqual([400, 'malformed_request']);
  });

  it('a tampered or stale dialog state: 401, nothing saved; within 30 minutes it is taken', async () => {
    const { t } = app;
    const before = await app.answersState();
    const tampered = JSON.stringify({ ...JSON.parse(state), d: '2026-03-09' });
    expect((await app.submit(app.ids.mia, tampered, answer())).body).toEqual(refusal('invalid_credentials'));
    expect((await app.submit(app.ids.mia, '{"o":1}', answer())).body).toEqual(refusal('credential_malformed'));
    t.clock.advance(31 * 60_000);
    expect((await app.submit(app.ids.mia, state, answer())).body).toEqual(refusal('credential_expired'));
    expect(await app.answersState()).toBe(before);
    t.clock.advance(-2 * 60_000);
    expect((await app.submit(app.ids.mia, state, answer())).body).toEqual({});
  });

  it('a replayed submission (the same dialog again) is refused and saves nothing more; a click\'s trigger opens one dialog', async () => {
    expect((await app.submit(app.ids.mia, state, answer())).body).toEqual({});
    const after = await app.answersState();
    const again = await app.submit(app.ids.mia, state, { [`q.${app.checkin.questions[0].uuid}`]: 'Changed' });
    expect([again.status, again.body]).toEqual([401, refusal('credential_expired')]);
    expect(await app.answersState()).toBe(after);
    expect((await app.click(app.ids.mia, context, { trigger: 'same' })).status).toBe(200);
    expect((await app.click(app.ids.mia, context, { trigger: 'same' })).body).toEqual(refusal('credential_expired'));
  });

  it('a person answering through another person\'s prompt: 403 not_your_prompt, nothing opened or saved', async () => {
    const before = await app.answersState();
    const opened = app.mm.calls('POST', '/actions/dialogs/open').length;
    const click = await app.click(app.ids.otto, context);
    expect([click.status, click.body]).toEqual([403, { detail: "This prompt is another person's.", code: 'not_your_prompt' }]);
    expect(app.mm.calls('POST', '/actions/dialogs/open')).toHaveLength(opened);
    // Mia's dialog submitted as Otto.
    const submitted = await app.submit(app.ids.otto, state, answer());
    expect([submitted.status, submitted.body]).toEqual([403, { detail: "This prompt is another person's.", code: 'not_your_prompt' }]);
    expect(await app.answersState()).toBe(before);
  });

  it('the slash command: no token, a wrong one, another team', async () => {
    const { t } = app;
    const { raw } = commandRequest(app.ids.mia, 'status');
    const unsigned = await t.request('POST', REQUEST_PATHS.commands, { raw: raw.replace(/token=\w+&/, ''), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect([unsigned.status, unsigned.body]).toEqual([401, refusal('credential_absent')]);
    expect((await app.command(app.ids.mia, 'status', { token: 'x'.repeat(26) })).body).toEqual(refusal('invalid_credentials'));
    expect((await app.command(app.ids.mia, 'status', { token: 'bad token' })).status).toBe(401);
    expect((await app.command(app.ids.mia, 'status')).status).toBe(200);
    const other = await app.command(app.ids.mia, 'status', { team: 'teamother00000000000000001' });
    expect([other.status, other.body]).toEqual([403, { detail: 'This command comes from the Mattermost team teamother00000000000000001, which is not the one connected to Rollcall.', code: 'workspace_not_connected' }]);
  });

  it('a submission for an archived check-in: an error in the dialog, nothing saved', async () => {
    const { t, p } = app;
    expect((await t.request('DELETE', `/v1/checkins/${app.checkin.uuid}/archive/`, { key: p.adminKey })).status).toBe(204);
    const before = await app.answersState();
    const res = await app.submit(app.ids.mia, state, answer());
    expect([res.status, res.body]).toEqual([200, { error: 'This check-in can no longer be answered here: it was archived, or you no longer take part in it.' }]);
    expect(await app.answersState()).toBe(before);
    expect((await app.click(app.ids.mia, context)).body).toEqual({ ephemeral_text: 'This check-in can no longer be answered here: it was archived, or you no longer take part in it.' });
  });

  it('a new connection (another token) keeps the buttons already sent working; another platform refuses them', async () => {
    const { t, p, mm } = app;
    const reconnect = (platform: Record<string, unknown>) => t.request('PATCH', '/v1/organization/', { key: p.adminKey, body: { platform } });
    expect((await reconnect({ kind: 'mattermost', bot_token: 'mmbottoken0000000000000001', server_url: mm.server, command_token: 'mmcommandtoken000000000002' })).status).toBe(200);
    expect((await app.click(app.ids.mia, context)).body).toEqual({});
    expect((await reconnect({ kind: 'slack', bot_token: 'xoxb-test-token', signing_secret: '8f742231b10e8888abcd99yyyzzz85a5' })).status).toBe(200);
    expect((await app.click(app.ids.mia, context)).body).toEqual(refusal('invalid_credentials'));
  });

  it('someone whose e-mail is no person of the organization is told so', async () => {
    const stranger = app.mm.addUser('stranger@elsewhere.test');
    expect((await app.click(stranger, context)).body).toEqual({ ephemeral_text: 'Rollcall has no active person with the e-mail address of your Mattermost account. Ask your Rollcall admin to invite you with that address.' });
    expect((await app.command(stranger, '')).body.text).toMatch(/^Rollcall has no active person/);
  });
});
