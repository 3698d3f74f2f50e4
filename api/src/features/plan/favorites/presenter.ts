import { iso } from '../../../lib/time.ts';
import type { FavoriteView } from './service.ts';

export function presentFavorite({ row, object }: FavoriteView) {
  return { uuid: row.uuid, id: row.uuid, object_type: row.object_type, object_uuid: row.object_uuid, object, created_at: iso(row.created_at) };
}
