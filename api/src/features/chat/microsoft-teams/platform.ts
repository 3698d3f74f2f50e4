import type { ChatPlatform, ChatPost, PlatformBody, ReportChannel, SendProgress, SendStep } from '../../chat-platform/platform.ts';
import { replyText } from '../../chat-platform/platform.ts';
import { postWebhook } from '../../chat-platform/platform-http.ts';
import { webhookPlatform } from '../../chat-platform/webhook-platform.ts';
import { promptCard, reportCard } from './cards.ts';
import { TeamsConnector } from './connector.ts';
import { MESSAGES_PATH } from './requests.ts';

/** Microsoft Teams incoming webhook: a message with one Adaptive Card attachment. */
export function teamsMessage(post: ChatPost): PlatformBody {
  const body: Record<string, unknown>[] = [{ type: 'TextBlock', text: post.text, wrap: true }];
  if (post.imageUrl) body.push({ type: 'Image', url: post.imageUrl });
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body,
          ...(post.buttons.length ? { actions: post.buttons.map((b) => ({ type: 'Action.OpenUrl', title: b.text, url: b.url })) } : {}),
        },
      },
    ],
  };
}

/** Teams incoming webhooks neither thread nor edit: replies and edits are posted in order. */
const webhook = webhookPlatform({
  kind: 'microsoft_teams',
  label: 'Microsoft Teams',
  post: teamsMessage,
  async send(step) {
    const { payload } = step;
    // A webhook connection shows every card as its text (a bot connection's cards need the bot).
    const body = teamsMessage(payload.progress.step === 0 ? payload.post : { text: replyText(payload), buttons: [], imageUrl: null });
    await postWebhook(step.http, 'POST', step.connection.webhookUrl ?? '', body, 'microsoft teams');
    return { ...payload.progress, step: payload.progress.step + 1 };
  },
});

/**
 * A bot's delivery step, through the Bot Connector: a person's message goes to their personal conversation with
 * the bot (created, or found again, from their Microsoft Entra object id), a channel's to the channel; an edit
 * updates the message sent before; thread replies answer it.
 */
async function sendAsBot(step: SendStep): Promise<SendProgress> {
  const { payload } = step;
  const teams = new TeamsConnector(step.http, step.config, step.connection);
  const progress = { ...payload.progress };
  const target = payload.target;
  if (!progress.channel) {
    progress.channel = target.type === 'user' ? await teams.personalConversation(await step.personId(target.email)) : target.type === 'channel' ? target.id : '';
  }
  if (progress.step === 0) {
    const ref = payload.edit ? await step.refs.get() : null;
    if (ref?.message_id && ref.channel) {
      await teams.update(ref.channel, ref.message_id, step.body);
      progress.message_id = ref.message_id;
    } else {
      progress.message_id = await teams.send(progress.channel, step.body);
      await step.refs.save({ channel: progress.channel, message_id: progress.message_id });
    }
  } else {
    await teams.send(progress.channel, teamsMessage({ text: replyText(payload), buttons: [], imageUrl: null }), progress.message_id || undefined);
  }
  return { ...progress, step: progress.step + 1 };
}

const isBot = (step: { connection: { appId: string | null } }) => step.connection.appId !== null;

/**
 * Microsoft Teams, two ways. Connected as a Bot Framework bot (app id, secret, tenant: docs/chat.md), each person
 * gets their prompt as an Adaptive Card in their chat with the bot and answers in it (requests.ts, activities.ts),
 * and reports go to the team's channels. Connected with an incoming webhook, it posts text to that one channel.
 */
export const teamsPlatform: ChatPlatform = {
  ...webhook,
  directMessages: true,
  ask: (prompt, text) => promptCard(prompt, text, false),
  remind: (prompt, text) => promptCard(prompt, text, true),
  report: reportCard,
  /** A person, by e-mail, in the roster of the team the bot was installed in: their Microsoft Entra object id. */
  async findPerson({ connection, http, config }, email) {
    if (!connection.appId || !connection.rosterId || !connection.serviceUrl) return null;
    const member = await new TeamsConnector(http, config, connection).member(connection.rosterId, email);
    return member?.aadObjectId ?? null;
  },
  send: (step) => (isBot(step) ? sendAsBot(step) : webhook.send(step)),
  async channels(access): Promise<ReportChannel[]> {
    const { connection, http, config } = access;
    if (!connection.appId) return webhook.channels(access);
    if (!connection.rosterId || !connection.serviceUrl) return [];
    const channels = await new TeamsConnector(http, config, connection).channels(connection.rosterId);
    return channels.map((c) => ({ id: c.id, name: c.name, platform: 'microsoft_teams', type: 'public' }));
  },
  receive: {
    requestUrls: (base) => [{ name: 'Azure Bot › Configuration › Messaging endpoint', url: `${base}${MESSAGES_PATH}` }],
    problem: (connection) =>
      connection.appId ? null : 'Connected with an incoming webhook: it shows reports in its channel, and people answer by e-mail or on the web. Connect the Teams bot (app ID, secret, tenant) for people to answer in Teams.',
  },
};
