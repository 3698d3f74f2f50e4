import { activeUserByEmail, rememberPerson, userOfAccount } from '../../chat-platform/people.ts';
import type { ChatConnection } from '../../chat-platform/connection.ts';
import type { UserRow } from '../../../db/tables.ts';
import { MattermostApi } from './api.ts';
import { IN_REQUEST_TIMEOUT_MS } from './requests.ts';
import type { MattermostDeps } from './requests.ts';

export const NOT_KNOWN = 'Rollcall has no active person with the e-mail address of your Mattermost account. Ask your Rollcall admin to invite you with that address.';

/**
 * The Rollcall person a Mattermost user is, matched by e-mail: known when Rollcall sent them a direct message
 * (GET /users/email/…, cached in chat_people); otherwise Mattermost is asked for their e-mail while the request
 * waits, and the answer kept. Null when their e-mail is no active person's of the organization.
 */
export async function personOf(deps: MattermostDeps, connection: ChatConnection, userId: unknown): Promise<UserRow | null> {
  if (typeof userId !== 'string' || !/^[a-z0-9]{26}$/.test(userId)) return null;
  const known = await userOfAccount(deps.db, connection.organizationUuid, 'mattermost', userId);
  if (known) return known;
  let email: string | null;
  try {
    email = await new MattermostApi(deps.http, connection.serverUrl ?? '', connection.botToken ?? '', IN_REQUEST_TIMEOUT_MS).emailOf(userId);
  } catch (err) {
    deps.logger.warn({ organization: connection.organizationUuid, err: String(err) }, 'mattermost GET /users/:id failed: the person of a request is unknown');
    return null;
  }
  if (!email) return null;
  await rememberPerson(deps.db, { organizationUuid: connection.organizationUuid, platform: 'mattermost', email }, userId, deps.now());
  return (await activeUserByEmail(deps.db, connection.organizationUuid, email)) ?? null;
}
