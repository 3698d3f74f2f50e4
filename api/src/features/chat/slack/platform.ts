import type { ChatPlatform, ReportChannel, SendStep, SendProgress } from '../../chat-platform/platform.ts';
import { replyText } from '../../chat-platform/platform.ts';
import { PersonNotFound } from '../../chat-platform/people.ts';
import { SlackApi } from './api.ts';
import { homeView, postBody, promptBody, reportBody } from './blocks.ts';
import { REQUEST_PATHS } from './requests.ts';

/** Posts the delivery's next step: the main post (or its edit, or the App Home), then each thread reply. */
async function send(step: SendStep): Promise<SendProgress> {
  const { payload, connection } = step;
  const slack = new SlackApi(step.http, step.config.chat.slackApiUrl, connection.botToken ?? '');
  const progress = { ...payload.progress };
  const target = payload.target;
  if (payload.message?.kind === 'home') {
    // The App Home is the person's own tab (views.publish), not a message.
    if (target.type !== 'user') throw new Error('an App Home goes to a person');
    await slack.call('views.publish', { user_id: await step.personId(target.email), view: step.body });
    return { ...progress, step: progress.step + 1 + payload.thread.length };
  }
  if (!progress.channel) {
    progress.channel = target.type === 'user' ? await slack.openConversation([await step.personId(target.email)]) : target.type === 'channel' ? target.id : '';
  }
  if (progress.step === 0) {
    const ref = payload.edit ? await step.refs.get() : null;
    const json = ref?.ts
      ? await slack.call('chat.update', { channel: ref.channel ?? progress.channel, ts: ref.ts, ...step.body })
      : await slack.call('chat.postMessage', { channel: progress.channel, ...payload.slack_extra, ...step.body });
    progress.ts = String(json.ts ?? ref?.ts ?? '');
    progress.channel = String(json.channel ?? progress.channel);
    await step.refs.save({ channel: progress.channel, ts: progress.ts });
  } else {
    await slack.call('chat.postMessage', { channel: progress.channel, text: replyText(payload), thread_ts: progress.ts });
  }
  return { ...progress, step: progress.step + 1 };
}

/**
 * Slack: a bot token (xoxb-…) for the Web API, and the app's signing secret for the requests Slack sends
 * (events, interactivity, the `/rollcall` command: routes.ts). People get their prompts and reminders as direct
 * messages and answer in a modal or in the conversation.
 */
export const slackPlatform: ChatPlatform = {
  kind: 'slack',
  label: 'Slack',
  directMessages: true,
  ask: (prompt, text) => promptBody(prompt, text, false),
  remind: (prompt, text) => promptBody(prompt, text, true),
  report: reportBody,
  post: postBody,
  home: homeView,
  findPerson: ({ connection, http, config }, email) => new SlackApi(http, config.chat.slackApiUrl, connection.botToken ?? '').userIdByEmail(email),
  send,
  async channels({ connection, http, config }): Promise<ReportChannel[]> {
    const channels = await new SlackApi(http, config.chat.slackApiUrl, connection.botToken ?? '').listChannels();
    return channels.map((c) => ({ id: c.id, name: c.name, platform: 'slack', type: c.is_private ? 'private' : 'public' }));
  },
  async openConversation({ connection, http, config }, emails) {
    const slack = new SlackApi(http, config.chat.slackApiUrl, connection.botToken ?? '');
    const ids: string[] = [];
    for (const email of emails) {
      const id = await slack.userIdByEmail(email);
      if (!id) throw new PersonNotFound('slack', email);
      ids.push(id);
    }
    return slack.openConversation(ids);
  },
  receive: {
    requestUrls: (base) => [
      { name: 'Event Subscriptions › Request URL', url: `${base}${REQUEST_PATHS.events}` },
      { name: 'Interactivity & Shortcuts › Request URL', url: `${base}${REQUEST_PATHS.interactions}` },
      { name: 'Slash Commands › /rollcall › Request URL', url: `${base}${REQUEST_PATHS.commands}` },
    ],
    manifestPath: '/v1/integrations/slack/manifest/',
    problem: (connection) =>
      connection.signingSecret ? null : 'No signing secret: Rollcall sends to Slack but cannot take answers, buttons or /rollcall. Add the app\'s signing secret to the connection.',
  },
};
