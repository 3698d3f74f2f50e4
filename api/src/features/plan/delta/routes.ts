import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { presentDelta, presentSnapshot } from './presenter.ts';
import { TASK_SORTS } from '../tasks/lists.ts';
import { boardDelta, boardSnapshot } from './service.ts';

export function deltaRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: board sync');
  r.read(
    {
      path: '/v1/plan/boards/:board/board/',
      summary: 'The board as a client keeps it (board, states, labels, members, live tasks in board order) with the delta_cursor its delta feed continues from',
      response: 'PlanBoardSnapshot',
      query: [{ name: 'sort', description: `each column ordered by ${Object.keys(TASK_SORTS).join(', ')} (prefix - for descending; nulls last); default rank (board order)` }],
    },
    async (call) => presentSnapshot(await boardSnapshot(call, call.params.board, call.query.sort(TASK_SORTS, { column: 'rank', order: 'asc' })), call.now),
  );
  r.read(
    {
      path: '/v1/plan/boards/:board/delta/',
      summary: 'The board\'s changes after the cursor, oldest first (400 delta_window_expired for a cursor older than 7 days)',
      description:
        'Apply each result in order: `deleted` removes the object (a tombstone, snapshot null); any other change replaces the object by its snapshot, and a task whose snapshot is archived or on another board leaves the board. Continue with `cursor` (right away while `has_more`).',
      ceiling: 'delta',
      response: 'PlanBoardDelta',
      query: [
        { name: 'cursor', description: 'delta_cursor of the snapshot, or cursor of the previous delta answer (this or updated_since is required)' },
        { name: 'updated_since', description: 'a date-time (the changes after it, within the last 7 days), or a cursor (the DailyBot client\'s name for cursor)' },
        { name: 'page_size', description: 'changes per answer, 1–100 (default 50), as on every list' },
      ],
    },
    async (call) => {
      return presentDelta(await boardDelta(call, call.params.board, call.query.text('cursor'), call.page.limit, call.query.text('updated_since')), call.now);
    },
  );
}
