import * as yup from 'yup';
import { withAliases } from '../../../http/plan/aliases.ts';
import { dateField, jsonObjectField, uuidField } from '../../../http/fields.ts';
import { nameField } from '../frame/schema.ts';
import type { Actor } from '../../../auth/credentials.ts';
import { actsAsPerson } from '../../../auth/policy.ts';
import type { QueryDoc } from '../../../http/plan/declarations.ts';
import type { PlanQuery } from '../../../http/plan/query.ts';
import { badRequest, invalidFilter } from '../../../lib/errors.ts';
import { isUuid } from '../../../lib/ids.ts';
import { includeWith, TASK_SORTS } from './lists.ts';
import type { IncludeToken, TaskFilters } from './lists.ts';

/**
 * Task bodies (CONTRACT §9), and the task lists' query (below). A task is named by its uuid or its `KEY-n` wherever
 * a body refers to one. The description's length is checked by the service, which answers the spec's
 * `description_too_long`.
 */
export const taskRef = () => yup.string().min(1).max(64);
const title = () => nameField(500);
const priority = () => yup.number().integer().min(1).max(5).nullable();
const estimate = () => yup.number().min(0).max(1_000_000).nullable();
const people = () => yup.array(uuidField().required()).max(50);
const labels = () => yup.array(uuidField().required()).max(50);

/** What a task's body may set, creation and update alike. */
const taskFields = {
  description: yup.string(),
  state: uuidField(),
  owner: uuidField().nullable(),
  priority: priority(),
  estimate: estimate(),
  start_date: dateField().nullable(),
  due_date: dateField().nullable(),
  labels: labels(),
  parent_task: taskRef().nullable(),
  participants: people(),
};

/** The fields a task is created with, on a board's `tasks/` (and, with `board`, on `tasks/`). */
const creationFields = {
  ...taskFields,
  title: title().required(),
  // Recognised so it is not an unknown field: creating with a milestone answers 501 (PATCH sets it).
  milestone: yup.mixed(),
};

export const boardTaskSchema = yup.object(creationFields);
export const createTaskSchema = yup.object({ board: uuidField().required(), ...creationFields });
export type CreateTaskInput = yup.InferType<typeof boardTaskSchema>;

export const updateTaskSchema = yup.object({
  ...taskFields,
  title: title(),
  milestone: uuidField().nullable(),
  /** The version the change was made against (or If-Match); stale answers 409 version_conflict. */
  version: yup.number().integer().min(1),
});
export type UpdateTaskInput = yup.InferType<typeof updateTaskSchema>;

export const moveTaskSchema = yup.object({
  state: uuidField().required(),
  after: taskRef().nullable(),
  before: taskRef().nullable(),
});
export type MoveTaskInput = yup.InferType<typeof moveTaskSchema>;

export const moveBoardSchema = yup.object({
  board: uuidField().required(),
  state: uuidField().nullable(),
  /** Source state uuid → target state uuid; the task's state not in it lands in the target's default column. */
  state_map: jsonObjectField().nullable(),
});
export type MoveBoardInput = yup.InferType<typeof moveBoardSchema>;

export const duplicateTaskSchema = yup.object({
  title: title(),
});
export type DuplicateTaskInput = yup.InferType<typeof duplicateTaskSchema>;

export const LABEL_MODES = ['add', 'remove', 'replace'] as const;
/** `label_uuids` is the DailyBot client's name for `labels`. */
export const labelsBatchSchema = withAliases(
  yup.object({
    mode: yup.string().oneOf(LABEL_MODES).required(),
    labels: labels().required(),
  }),
  { label_uuids: 'labels' },
);
export type LabelsBatchInput = yup.InferType<typeof labelsBatchSchema>;

/**
 * `user_uuid` is the DailyBot client's name for `user`. `role: watcher` follows the task without joining it;
 * `is_muted` (yourself only) stops (true) or resumes (false) its notifications for you.
 */
export const participantSchema = withAliases(
  yup.object({
    user: uuidField().required(),
    role: yup.string().oneOf(['participant', 'watcher'] as const),
    is_muted: yup.boolean(),
  }),
  { user_uuid: 'user' },
);
export type ParticipantInput = yup.InferType<typeof participantSchema>;

export const subscriptionSchema = yup.object({
  subscribed: yup.boolean().required(),
});

/**
 * The task lists, and their query parameters, with the spec's codes: `state`, `board` (uuids, at most 50:
 * `too_many_filter_values`), `label` (uuids, at most 50: `invalid_label_filter`), `owner` (`me`, a user uuid or
 * `unowned`), `priority` (1–5), `parent_task`, `milestone`, `since`/`until` (or `start_date`/`end_date`, or
 * `date`: created on those days), `due_from`/`due_to` (YYYY-MM-DD: `invalid_date_range`), `include` (tokens:
 * `invalid_filter_value` with `extra.parameter`), `sort` or `ordering` (`invalid_sort`), `search` (2–256
 * characters: `search_query_too_short`, `search_query_too_long`). A schema, not routes: the task board
 * (task-board/) reads the same filters.
 */

export const FILTER_LIMIT = 50;

function labelFilter(query: PlanQuery): string[] | undefined {
  const values = query.values('label');
  if (!values) return undefined;
  if (values.length > FILTER_LIMIT) throw badRequest('invalid_label_filter', `label takes at most ${FILTER_LIMIT} label uuids.`, { parameter: 'label', limit: FILTER_LIMIT });
  if (!values.every(isUuid)) throw badRequest('invalid_label_filter', 'label takes label uuids, separated by commas.', { parameter: 'label' });
  return [...new Set(values.map((v) => v.toLowerCase()))];
}

function ownerFilter(query: PlanQuery, actor: Actor): TaskFilters['owners'] {
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

function priorityFilter(query: PlanQuery): number[] | undefined {
  const values = query.values('priority');
  if (!values) return undefined;
  if (values.length > FILTER_LIMIT) throw badRequest('too_many_filter_values', `priority takes at most ${FILTER_LIMIT} values.`, { parameter: 'priority', limit: FILTER_LIMIT });
  if (!values.every((v) => /^[1-5]$/.test(v))) throw invalidFilter('priority', 'priority must be whole numbers from 1 to 5, separated by commas.');
  return [...new Set(values.map(Number))];
}

function includeFilter(query: PlanQuery): Set<IncludeToken> {
  return includeWith(query.values('include') ?? [], []).tokens;
}

export function taskFilters(query: PlanQuery, actor: Actor): TaskFilters {
  const day = query.dateRange(['date'], ['date']);
  const parent = query.values('parent_task');
  return {
    boards: query.uuids('board', FILTER_LIMIT),
    states: query.uuids('state', FILTER_LIMIT),
    labels: labelFilter(query),
    owners: ownerFilter(query, actor),
    priorities: priorityFilter(query),
    parent: parent ? parent[parent.length - 1] : undefined,
    milestone: query.uuid('milestone'),
    created: day.from ? day : query.dateRange(['since', 'start_date'], ['until', 'end_date']),
    due: query.dateRange(['due_from'], ['due_to']),
    search: query.search(),
    include: includeFilter(query),
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
