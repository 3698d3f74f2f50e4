import { activeUserByEmail, rememberPerson, userOfAccount } from '../../chat-platform/people.ts';
import type { ChatConnection } from '../../chat-platform/connection.ts';
import type { UserRow } from '../../../db/tables.ts';
import { SlackApi } from './api.ts';
import { IN_REQUEST_TIMEOUT_MS } from './requests.ts';
import type { SlackDeps } from './requests.ts';

/**
 * The Rollcall person a Slack user is: matched by e-mail. Known when Rollcall has sent them a direct message
 * (users.lookupByEmail, cached in chat_people); otherwise Slack is asked for their e-mail (users.info) while the
 * request waits, and the answer is kept. Null when their Slack e-mail is no active person's of the organization.
 */
export async function personOf(deps: SlackDeps, connection: ChatConnection, slackUserId: unknown): Promise<UserRow | null> {
  if (typeof slackUserId !== 'string' || !/^[UW][A-Z0-9]{1,40}$/.test(slackUserId)) return null;
  const known = await userOfAccount(deps.db, connection.organizationUuid, 'slack', slackUserId);
  if (known) return known;
  let email: string | null;
  try {
    email = await new SlackApi(deps.http, deps.config.chat.slackApiUrl, connection.botToken ?? '', IN_REQUEST_TIMEOUT_MS).emailOf(slackUserId);
  } catch (err) {
    deps.logger.warn({ organization: connection.organizationUuid, err: String(err) }, 'slack users.info failed: the person of a request is unknown');
    return null;
  }
  if (!email) return null;
  await rememberPerson(deps.db, { organizationUuid: connection.organizationUuid, platform: 'slack', email }, slackUserId, deps.now());
  return (await activeUserByEmail(deps.db, connection.organizationUuid, email)) ?? null;
}
