import type { Actor } from '../../../auth/credentials.ts';
import { actsAsPerson } from '../../../auth/policy.ts';
import type { QueryDoc } from '../../../http/plan/declarations.ts';
import type { PlanQuery } from '../../../http/plan/query.ts';
import type { PlanRoutes, ReadCall } from '../../../http/plan/registrar.ts';
import { badRequest, invalidFilter } from '../../../lib/errors.ts';
import { isUuid } from '../../../lib/ids.ts';
import { getTask } from './service.ts';
import { INCLUDE_TOKENS, ME_ROLES, ME_SCOPES, TASK_SORTS, includeWith, listTasks } from './lists.ts';
import type { IncludeToken, ListScope, TaskFilters } from './lists.ts';

/**
 * The task lists, and their query parameters, with the spec's codes: `state`, `board` (uuids, at most 50:
 * `too_many_filter_values`), `label` (uuids, at most 50: `invalid_label_filter`), `owner` (`me`, a user uuid or
 * `unowned`), `priority` (1–5), `parent_task`, `milestone`, `since`/`until` (or `start_date`/`end_date`, or
 * `date`: created on those days), `due_from`/`due_to` (YYYY-MM-DD: `invalid_date_range`), `include` (tokens:
 * `invalid_filter_value` with `extra.parameter`), `sort` or `ordering` (`invalid_sort`), `search` (2–256
 * characters: `search_query_too_short`, `search_query_too_long`).
 */

export const FILTER_LIMIT = 50;

function labels(query: PlanQuery): string[] | undefined {
  const values = query.values('label');
  if (!values) return undefined;
  if (values.length > FILTER_LIMIT) throw badRequest('invalid_label_filter', `label takes at most ${FILTER_LIMIT} label uuids.`, { parameter: 'label', limit: FILTER_LIMIT });
  if (!values.every(isUuid)) throw badRequest('invalid_label_filter', 'label takes label uuids, separated by commas.', { parameter: 'label' });
  return [...new Set(values.map((v) => v.toLowerCase()))];
}

function owners(query: PlanQuery, actor: Actor): TaskFilters['owners'] {
  const values = query.values('owner');
  if (!values) return undefined;
  if (values.length > FILTER_LIMIT) throw badRequest('too_many_filter_values', `owner takes at most ${FILTER_LIMIT} values.`, { parameter: 'owner', limit: FILTER_LIMIT });
  const users = new Set<string>();
  let unowned = false;
  for (const value of values) {
    if (value === 'unowned') unowned = true;
    else if (value === 'me') {
      if (!actsAsPerson(actor)) throw badRequest('actor_required', 'owner=me needs a person; agent and organization keys act for no one.', { parameter: 'owner' });
      users.add(actor.user.uuid);
    } else if (isUuid(value)) users.add(value.toLowerCase());
    else throw invalidFilter('owner', 'owner must be "me", "unowned" or user uuids, separated by commas.');
  }
  return { users: [...users], unowned };
}

function priorities(query: PlanQuery): number[] | undefined {
  const values = query.values('priority');
  if (!values) return undefined;
  if (values.length > FILTER_LIMIT) throw badRequest('too_many_filter_values', `priority takes at most ${FILTER_LIMIT} values.`, { parameter: 'priority', limit: FILTER_LIMIT });
  if (!values.every((v) => /^[1-5]$/.test(v))) throw invalidFilter('priority', 'priority must be whole numbers from 1 to 5, separated by commas.');
  return [...new Set(values.map(Number))];
}

function include(query: PlanQuery): Set<IncludeToken> {
  return includeWith(query.values('include') ?? [], []).tokens;
}

