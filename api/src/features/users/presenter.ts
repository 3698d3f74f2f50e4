import { bool } from '../../lib/json.ts';
import { iso } from '../../lib/time.ts';
import { fullName } from './repository.ts';
import type { UserRow } from '../../db/tables.ts';

/** CONTRACT §3 user; `email` only when the caller may see it and asked with include_email=true. */
export function presentUser(row: UserRow, options: { email: boolean; timeOff?: { start: string; end: string }[] }) {
  return {
    uuid: row.uuid,
    id: row.uuid,
    ...(options.email ? { email: row.email } : {}),
    first_name: row.first_name,
    last_name: row.last_name,
    full_name: fullName(row),
    role: row.role,
    is_active: bool(row.is_active),
    timezone: row.timezone ?? null,
    occupation: row.occupation ?? null,
    image: row.image ?? null,
    created_at: iso(row.created_at),
    // One user's answer (GET and PATCH /v1/users/{uuid}/) carries their time off; lists do not.
    ...(options.timeOff ? { time_off: options.timeOff } : {}),
  };
}

/** The short reference other resources embed. */
export const userRef = (row: Pick<UserRow, 'uuid' | 'first_name' | 'last_name' | 'email'>) => ({ uuid: row.uuid, full_name: fullName(row) });
