import type { ChatPlatform, PlatformBody, ReportChannel, SendProgress, SendStep } from '../../chat-platform/platform.ts';
import { replyText } from '../../chat-platform/platform.ts';
import { PersonNotFound } from '../../chat-platform/people.ts';
import type { ChatConnection } from '../../chat-platform/connection.ts';
import { MattermostApi } from './api.ts';
import { postBody, promptBody, reportBody } from './messages.ts';
import { REQUEST_PATHS, actionContext } from './requests.ts';

const api = (step: { connection: ChatConnection; http: SendStep['http'] }) => new MattermostApi(step.http, step.connection.serverUrl ?? '', step.connection.botToken ?? '');

/**
 * The body as posted: each "Answer" button (messages.ts: `rollcall_value`) becomes an integration, our actions
 * URL and a context signed with the connection's secret, so a click proves it came from this message.
 */
function withIntegrations(body: PlatformBody, step: SendStep): PlatformBody {
  const attachments = (body.props as { attachments?: { actions?: Record<string, unknown>[] }[] } | undefined)?.attachments;
  if (!attachments) return body;
  const url = `${step.config.publicUrl ?? `http://localhost:${step.config.port}`}${REQUEST_PATHS.actions}`;
  return {
    ...body,
    props: {
      attachments: attachments.map((a) => ({
        ...a,
        actions: a.actions?.map(({ rollcall_value, ...action }) => ({ ...action, integration: { url, context: actionContext(step.connection, String(rollcall_value)) } })),
      })),
    },
  };
}

/** Posts the delivery's next step: the main post (or its edit), then each thread reply (a reply to the post). */
async function send(step: SendStep): Promise<SendProgress> {
  const { payload } = step;
  const mm = api(step);
  const progress = { ...payload.progress };
  const target = payload.target;
  if (!progress.channel) {
    progress.channel = target.type === 'user' ? await mm.directChannel(await step.personId(target.email)) : target.type === 'channel' ? target.id : '';
  }
  if (progress.step === 0) {
    const ref = payload.edit ? await step.refs.get() : null;
    const body = withIntegrations(step.body, step);
    const post = (ref?.message_id
      ? await mm.call('PUT', `/posts/${encodeURIComponent(ref.message_id)}/patch`, { message: body.message, props: body.props ?? {} })
      : await mm.call('POST', '/posts', { channel_id: progress.channel, ...body })) as { id?: unknown; channel_id?: unknown };
    progress.message_id = String(post.id ?? ref?.message_id ?? '');
    progress.channel = String(post.channel_id ?? ref?.channel ?? progress.channel);
    await step.refs.save({ channel: progress.channel, message_id: progress.message_id });
  } else {
    await mm.call('POST', '/posts', { channel_id: progress.channel, root_id: progress.message_id, message: replyText(payload) });
  }
  return { ...progress, step: progress.step + 1 };
}

/**
 * Mattermost (the self-hosted team chat): a bot account's token and the server's URL; the /rollcall slash
 * command's token for the requests Mattermost sends (routes.ts). People get their prompts and reminders as
 * direct messages from the bot and answer in an interactive dialog; reports go to channels.
 */
export const mattermostPlatform: ChatPlatform = {
  kind: 'mattermost',
  label: 'Mattermost',
  directMessages: true,
  ask: (prompt) => promptBody(prompt, false),
  remind: (prompt) => promptBody(prompt, true),
  report: (report) => reportBody(report),
  post: postBody,
  findPerson: (access, email) => api(access).userIdByEmail(email),
  send,
  async channels(access): Promise<ReportChannel[]> {
    const channels = await api(access).listChannels();
    return channels.map((c) => ({ id: c.id, name: `${c.team} › ${c.display_name || c.name}`, platform: 'mattermost', type: c.type === 'P' ? 'private' : 'public' }));
  },
  async openConversation(access, emails) {
    const mm = api(access);
    if (emails.length !== 1) {
      const ids: string[] = [];
      for (const email of emails) {
        const id = await mm.userIdByEmail(email);
        if (!id) throw new PersonNotFound('mattermost', email);
        ids.push(id);
      }
      const group = (await mm.call('POST', '/channels/group', [await mm.me(), ...ids])) as { id?: unknown };
      return String(group.id ?? '');
    }
    const id = await mm.userIdByEmail(emails[0]);
    if (!id) throw new PersonNotFound('mattermost', emails[0]);
    return mm.directChannel(id);
  },
  receive: {
    requestUrls: (base) => [
      { name: 'Slash Commands › /rollcall › Request URL', url: `${base}${REQUEST_PATHS.commands}` },
      { name: 'Buttons (set by Rollcall in each message; nothing to paste)', url: `${base}${REQUEST_PATHS.actions}` },
      { name: 'Dialogs (set by Rollcall; nothing to paste)', url: `${base}${REQUEST_PATHS.dialogs}` },
    ],
    problem: (connection) =>
      connection.commandToken ? null : 'No slash command token: the Answer buttons work, /rollcall does not. Add the token of the /rollcall slash command to the connection.',
  },
};
