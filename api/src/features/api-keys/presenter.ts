import { readJson } from '../../lib/json.ts';
import { iso } from '../../lib/time.ts';
import { fullName } from '../users/repository.ts';
import type { ApiKeyView } from './service.ts';

export const maskKey = (suffix: string): string => `••••••••${suffix}`;

/** CONTRACT §4 record; `key` (the secret) only in the create and regenerate answers. */
export function presentKey(row: ApiKeyView, secret: string | null = null) {
  const body = {
    uuid: row.uuid,
    id: row.uuid,
    name: row.name,
    kind: row.kind,
    owner: {
      uuid: row.owner_uuid,
      full_name: fullName({ first_name: row.owner_first_name, last_name: row.owner_last_name, email: row.owner_email }),
    },
    created_by: row.created_by_uuid
      ? {
          uuid: row.created_by_uuid,
          full_name: fullName({
            first_name: row.creator_first_name ?? '',
            last_name: row.creator_last_name ?? '',
            email: row.creator_email ?? '',
          }),
        }
      : null,
    key_suffix: row.key_suffix,
    masked_key: maskKey(row.key_suffix),
    is_agent_key: row.kind === 'agent',
    scopes: readJson<string[]>(row.scopes, []),
    expires_at: iso(row.expires_at),
    created_at: iso(row.created_at),
    last_used_at: iso(row.last_used_at),
  };
  return secret ? { ...body, key: secret } : body;
}
