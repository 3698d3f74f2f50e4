import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { TEST_CA, startHttpsReceiver } from '../../../test/receivers.ts';
import type { HttpsReceiver, Received } from '../../../test/receivers.ts';
import { SecretBox } from '../../outbound/secret-box.ts';

/** Local stand-ins answering as Slack's Web API, Discord, Google Chat and Teams incoming webhooks document. */
function platformStandIn(req: Received) {
  const url = new URL(req.url, 'https://stand-in');
  if (url.pathname.startsWith('/api/') && !url.pathname.startsWith('/api/webhooks/')) {
    if (req.headers.authorization !== 'Bearer xoxb-test-token') return { status: 200, body: { ok: false, error: 'invalid_auth' } };
    const method = url.pathname.slice(5);
    if (method === 'users.lookupByEmail') return { status: 200, body: { ok: true, user: { id: `U_${url.searchParams.get('email')!.split('@')[0].toUpperCase()}` } } };
    if (method === 'conversations.open') return { status: 200, body: { ok: true, channel: { id: `D_${req.json.users.replace(/,/g, '_')}` } } };
    if (method === 'chat.postMessage' || method === 'chat.update') return { status: 200, body: { ok: true, channel: req.json.channel, ts: req.json.ts ?? `1700000000.00000${Math.floor(Math.random() * 9)}` } };
    if (method === 'conversations.list') return { status: 200, body: { ok: true, channels: [{ id: 'C1', name: 'general', is_private: false }, { id: 'G2', name: 'leads', is_private: true }], response_metadata: { next_cursor: '' } } };
    return { status: 200, body: { ok: false, error: 'unknown_method' } };
  }
  if (url.pathname.startsWith('/api/webhooks/')) return { status: 200, body: { id: '111', content: req.json?.content } };
  if (url.pathname.startsWith('/v1/spaces/')) return { status: 200, body: { name: 'spaces/AAA/messages/m1', thread: { name: 'spaces/AAA/threads/t1' } } };
  return { status: 200, body: '1' };
}

