import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { containerFilterDocs } from '../../../http/plan/openapi.ts';
import { presentBoard } from './presenter.ts';
import { archiveBoard, createBoard, deleteBoard, getBoard, listBoards, restoreBoard, updateBoard } from './service.ts';
import { createBoardSchema, updateBoardSchema } from './schema.ts';

const ORDERING = { name: 'name', key: 'key', created_at: 'created_at', updated_at: 'updated_at' };

export function boardRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: boards');
  r.list(
    {
      path: '/v1/plan/boards/',
      summary: 'Boards you can see',
      item: 'PlanBoard',
      personQuery: { member: 'me' },
      query: containerFilterDocs('boards', 'name or key', ORDERING, [{ name: 'project', description: 'project uuid (one you cannot see matches nothing)' }]),
    },
    async (call) => {
      const filters = { ...call.query.containerFilters(ORDERING), project: call.query.uuid('project') };
      const { count, rows } = await listBoards(call, filters, call.page);
      return { count, results: rows.map(presentBoard) };
    },
  );
  r.write(
    {
      method: 'post', structure: true,
      path: '/v1/plan/boards/',
      summary: 'Create a board with the default states; you become its manager (402 task_boards_limit_reached, 409 duplicate_board_key)',
      scope: 'tasks:admin',
      body: createBoardSchema,
      status: 201,
      response: 'PlanBoard',
    },
    async (call) => {
      const board = await createBoard(call, call.body);
      call.header('Location', `/v1/plan/boards/${board.uuid}/`);
      return presentBoard(board);
    },
  );
  r.read({ path: '/v1/plan/boards/:board/', summary: 'One board', response: 'PlanBoard' }, async (call) => presentBoard(await getBoard(call, call.params.board)));
  r.write({ method: 'patch', structure: true, path: '/v1/plan/boards/:board/', summary: 'Update a board; a new key retires the old one (it stays reserved)', scope: 'tasks:admin', body: updateBoardSchema, response: 'PlanBoard' }, async (call) =>
    presentBoard(await updateBoard(call, call.params.board, call.body)),
  );
  r.write({ method: 'post', structure: true, path: '/v1/plan/boards/:board/archive/', summary: 'Archive a board', scope: 'tasks:admin', destructive: true, response: 'PlanBoard' }, async (call) =>
    presentBoard(await archiveBoard(call, call.params.board)),
  );
  r.write({ method: 'post', structure: true, path: '/v1/plan/boards/:board/restore/', summary: 'Restore an archived board (counts against the plan ceiling)', scope: 'tasks:admin', response: 'PlanBoard' }, async (call) =>
    presentBoard(await restoreBoard(call, call.params.board)),
  );
  r.write({ method: 'delete', structure: true, scope: 'tasks:admin', path: '/v1/plan/boards/:board/', summary: 'Delete a board with its states, labels and tasks; its keys stay reserved', status: 204 }, (call) =>
    deleteBoard(call, call.params.board),
  );
}
