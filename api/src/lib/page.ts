/** Lists page by `page` (1-based) and `page_size`, or by `limit` and `offset`; 50 items by default, 100 at most (CONTRACT §2). */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

/** Which slice of a list to read: services take it, http/query.ts reads it from the request. */
export interface PageRequest {
  limit: number;
  offset: number;
  /** Which style the caller used, so `next`/`previous` answer in the same style. */
  style: 'page' | 'offset';
}