export function taskFilters(query: PlanQuery, actor: Actor): TaskFilters {
  const day = query.dateRange(['date'], ['date']);
  const parent = query.values('parent_task');
  return {
    boards: query.uuids('board', FILTER_LIMIT),
    states: query.uuids('state', FILTER_LIMIT),
    labels: labels(query),
    owners: owners(query, actor),
    priorities: priorities(query),
    parent: parent ? parent[parent.length - 1] : undefined,
    milestone: query.uuid('milestone'),
    created: day.from ? day : query.dateRange(['since', 'start_date'], ['until', 'end_date']),
    due: query.dateRange(['due_from'], ['due_to']),
    search: query.search(),
    include: include(query),
    sort: query.sort(TASK_SORTS, { column: 'rank', order: 'asc' }),
  };
}

export const LIST_QUERY: QueryDoc[] = [
  { name: 'state', description: 'state uuids (comma-separated or repeated, at most 50)' },
  { name: 'label', description: 'label uuids (at most 50; 400 invalid_label_filter)' },
  { name: 'owner', description: '"me", a user uuid or "unowned" (comma-separated)' },
  { name: 'board', description: 'board uuids (organization-wide lists)' },
  { name: 'priority', description: '1–5, comma-separated' },
  { name: 'parent_task', description: 'sub-tasks of this task (uuid or KEY-n)' },
  { name: 'milestone', description: 'milestone uuid' },
  { name: 'since', description: 'created on or after this day (YYYY-MM-DD; also start_date)' },
  { name: 'until', description: 'created on or before this day (YYYY-MM-DD; also end_date)' },
  { name: 'date', description: 'created on this day (YYYY-MM-DD)' },
  { name: 'due_from', description: 'due on or after this day (YYYY-MM-DD)' },
  { name: 'due_to', description: 'due on or before this day (YYYY-MM-DD)' },
  { name: 'include', description: 'archived, participants, relations, children (comma-separated)' },
  { name: 'sort', description: `${Object.keys(TASK_SORTS).join(', ')}; prefix - for descending (also ordering); default rank (board order)` },
  { name: 'search', description: 'words starting the words of the title or description, or a KEY-n (2–256 characters)' },
];

/** The task lists: every task the caller sees, a board's, the caller's own, a task's sub-tasks. */
export function taskListRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: tasks');
  const list = (scope: (call: ReadCall) => ListScope) => async (call: ReadCall) => {
    const { count, results } = await listTasks(call, scope(call), taskFilters(call.query, call.actor), call.page);
    return { count, results };
  };
  r.list({ path: '/v1/plan/tasks/', summary: 'Every task you can see, with filters', item: 'PlanTask', personQuery: { owner: 'me' }, query: LIST_QUERY }, list(() => ({ all: true })));
  r.list({ path: '/v1/plan/boards/:board/tasks/', summary: 'Tasks of a board, with filters', item: 'PlanTask', personQuery: { owner: 'me' }, query: LIST_QUERY }, list((call) => ({ board: call.params.board })));
  r.list(
    {
      path: '/v1/plan/me/tasks/',
      summary: 'Your tasks: those you own (role=owner), take part in (participant), created (creator), or any of them',
      item: 'PlanTask',
      person: true,
      query: [
        { name: 'role', description: 'owner (default), participant, creator or any' },
        { name: 'scope', description: 'the DailyBot client\'s name for role: owned (owner), participating (participant), involved (any)' },
        ...LIST_QUERY,
      ],
    },
    list((call) => {
      const scope = call.query.oneOf('scope', Object.keys(ME_SCOPES));
      return { me: call.query.oneOf('role', ME_ROLES) ?? (scope === undefined ? 'owner' : ME_SCOPES[scope]) };
    }),
  );
  r.list(
    { path: '/v1/plan/tasks/:task/children/', summary: 'Sub-tasks of a task', item: 'PlanTask', keyParams: ['task'], query: LIST_QUERY.filter((q) => q.name !== 'parent_task') },
    async (call) => {
      const { task } = await getTask(call, call.params.task);
      const filters = { ...taskFilters(call.query, call.actor), parent: task.uuid };
      const { count, results } = await listTasks(call, { board: task.board_uuid }, filters, call.page);
      return { count, results };
    },
  );
}
