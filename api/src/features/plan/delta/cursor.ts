import { badRequest, invalidFilter } from '../../../lib/errors.ts';
import { isUuid } from '../../../lib/ids.ts';

/** The spec's delta cursor age: a cursor issued more than 7 days ago answers 400 `delta_window_expired`. */
export const DELTA_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/** Where a delta client stands: after change `seq` of `board`'s stream, as issued at `issuedAt` (ms). */
export interface DeltaCursor {
  board: string;
  seq: number;
  issuedAt: number;
}

/** Opaque to clients: base64url of `{b, s, t}`. */
export function encodeCursor(cursor: DeltaCursor): string {
  return Buffer.from(JSON.stringify({ b: cursor.board, s: cursor.seq, t: cursor.issuedAt })).toString('base64url');
}

const malformed = (detail: string) => invalidFilter('cursor', `${detail} Take a delta_cursor from GET …/boards/{board}/board/ or the cursor of the last delta page.`);

/** `extra.full_resync_required` is what the DailyBot client checks: retrying cannot help, only a fresh snapshot. */
export const windowExpired = () =>
  badRequest('delta_window_expired', 'This delta cursor is older than 7 days (or the changes after it were pruned): read the board snapshot again and continue from its delta_cursor.', { full_resync_required: true });

/**
 * The cursor of a delta request for `board`: 400 `invalid_filter_value` (parameter cursor) when it is absent,
 * unreadable or another board's; 400 `delta_window_expired` when it was issued more than 7 days before `now`.
 */
export function decodeCursor(raw: string | undefined, board: string, now: Date): DeltaCursor {
  if (raw === undefined || raw === '') throw malformed('cursor is required.');
  if (raw.length > 512 || !/^[A-Za-z0-9_-]+$/.test(raw)) throw malformed('This cursor is not one this API gave out.');
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw malformed('This cursor is not one this API gave out.');
  }
  const { b, s, t } = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  if (typeof b !== 'string' || !isUuid(b) || !Number.isSafeInteger(s) || (s as number) < 0 || !Number.isSafeInteger(t) || (t as number) < 0) {
    throw malformed('This cursor is not one this API gave out.');
  }
  if (b.toLowerCase() !== board) throw malformed('This cursor belongs to another board.');
  if ((t as number) > now.getTime() + 60_000) throw malformed('This cursor is not one this API gave out.');
  if (now.getTime() - (t as number) > DELTA_WINDOW_MS) throw windowExpired();
  return { board, seq: s as number, issuedAt: t as number };
}
