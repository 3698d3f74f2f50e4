import { api, ApiError, ok } from '../api.ts';
import type { Schemas } from '../api.ts';

export type Task = Schemas['PlanTask'];
export type State = Schemas['PlanState'];
export type Label = Schemas['PlanLabel'];
export type Member = Schemas['PlanMember'];
export type BoardCopy = Schemas['PlanBoardSnapshot'];
type Change = Schemas['PlanBoardDelta']['results'][number];

const LISTS: Record<string, 'states' | 'labels' | 'members' | 'tasks'> = { state: 'states', label: 'labels', board_member: 'members', task: 'tasks' };

/** Live tasks of the copy ordered as the board orders them: by rank (plain string order, as the API compares). */
export const byRank = (a: Task, b: Task) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0);

/**
 * A board kept current without reloads: read whole once (GET …/board/), then the delta feed (GET …/delta/?cursor=)
 * polled every `intervalMs` (1 s: well within two seconds of anyone's change, and a quarter of the feed's ceiling
 * of 240 calls a minute), each change applied as the API documents it. A cursor past the feed's 7-day window
 * reads the board whole again.
 */
export class LiveBoard {
  copy: BoardCopy | null = null;
  private listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private held = false;
  constructor(readonly uuid: string, private intervalMs = 1000) {}

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    for (const listener of [...this.listeners]) listener();
  }

  async start(): Promise<void> {
    this.copy = await ok(api.GET('/v1/plan/boards/{board}/board/', { params: { path: { board: this.uuid } } }));
    this.emit();
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.stopped) return;
    // A hidden tab asks less often; it catches up at once when shown again.
    this.timer = setTimeout(() => void this.poll().finally(() => this.schedule()), document.hidden ? this.intervalMs * 10 : this.intervalMs);
  }

  /** While a card is being dragged, changes wait (the cursor stays where it is, so nothing is missed). */
  hold(on: boolean): void {
    this.held = on;
  }

  async poll(): Promise<void> {
    if (!this.copy || this.held) return;
    try {
      let more = true;
      let changed = false;
      while (more && !this.stopped) {
        const page = await ok(api.GET('/v1/plan/boards/{board}/delta/', { params: { path: { board: this.uuid }, query: { cursor: this.copy.delta_cursor, page_size: 100 } } }));
        for (const change of page.results) changed = this.apply(change) || changed;
        this.copy.delta_cursor = page.cursor;
        more = page.has_more;
      }
      if (changed) this.emit();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'delta_window_expired') await this.start();
    }
  }

  /** One change of the feed: a deletion removes the object, anything else replaces it by its snapshot. */
  private apply(change: Change): boolean {
    const copy = this.copy!;
    if (change.object_kind === 'board') {
      if (change.snapshot) copy.board = change.snapshot as BoardCopy['board'];
      return true;
    }
    if (change.object_kind === 'comment' && change.task && (change.change_kind === 'created' || change.change_kind === 'deleted')) {
      const counts = { ...copy.comment_counts };
      const now = (Object.hasOwn(counts, change.task) ? counts[change.task] : 0) + (change.change_kind === 'created' ? 1 : -1);
      if (now > 0) counts[change.task] = now;
      else delete counts[change.task];
      copy.comment_counts = counts;
      return true;
    }
    const list = Object.hasOwn(LISTS, change.object_kind) ? LISTS[change.object_kind] : undefined;
    if (!list) return false;
    // The snapshot of a change of this kind is the object as its own endpoint presents it (null once deleted).
    const s = change.snapshot as { uuid: string; version?: number; archived_at?: string | null; board?: string } | null;
    // A snapshot older than what this copy already holds (the app's own write, applied when it was answered) is stale.
    const held = list === 'tasks' ? copy.tasks.find((x) => x.uuid === change.object_uuid) : undefined;
    if (held && s && Number(s.version) < held.version) return false;
    const kept = (copy[list] as { uuid: string }[]).filter((item) => item.uuid !== change.object_uuid);
    const gone = s === null || (list === 'tasks' && (s.archived_at !== null || s.board !== this.uuid));
    (copy as Record<typeof list, unknown[]>)[list] = gone ? kept : [...kept, s];
    return true;
  }

  /** A task as the app just saved it (the feed will bring the same snapshot). */
  put(task: Task): void {
    if (!this.copy) return;
    this.copy.tasks = [...this.copy.tasks.filter((x) => x.uuid !== task.uuid), task];
    this.emit();
  }
}
