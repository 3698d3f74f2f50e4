import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { containerFilterDocs } from '../../../http/plan/openapi.ts';
import { invalidFilter } from '../../../lib/errors.ts';
import { movePreview } from './moves.ts';
import { presentBoard } from './presenter.ts';
import { archiveBoard, createBoard, deleteBoard, getBoard, listBoards, reorderBoard, restoreBoard, updateBoard } from './service.ts';
import { createBoardSchema, reorderBoardSchema, updateBoardSchema } from './schema.ts';

const ORDERING = { position: 'position', name: 'name', key: 'key', created_at: 'created_at', updated_at: 'updated_at' };

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
  r.write(
    {
      method: 'post', structure: true, scope: 'tasks:admin', path: '/v1/plan/boards/:board/reorder/', body: reorderBoardSchema, response: 'PlanBoard',
      summary: 'Place a board before or after another board of its project (neither: last; both: 400 reorder_anchor_invalid); project moves it into that project, clearing its tasks\' milestones of the old one',
    },
    async (call) => presentBoard(await reorderBoard(call, call.params.board, call.body)),
  );
  r.read(
    {
      path: '/v1/plan/boards/:board/move-preview/', summary: 'What moving the board into a project would change (nothing is written)', response: 'PlanBoardMovePreview',
      query: [{ name: 'project', description: 'the project to move it into (required)' }],
    },
    async (call) => {
      const project = call.query.uuid('project');
      if (!project) throw invalidFilter('project', 'project is required: the uuid of the project to move the board into.');
      return movePreview(call, call.params.board, project);
    },
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
