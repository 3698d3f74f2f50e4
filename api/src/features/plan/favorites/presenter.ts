import { iso } from '../../../lib/time.ts';
import type { FavoriteView } from './service.ts';

/** A favorite; `target_type` and `target_uuid` are `object_type` and `object_uuid` under the DailyBot client's names. */
export function presentFavorite({ row, object, rank }: FavoriteView) {
  return {
    uuid: row.uuid, id: row.uuid, object_type: row.object_type, object_uuid: row.object_uuid, target_type: row.object_type, target_uuid: row.object_uuid,
    object, rank, created_at: iso(row.created_at),
  };
}
