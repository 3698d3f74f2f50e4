import type { AuditEventRow, ExchangeTokenRow, UserRow } from '../../db/tables.ts';
import { iso } from '../../lib/time.ts';
import type { AuditPerson } from './service.ts';
import { EXCHANGE_TOKEN_SECONDS } from '../../auth/exchange-tokens.ts';
import { fullName } from '../users/repository.ts';

/** CONTRACT §4 `{token, expires_in: 300}`, with the instant and the member it acts as. */
export const presentExchangeToken = ({ row, token, member }: { row: ExchangeTokenRow; token: string; member: UserRow }) => ({
  token,
  expires_in: EXCHANGE_TOKEN_SECONDS,
  expires_at: row.expires_at,
  user: { uuid: member.uuid, full_name: fullName(member) },
});

/** One audit event: who was acted as (`user`), the admin behind it, the credential, and the request with its status. */
export function presentAuditEvent(row: AuditEventRow, people: Map<string, AuditPerson>) {
  const person = (uuid: string | null) => {
    const found = uuid ? people.get(uuid) : undefined;
    return uuid ? { uuid, full_name: found ? fullName(found) : null } : null;
  };
  return {
    uuid: row.uuid,
    id: row.uuid,
    action: row.action,
    user: person(row.actor_uuid),
    admin: person(row.admin_uuid),
    credential_uuid: row.credential_uuid,
    exchange_token_uuid: row.exchange_token_uuid,
    method: row.method,
    path: row.path,
    status: row.status === null ? null : Number(row.status),
    created_at: iso(row.created_at),
  };
}
