import { bool } from '../../../lib/json.ts';
import { iso } from '../../../lib/time.ts';
import { fullName } from '../../users/repository.ts';

/** Presenters of the bits every Plan resource shares. */

/** `archived_at` and `is_archived` (spec: "A label can be archived (is_archived true)"; the same on every archivable). */
export const archiveFields = (row: { archived_at: string | null }) => ({ archived_at: iso(row.archived_at), is_archived: row.archived_at !== null });

export const timestamps = (row: { created_at: string; updated_at: string }) => ({ created_at: iso(row.created_at), updated_at: iso(row.updated_at) });

export interface PersonColumns {
  uuid: string;
  first_name: string;
  last_name: string;
  email: string;
  is_active?: boolean | number;
}

/**
 * A person as Plan answers name them: `{uuid, id, full_name, name}` (`name`: the same, under the DailyBot client's
 * name), and their e-mail where the caller may see it.
 */
export function personRef(row: PersonColumns, options: { email?: boolean } = {}) {
  const name = fullName(row);
  return {
    uuid: row.uuid,
    id: row.uuid,
    full_name: name,
    name,
    ...(options.email ? { email: row.email } : {}),
    ...(row.is_active === undefined ? {} : { is_active: bool(row.is_active) }),
  };
}

/** Names as compared for conflicts: trimmed, case-folded. */
export const nameKey = (name: string): string => name.trim().toLowerCase();