describe('Chat platforms (CONTRACT §7, §10, §12)', () => {
  let t: TestApp;
  let acme: Awaited<ReturnType<TestApp['seedOrganization']>>;
  let rx: HttpsReceiver;
  beforeEach(async () => {
    rx = await startHttpsReceiver(platformStandIn);
    t = await startTestApp(
      { allowPrivateWebhooks: true },
      { SLACK_API_URL: `${rx.url}/api`, DISCORD_WEBHOOK_BASE_URL: `${rx.url}/api/webhooks/`, GOOGLE_CHAT_WEBHOOK_BASE_URL: `${rx.url}/v1/spaces/` },
      { ca: TEST_CA },
    );
    acme = await t.seedOrganization();
  });
  afterEach(async () => {
    await t.close();
    await rx.close();
  });

  const connect = (platform: unknown) => t.request('PATCH', '/v1/organization/', { key: acme.adminKey, body: { platform } });
  const slackCalls = (method: string) => rx.received.filter((r) => r.url.startsWith(`/api/${method}`));

  it('with nothing connected: sending answers 400 platform_not_connected, listing channels an empty list', async () => {
    const expected = { detail: 'No chat platform is connected. Connect Slack, Microsoft Teams, Discord or Google Chat in PATCH /v1/organization/ (platform).', code: 'platform_not_connected' };
    const send = await t.request('POST', '/v1/send-message/', { key: acme.adminKey, body: { message: 'hi', target_channels: ['C1'] } });
    expect(send.status).toBe(400);
    expect(send.body).toEqual(expected);
    const channels = await t.request('GET', '/v1/report-channels/', { key: acme.adminKey });
    expect([channels.status, channels.body]).toEqual([200, { channels: [], total: 0 }]);
    expect((await t.request('POST', '/v1/open-conversation/', { key: acme.adminKey, body: { users_uuids: [acme.admin.uuid] } })).body).toEqual(expected);
  });

  it('connects Slack through PATCH /v1/organization/ with a write-only bot token', async () => {
    const bad = await connect({ kind: 'slack', bot_token: 'nope' });
    expect(bad.body).toEqual({ 'platform.bot_token': ['A Slack bot token (xoxb-…) is required.'] });
    const res = await connect({ kind: 'slack', bot_token: 'xoxb-test-token' });
    expect(res.status).toBe(200);
    expect(res.body.platform).toBe('slack');
    expect(JSON.stringify(res.body)).not.toContain('xoxb');
    expect((await t.request('GET', '/v1/organization/', { key: acme.adminKey })).body.platform).toBe('slack');
    expect(JSON.stringify(await t.db('chat_connections'))).not.toContain('xoxb-test-token');
    const member = await t.seedUser(acme.org.uuid);
    expect((await t.request('PATCH', '/v1/organization/', { key: member.key, body: { platform: null } })).status).toBe(403);
    expect((await connect(null)).body.platform).toBeNull();
  });

  it('Slack: posts to channels and users’ DMs (chat.postMessage), threads replies, edits by bot_message_id (chat.update)', async () => {
    await connect({ kind: 'slack', bot_token: 'xoxb-test-token' });
    const mia = await t.seedUser(acme.org.uuid, { email: 'mia@acme.test' });
    const res = await t.request('POST', '/v1/send-message/', {
      key: acme.adminKey,
      body: {
        message: 'Release 1.2 is out',
        target_channels: ['C1'],
        target_users: [mia.user.uuid],
        buttons: [{ text: 'Notes', url: 'https://example.com/notes', style: 'primary' }],
        thread_responses: ['Changelog: …'],
        platform_settings: { unfurl_links: false, ignored: 1 },
        skip_users_on_time_off: true,
        send_as_user: false,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ bot_message_id: expect.stringMatching(/^[0-9a-f-]{36}$/), thread_responses: ['Changelog: …'], targets: 2 });
    await t.deps.delivery.runDue();

    expect(slackCalls('chat.postMessage')).toHaveLength(4);
    // The channel's post and the direct message are separate deliveries, which may go in either order; within the
    // channel the reply follows its post (it needs the post's ts).
    const posts = [...slackCalls('chat.postMessage').filter((c) => c.json.channel === 'C1'), ...slackCalls('chat.postMessage').filter((c) => c.json.channel !== 'C1')];
    expect(posts[0].headers['content-type']).toBe('application/json; charset=utf-8');
    expect(posts[0].json).toEqual({
      channel: 'C1',
      unfurl_links: false,
      text: 'Release 1.2 is out',
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: 'Release 1.2 is out' } },
        { type: 'actions', elements: [{ type: 'button', action_id: 'rollcall_button_0', text: { type: 'plain_text', text: 'Notes' }, url: 'https://example.com/notes', style: 'primary' }] },
      ],
    });
    expect(posts[1].json).toMatchObject({ channel: 'C1', text: 'Changelog: …' });
    expect(posts[1].json.thread_ts).toMatch(/^1700000000\.\d+$/);
    expect(slackCalls('users.lookupByEmail')[0].url).toBe('/api/users.lookupByEmail?email=mia%40acme.test');
    expect(slackCalls('conversations.open')[0].json).toEqual({ users: 'U_MIA' });
    expect(posts[2].json.channel).toBe('D_U_MIA');

    const edit = await t.request('POST', '/v1/send-message/', { key: acme.adminKey, body: { message: 'Release 1.2.1 is out', target_channels: ['C1'], bot_message_id: res.body.bot_message_id } });
    expect(edit.body.bot_message_id).toBe(res.body.bot_message_id);
    await t.deps.delivery.runDue();
    const [update] = slackCalls('chat.update');
    expect(update.json).toMatchObject({ channel: 'C1', ts: posts[1].json.thread_ts, text: 'Release 1.2.1 is out' });
    const unknown = await t.request('POST', '/v1/send-message/', { key: acme.adminKey, body: { message: 'x', target_channels: ['C1'], bot_message_id: '0190c8f4-0000-7000-8000-000000000000' } });
    expect(unknown.status).toBe(404);
    const none = await t.request('POST', '/v1/send-message/', { key: acme.adminKey, body: { message: 'x' } });
    expect(none.body).toEqual({ non_field_errors: ['Give at least one target: target_users, target_channels or target_teams.'] });
  });

  it('Slack: report channels and open-conversation {users_uuids} → {channel}', async () => {
    await connect({ kind: 'slack', bot_token: 'xoxb-test-token' });
    const channels = await t.request('GET', '/v1/report-channels/', { key: acme.adminKey, example: true });
    expect(channels.body).toEqual({
      channels: [
        { id: 'C1', name: 'general', platform: 'slack', type: 'public' },
        { id: 'G2', name: 'leads', platform: 'slack', type: 'private' },
      ],
      total: 2,
    });
    const bob = await t.seedUser(acme.org.uuid, { email: 'bob@acme.test' });
    const open = await t.request('POST', '/v1/open-conversation/', { key: acme.adminKey, body: { users_uuids: [bob.user.uuid, acme.admin.uuid] } });
    expect(open.status).toBe(200);
    expect(open.body).toEqual({ channel: 'D_U_BOB_U_ADMIN' });
  });

  it('credentials sealed under another key: a send is queued and fails at once with the reason; a platform call answers 503', async () => {
    await connect({ kind: 'slack', bot_token: 'xoxb-test-token' });
    await t.db('chat_connections').update({ credentials_encrypted: new SecretBox(SecretBox.newKey()).encrypt('{"bot_token":"xoxb-test-token"}') });
    const sent = await t.request('POST', '/v1/send-message/', { key: acme.adminKey, body: { message: 'x', target_channels: ['C1'] } });
    expect(sent.status).toBe(200);
    await t.deps.delivery.runDue();
    const failed = await t.request('GET', '/v1/deliveries/?channel=chat', { key: acme.adminKey });
    expect(failed.body.results).toEqual([expect.objectContaining({ status: 'failed', attempts: 1, last_error: `local error, not retried: cannot decrypt the chat platform credentials: the encryption key (ENCRYPTION_KEY or DATA_DIR/encryption.key) is not the one it was stored with, or the stored value is damaged` })]);
    const channels = await t.request('GET', '/v1/report-channels/', { key: acme.adminKey });
    expect(channels.status).toBe(503);
    expect(channels.body).toEqual({
      detail: "A stored secret cannot be decrypted with this server's encryption key (ENCRYPTION_KEY); an operator must restore the key it was stored with.",
      code: 'stored_secret_unreadable',
    });
    expect(slackCalls('chat.postMessage')).toHaveLength(0);
  });

  it('Slack errors: ok:false invalid_auth fails the delivery (permanent), the admin sees why', async () => {
    await connect({ kind: 'slack', bot_token: 'xoxb-wrong' });
    await t.request('POST', '/v1/send-message/', { key: acme.adminKey, body: { message: 'x', target_channels: ['C1'] } });
    await t.deps.delivery.runDue();
    const failed = await t.request('GET', '/v1/deliveries/?status=failed&channel=chat', { key: acme.adminKey });
    expect(failed.body.results[0]).toMatchObject({ destination: 'slack:channel:C1', last_error: 'slack chat.postMessage: invalid_auth' });
  });

  it('credentials the key cannot open fail the chat delivery at once with the reason, never retried', async () => {
    await connect({ kind: 'slack', bot_token: 'xoxb-test-token' });
    await t.request('POST', '/v1/send-message/', { key: acme.adminKey, body: { message: 'x', target_channels: ['C1'] } });
    await t.db('chat_connections').update({ credentials_encrypted: 'v1.damaged.sealed.value' });
    await t.deps.delivery.runDue();
    t.clock.advance(24 * 3_600_000);
    await t.deps.delivery.runDue();
    const failed = await t.request('GET', '/v1/deliveries/?channel=chat', { key: acme.adminKey });
    expect(failed.body.results.map((d: { status: string; attempts: number; last_error: string }) => [d.status, d.attempts, d.last_error])).toEqual([
      ['failed', 1, 'local error, not retried: cannot decrypt the chat platform credentials: the encryption key (ENCRYPTION_KEY or DATA_DIR/encryption.key) is not the one it was stored with, or the stored value is damaged'],
    ]);
    expect(rx.received.filter((r) => r.url.startsWith('/api/chat.'))).toEqual([]);
  });

  it('Microsoft Teams: an Adaptive Card message to the incoming webhook', async () => {
    expect((await connect({ kind: 'microsoft_teams', webhook_url: 'http://example.com/x' })).body).toEqual({ 'platform.webhook_url': ['Must be an HTTPS URL (ALLOW_PRIVATE_WEBHOOKS allows private addresses, not http://).'] });
    await connect({ kind: 'microsoft_teams', webhook_url: `${rx.url}/webhookb2/abc`, channel_name: 'Engineering' });
    expect((await t.request('GET', '/v1/report-channels/', { key: acme.adminKey })).body).toEqual({ channels: [{ id: 'default', name: 'Engineering', platform: 'microsoft_teams', type: 'webhook' }], total: 1 });
    await t.request('POST', '/v1/send-message/', { key: acme.adminKey, body: { message: 'Stand-up in 5', target_channels: ['default'], buttons: [{ text: 'Join', url: 'https://meet.example/x' }] } });
    await t.deps.delivery.runDue();
    const [req] = rx.received.filter((r) => r.url === '/webhookb2/abc');
    expect(req.json).toEqual({
      type: 'message',
      attachments: [{
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [{ type: 'TextBlock', text: 'Stand-up in 5', wrap: true }],
          actions: [{ type: 'Action.OpenUrl', title: 'Join', url: 'https://meet.example/x' }],
        },
      }],
    });
  });

  it('Discord: execute webhook with ?wait=true, then edit the message by bot_message_id', async () => {
    expect((await connect({ kind: 'discord', webhook_url: 'https://evil.example/api/webhooks/1/x' })).status).toBe(400);
    await connect({ kind: 'discord', webhook_url: `${rx.url}/api/webhooks/42/tok` });
    const mia = await t.seedUser(acme.org.uuid, { firstName: 'Mia' });
    const sent = await t.request('POST', '/v1/send-message/', { key: acme.adminKey, body: { message: 'Deploy done', target_users: [mia.user.uuid], image_url: 'https://example.com/i.png' } });
    await t.deps.delivery.runDue();
    const [post] = rx.received;
    expect(post.method).toBe('POST');
    expect(post.url).toBe('/api/webhooks/42/tok?wait=true');
    expect(post.json).toEqual({ content: '@Mia Member Deploy done', allowed_mentions: { parse: [] }, embeds: [{ image: { url: 'https://example.com/i.png' } }] });
    await t.request('POST', '/v1/send-message/', { key: acme.adminKey, body: { message: 'Deploy done (fixed)', target_channels: ['default'], bot_message_id: sent.body.bot_message_id } });
    await t.deps.delivery.runDue();
    expect(rx.received[1].method).toBe('PATCH');
    expect(rx.received[1].url).toBe('/api/webhooks/42/tok/messages/111');
    expect(rx.received[1].json.content).toBe('Deploy done (fixed)');
  });

  it('Google Chat: text (and cardsV2 for buttons) with a thread key; replies share the thread', async () => {
    await connect({ kind: 'google_chat', webhook_url: `${rx.url}/v1/spaces/AAA/messages?key=k1&token=t1` });
    const sent = await t.request('POST', '/v1/send-message/', { key: acme.adminKey, body: { messages: ['Weekly report', 'is ready'], target_channels: ['default'], thread_responses: ['Details inside'] } });
    await t.deps.delivery.runDue();
    expect(rx.received).toHaveLength(2);
    for (const req of rx.received) {
      const url = new URL(req.url, 'https://x');
      expect(url.pathname).toBe('/v1/spaces/AAA/messages');
      expect(Object.fromEntries(url.searchParams)).toEqual({ key: 'k1', token: 't1', threadKey: sent.body.bot_message_id, messageReplyOption: 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD' });
      expect(req.headers['content-type']).toBe('application/json; charset=utf-8');
    }
    expect(rx.received[0].json).toEqual({ text: 'Weekly report\n\nis ready' });
    expect(rx.received[1].json).toEqual({ text: 'Details inside' });
    const [row] = await t.db('deliveries');
    expect(row.status).toBe('delivered');
  });
});
