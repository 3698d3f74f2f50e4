import type { Config } from '../../lib/config.ts';
import type { Db } from '../../db/connection.ts';
import { badRequest } from '../../lib/errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import type { Actor } from '../../auth/credentials.ts';
import type { SecretBox } from '../../outbound/secret-box.ts';
import { getConnection, requirePlatform, sendsDirectMessages } from '../chat-platform/connection.ts';
import { enqueueChatPost } from '../chat-platform/enqueue.ts';
import { peopleNotFound } from '../chat-platform/people.ts';
import { testPromptCard } from '../chat-platform/test-prompt.ts';
import type { Platform } from '../../db/tables.ts';
import { PLATFORMS } from './platforms.ts';

/** GET /v1/integrations/: what the admin screen shows of the chat connection. */
export interface IntegrationStatus {
  platform: Platform | null;
  label: string | null;
  can_receive: boolean;
  /** Why people cannot answer through the platform (no signing secret, a webhook-only platform), or null. */
  problem: string | null;
  /** The platform's workspace, once a request told it (Slack team id). */
  workspace: string | null;
  /** The URLs to paste in the platform's app settings. */
  request_urls: { name: string; url: string }[];
  /** Why those URLs may not work (not https: Slack calls only https URLs it can reach), or null. */
  url_problem: string | null;
  manifest_url: string | null;
  /** People the platform has no account for (matched by e-mail): they get e-mail only. */
  people_not_found: { uuid: string; first_name: string; last_name: string; email: string; looked_up_at: string }[];
}

export async function integrationStatus(db: Db, box: SecretBox, actor: Actor, base: string): Promise<IntegrationStatus> {
  const connection = await getConnection(db, box, actor.organization.uuid);
  if (!connection) {
    return { platform: null, label: null, can_receive: false, problem: 'No chat platform is connected.', workspace: null, request_urls: [], url_problem: null, manifest_url: null, people_not_found: [] };
  }
  const platform = PLATFORMS[connection.platform];
  const receive = platform.receive;
  const problem = receive ? receive.problem(connection) : `${platform.label} is connected with an incoming webhook: it shows prompts and reports, and people answer by e-mail or on the web.`;
  return {
    platform: connection.platform,
    label: platform.label,
    can_receive: problem === null,
    problem,
    workspace: connection.externalTeamId,
    request_urls: receive?.requestUrls(base) ?? [],
    url_problem: receive && !base.startsWith('https://') ? `These URLs start with ${base}: ${platform.label} calls only https URLs it can reach. Set PUBLIC_URL to the server's public https address.` : null,
    manifest_url: receive?.manifestPath ? `${base}${receive.manifestPath}` : null,
    people_not_found: await peopleNotFound(db, actor.organization.uuid, connection.platform),
  };
}

/**
 * POST /v1/integrations/test-prompt/: a test prompt to the caller, as a direct message (one question; answering
 * it saves nothing), to check the whole way round from the admin screen.
 */
export async function sendTestPrompt(db: Db, config: Config, actor: Actor, now: Date): Promise<{ botMessageId: string; platform: Platform; to: string }> {
  const platform = await requirePlatform(db, actor.organization.uuid);
  if (!(await sendsDirectMessages(db, actor.organization.uuid, platform))) {
    throw badRequest('platform_without_direct_messages', `${PLATFORMS[platform].label} is connected with an incoming webhook: it has no direct messages to send a test prompt to.`);
  }
  const id = uuidv7(now.getTime());
  const card = testPromptCard(id, config, now);
  await db.transaction((trx) =>
    enqueueChatPost(trx, {
      organizationUuid: actor.organization.uuid, platform, botMessageId: id, text: `${card.checkin_name}: ${card.questions[0].text}`, message: { kind: 'prompt', prompt: card },
      channels: [], users: [actor.user], kind: 'chat.test_prompt',
    }, now),
  );
  return { botMessageId: id, platform, to: actor.user.email };
}
