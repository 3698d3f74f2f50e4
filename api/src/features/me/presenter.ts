import type { Actor } from '../../auth/credentials.ts';
import type { ChatLinkedAccountRow } from '../../db/tables.ts';
import { fullName } from '../users/repository.ts';

/** The spec's current-user fields plus what clients read (CONTRACT §3 and §12). */
export function presentMe({ user, organization }: Actor) {
  const name = fullName(user);
  return {
    id: user.uuid,
    uuid: user.uuid,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    full_name: name,
    role: user.role,
    timezone: user.timezone ?? organization.timezone,
    organization_name: organization.name,
    organization_uuid: organization.uuid,
    user: { uuid: user.uuid, full_name: name, email: user.email },
    organization: { uuid: organization.uuid, name: organization.name },
  };
}

/** A chat account the person linked (GET and POST /v1/me/chat-accounts/). */
export const presentChatAccount = (row: ChatLinkedAccountRow) => ({ platform: row.platform, external_id: row.external_id, name: row.external_name, linked_at: row.linked_at });
export const presentChatAccounts = (rows: ChatLinkedAccountRow[]) => ({ results: rows.map(presentChatAccount) });
