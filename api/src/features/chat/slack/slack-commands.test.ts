import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clickPayload, commandBody, interactionBody, submitPayload, textValue } from '../../../../test/slack-stand-in.ts';
import { PUBLIC_URL, startSlackApp } from './slack-fixtures.ts';
import type { SlackApp } from './slack-fixtures.ts';

/** `/rollcall`, the admin screen's connection state, the manifest and the test prompt; people Slack does not know. */
describe('Slack: the /rollcall command, the connection for admins, people not found', () => {
  let app: SlackApp;
  beforeEach(async () => {
    app = await startSlackApp();
  });
  afterEach(async () => app.close());

  const ephemeral = (text: string) => ({ response_type: 'ephemeral', text });

  it('/rollcall opens the next check-in of today; status and help answer ephemerally', async () => {
    const { ids, p } = app;
    const opened = await app.send('commands', commandBody(ids.mia, ''), { example: true });
    expect([opened.status, opened.body]).toEqual([200, ephemeral('Opening Daily for 2026-03-10.')]);
    expect(app.lastModal().trigger_id).toBe(`trigger.${ids.mia}`);
    expect(JSON.parse(app.lastModal().view.private_metadata)).toEqual({ c: app.checkin.uuid, d: '2026-03-10', p: await app.promptOf(p.member.user.uuid) });
    expect((await app.send('commands', commandBody(ids.mia, 'status'))).body).toEqual(ephemeral('• *Daily* (2026-03-10): waiting for your answers'));
    const help = await app.send('commands', commandBody(ids.mia, 'help'));
    expect(help.body.text).toContain('*/rollcall kudos @someone Thanks for the review!* gives kudos');
    expect((await app.send('commands', commandBody(ids.mia, 'dance'))).body.text).toMatch(/^Unknown: `\/rollcall dance`\.\n\*\/rollcall\* opens/);
  });

  it('/rollcall kudos @someone message gives kudos through the kudos service; errors answer ephemerally', async () => {
    const { t, ids, p } = app;
    const given = await app.send('commands', commandBody(ids.mia, `kudos <@${ids.otto}|otto> Thanks for the review!`));
    expect(given.body).toEqual(ephemeral('🎉 Kudos sent to Otto Member.'));
    const received = await t.request('GET', '/v1/kudos/?filter=kudos_received', { key: p.other.key });
    expect(received.body.results).toMatchObject([{ content: 'Thanks for the review!', giver: { uuid: p.member.user.uuid } }]);
    expect((await app.send('commands', commandBody(ids.mia, `kudos <@${ids.mia}> me!`))).body).toEqual(ephemeral('You cannot give kudos to yourself.'));
    expect((await app.send('commands', commandBody(ids.mia, 'kudos <@UNOBODY> hi'))).body).toEqual(ephemeral('Rollcall does not know <@UNOBODY>: kudos go to people of your organization.'));
    expect((await app.send('commands', commandBody(ids.mia, `kudos <@${ids.otto}>`))).body.text).toBe('Name someone and say why: `/rollcall kudos @someone Thanks for the review!`');
    // Someone whose Slack e-mail is no person of the organization.
    app.slack.addUser('stranger@elsewhere.test', 'USTRANGER');
    expect((await app.send('commands', commandBody('USTRANGER', 'status'))).body.text).toBe('Rollcall has no active person with the e-mail address of your Slack account. Ask your Rollcall admin to invite you with that address.');
  });

  it('admins see whether Slack can take answers, the URLs to paste and the manifest; a test prompt goes round without saving', async () => {
    const { t, p, ids } = app;
    const status = await t.request('GET', '/v1/integrations/', { key: p.adminKey, example: true });
    expect(status.body).toEqual({
      platform: 'slack', label: 'Slack', can_receive: true, problem: null, workspace: null,
      request_urls: [
        { name: 'Event Subscriptions › Request URL', url: `${PUBLIC_URL}/v1/integrations/slack/events/` },
        { name: 'Interactivity & Shortcuts › Request URL', url: `${PUBLIC_URL}/v1/integrations/slack/interactions/` },
        { name: 'Slash Commands › /rollcall › Request URL', url: `${PUBLIC_URL}/v1/integrations/slack/commands/` },
      ],
      url_problem: null,
      manifest_url: `${PUBLIC_URL}/v1/integrations/slack/manifest/`,
      people_not_found: [],
    });
    expect((await t.request('GET', '/v1/integrations/', { key: p.member.key })).status).toBe(403);
    const manifest = await t.request('GET', '/v1/integrations/slack/manifest/', { key: p.adminKey, example: true });
    expect(manifest.body.settings).toEqual({
      event_subscriptions: { request_url: `${PUBLIC_URL}/v1/integrations/slack/events/`, bot_events: ['app_home_opened', 'message.im'] },
      interactivity: { is_enabled: true, request_url: `${PUBLIC_URL}/v1/integrations/slack/interactions/` },
      org_deploy_enabled: false, socket_mode_enabled: false, token_rotation_enabled: false,
    });
    expect(manifest.body.features.slash_commands[0]).toMatchObject({ command: '/rollcall', url: `${PUBLIC_URL}/v1/integrations/slack/commands/`, should_escape: true });
    expect(manifest.body.oauth_config.scopes.bot).toContain('users:read.email');
    expect((await t.request('GET', '/v1/integrations/slack/manifest/', { key: p.member.key })).status).toBe(403);

    // The test prompt: a direct message to the admin, whose modal saves nothing.
    const admin = app.slack.addUser(p.admin.email);
    const sent = await t.request('POST', '/v1/integrations/test-prompt/', { key: p.adminKey, example: true });
    expect([sent.status, sent.body]).toEqual([202, { queued: true, bot_message_id: expect.any(String), platform: 'slack', to: p.admin.email }]);
    await t.deps.delivery.runDue();
    const dm = app.slack.calls('chat.postMessage').find((c) => c.json.channel === `D${admin}`)!.json;
    expect(dm.blocks[2].elements[0].value).toBe(`t:${sent.body.bot_message_id}`);
    await app.send('interactions', interactionBody(clickPayload(admin, `t:${sent.body.bot_message_id}`)));
    const modal = app.lastModal().view;
    expect(modal.title.text).toBe('Rollcall test');
    const before = await app.answersState();
    expect((await app.send('interactions', interactionBody(submitPayload(admin, modal, { 'q.test': textValue('Fine') })))).body).toEqual({ response_action: 'clear' });
    expect(await app.answersState()).toBe(before);
    await t.deps.delivery.runDue();
    const update = app.slack.calls('chat.update').at(-1)!.json;
    expect(update.channel).toBe(`D${admin}`);
    expect(update.blocks.at(-1).elements[0].text).toBe('A test prompt: nothing was saved.');
    expect((await t.request('GET', '/v1/integrations/', { key: p.adminKey })).body.workspace).toBe('T0ACME');
    void ids;
  });

  it('people Slack does not know by their e-mail get no direct message; the runs and the admin screen list them', async () => {
    await app.close();
    app = await startSlackApp({ askNow: false });
    const { t, p } = app;
    // Gus takes part too, but Slack has nobody with his e-mail.
    await t.request('PATCH', `/v1/checkins/${app.checkin.uuid}/config/`, { key: p.adminKey, body: { participants: { user_uuids: [p.member.user.uuid, p.other.user.uuid, p.guest.user.uuid] } } });
    await app.ask();
    const failed = await t.request('GET', '/v1/deliveries/?channel=chat&status=failed', { key: p.adminKey });
    expect(failed.body.results.map((d: { destination: string; last_error: string }) => [d.destination, d.last_error])).toEqual([
      [`slack:user:${p.guest.user.email}`, `slack: nobody in the workspace has the e-mail ${p.guest.user.email}`],
    ]);
    const status = await t.request('GET', '/v1/integrations/', { key: p.adminKey });
    expect(status.body.people_not_found).toEqual([{ uuid: p.guest.user.uuid, first_name: 'Gus', last_name: 'Member', email: p.guest.user.email, looked_up_at: '2026-03-10T08:00:00.000Z' }]);
    const runs = await t.request('GET', `/v1/checkins/${app.checkin.uuid}/runs/`, { key: p.adminKey });
    const accounts = Object.fromEntries(runs.body.results[0].prompts.map((r: { user: { full_name: string }; chat_account: string }) => [r.user.full_name, r.chat_account]));
    expect(accounts).toEqual({ 'Mia Member': 'found', 'Otto Member': 'found', 'Gus Member': 'not_found' });
    // The lookup is cached: a second message to Gus within the hour asks Slack nothing.
    const lookups = app.slack.calls('users.lookupByEmail').length;
    await t.request('POST', '/v1/send-message/', { key: p.adminKey, body: { message: 'Hi', target_users: [p.guest.user.uuid] } });
    await t.deps.delivery.runDue();
    expect(app.slack.calls('users.lookupByEmail')).toHaveLength(lookups);
  });
});
