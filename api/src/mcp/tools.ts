import type { AnyObjectSchema } from 'yup';
import { agentEmailSchema, healthSchema, readSchema, reportSchema } from '../features/agents/schema.ts';
import { responseSchema } from '../features/checkins/schema.ts';
import { giveKudosSchema } from '../features/kudos/schema.ts';
import { createCommentSchema } from '../features/plan/comments/schema.ts';
import { LIST_QUERY } from '../features/plan/tasks/schema.ts';
import { createTaskSchema, moveTaskSchema, updateTaskSchema } from '../features/plan/tasks/schema.ts';
import type { RestCall } from './dispatch.ts';

/** Tool annotations (MCP): what a client may assume before calling. */
export interface Annotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  /** Every tool acts on this Rollcall server only. */
  openWorldHint: false;
}

type Parameter = { name: string; description: string; type?: 'string' | 'integer' | 'boolean' };

/**
 * One MCP tool: the REST route it stands for (method and path), the route's path parameters and documented query
 * parameters, and the yup schema of its body (the same one the route validates with, and the OpenAPI document
 * shows). The tool's arguments are one flat object: path parameters, then query parameters, then body fields.
 */
export interface Tool {
  name: string;
  title: string;
  description: string;
  annotations: Annotations;
  method: RestCall['method'];
  path: string;
  params?: Parameter[];
  query?: Parameter[];
  /** Arguments sent as request headers (a move's `version` is the route's If-Match). */
  headerArgs?: (Parameter & { header: string })[];
  /** Query values the tool always sends (the check-ins list asks for today's summary). */
  fixedQuery?: Record<string, string>;
  body?: AnyObjectSchema;
  /** One line for the agent to read; the whole answer is the structured content. */
  summary(answer: Record<string, unknown>): string;
}

const READ: Annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const ADD: Annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
const SET: Annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const PAGE: Parameter[] = [
  { name: 'page', description: 'page number, from 1', type: 'integer' },
  { name: 'page_size', description: 'results per page (default 50, at most 100)', type: 'integer' },
];
/** Plan writes take an Idempotency-Key: a retried call answers as the first did, and is done once. */
const IDEMPOTENCY: Parameter & { header: string } = {
  name: 'idempotency_key', header: 'idempotency-key', description: 'a key of your own (8–128 printable characters) that makes a retry of this call safe: the same key answers as the first call did',
};
const TASK: Parameter = { name: 'task', description: 'the task: its uuid or its key, as ENG-42' };
const listed = (noun: string) => (a: Record<string, unknown>) => `${a.count ?? (a.results as unknown[] | undefined)?.length ?? 0} ${noun}`;
const taskLine = (verb: string) => (a: Record<string, unknown>) => `${verb} ${a.key ?? a.uuid}: ${a.title ?? ''} (version ${a.version ?? '?'})`;

export const TOOLS: Tool[] = [
  // Agents (spec "Agent endpoints").
  {
    name: 'report', title: 'Report work', method: 'POST', path: '/v1/agent-reports/', body: reportSchema, annotations: ADD,
    description: 'Post an agent report (POST /v1/agent-reports/): what the agent did, in Markdown; co_authors (e-mail addresses of the people it worked for), is_milestone for a milestone.',
    summary: (a) => `Report ${a.uuid ?? ''} recorded for ${a.agent_name ?? 'the agent'}; ${(a.pending_messages as unknown[] | undefined)?.length ?? 0} messages waiting.`,
  },
  {
    name: 'health_check', title: 'Check in health', method: 'POST', path: '/v1/agent-health/', body: healthSchema, annotations: ADD,
    description: 'Record the agent\'s health (POST /v1/agent-health/): ok true or false, with an optional message.',
    summary: (a) => `Health recorded; ${(a.pending_messages as unknown[] | undefined)?.length ?? 0} messages waiting.`,
  },
  {
    name: 'read_messages', title: 'Read messages', method: 'GET', path: '/v1/agent-messages/', annotations: READ,
    query: [
      { name: 'agent_name', description: 'only the messages of this agent' },
      { name: 'delivered', description: 'true: only messages already acknowledged; false: only new ones', type: 'boolean' },
      { name: 'limit', description: 'at most this many (1–100)', type: 'integer' },
    ],
    description: 'The messages people sent to agents (GET /v1/agent-messages/), newest first. Acknowledge them with acknowledge_messages.',
    summary: listed('messages'),
  },
  {
    name: 'acknowledge_messages', title: 'Acknowledge messages', method: 'POST', path: '/v1/agent-messages/read/', body: readSchema, annotations: SET,
    description: 'Mark messages as read (POST /v1/agent-messages/read/) by their ids.',
    summary: (a) => `${a.updated ?? a.count ?? 0} messages marked read.`,
  },
  {
    name: 'send_email', title: 'Send e-mail', method: 'POST', path: '/v1/agent-email/send/', body: agentEmailSchema, annotations: ADD,
    description: 'Send an e-mail from the agent\'s inbox (POST /v1/agent-email/send/) to people of the organization.',
    summary: (a) => `E-mail sent to ${a.sent_count ?? 0} recipients; replies come back as messages.`,
  },
  // Check-ins and kudos: person credentials (a CLI token or a person's key).
  {
    name: 'list_checkins', title: 'My check-ins today', method: 'GET', path: '/v1/checkins/', annotations: READ,
    fixedQuery: { active: 'true', include_summary: 'true' },
    query: [{ name: 'date', description: 'the day of the summary (YYYY-MM-DD; default today)' }, ...PAGE],
    description: 'Active check-ins you take part in (GET /v1/checkins/?active=true&include_summary=true): each with the day\'s summary; response_completed false means your answer for that day is still missing. Read a check-in\'s questions with get_checkin.',
    summary: listed('check-ins'),
  },
  {
    name: 'get_checkin', title: 'Read a check-in\'s questions', method: 'GET', path: '/v1/checkins/:uuid/detail/', annotations: READ,
    params: [{ name: 'uuid', description: 'the check-in\'s uuid' }],
    description: 'One check-in with its questions (GET /v1/checkins/{uuid}/detail/): each question\'s uuid, index, question, question_type (text, boolean, numeric, multiple_choice with its choices) and whether it is required. answer_checkin takes one answer per question by uuid or index.',
    summary: (a) => {
      const questions = (a.questions as { index: number; question: string; required: boolean }[] | undefined) ?? [];
      return `${a.name ?? 'Check-in'}: ${questions.map((q) => `${q.index}. ${q.question}${q.required ? ' (required)' : ''}`).join(' ')}`;
    },
  },
  {
    name: 'answer_checkin', title: 'Answer a check-in', method: 'POST', path: '/v1/checkins/:uuid/responses/', body: responseSchema, annotations: ADD,
    params: [{ name: 'uuid', description: 'the check-in\'s uuid' }],
    description: 'Answer a check-in (POST /v1/checkins/{uuid}/responses/): one answer per question, {uuid or index, response}, as get_checkin lists them. Every required question needs an answer that is not blank: otherwise nothing is recorded and the refusal names each one (validation_error).',
    summary: (a) => `Answer ${a.uuid ?? ''} recorded.`,
  },
  {
    name: 'give_kudos', title: 'Give kudos', method: 'POST', path: '/v1/kudos/', body: giveKudosSchema, annotations: ADD,
    description: 'Give kudos to colleagues (POST /v1/kudos/).',
    summary: (a) => `Kudos ${a.uuid ?? ''} given.`,
  },
  // Plan.
  {
    name: 'search_tasks', title: 'Search Plan', method: 'GET', path: '/v1/plan/search/', annotations: READ,
    query: [
      { name: 'q', description: 'search text, 2–256 characters; a KEY-n finds its task' },
      { name: 'type', description: 'task, board, project (comma-separated; default all three)' },
      { name: 'include_archived', description: 'true to include archived objects', type: 'boolean' },
      ...PAGE,
    ],
    description: 'Tasks, boards and projects whose words start with every word of q (GET /v1/plan/search/).',
    summary: listed('results'),
  },
  {
    name: 'list_board_tasks', title: 'List a board\'s tasks', method: 'GET', path: '/v1/plan/boards/:board/tasks/', annotations: READ,
    params: [{ name: 'board', description: 'the board\'s uuid' }],
    query: [...LIST_QUERY.map((q) => ({ name: q.name, description: q.description })), ...PAGE],
    description: 'Tasks of a board, with the list filters (GET /v1/plan/boards/{board}/tasks/): state, label, owner ("me" needs a person), priority, due dates, search, sort.',
    summary: listed('tasks'),
  },
  {
    name: 'list_board_states', title: 'List a board\'s states', method: 'GET', path: '/v1/plan/boards/:board/states/', annotations: READ,
    params: [{ name: 'board', description: 'the board\'s uuid' }],
    description: 'The columns of a board in board order (GET /v1/plan/boards/{board}/states/): the state uuids move_task takes.',
    summary: listed('states'),
  },
  {
    name: 'board_snapshot', title: 'Board snapshot', method: 'GET', path: '/v1/plan/boards/:board/board/', annotations: READ,
    params: [{ name: 'board', description: 'the board\'s uuid' }],
    description: 'The whole board as an agent keeps a copy of it (GET /v1/plan/boards/{board}/board/): board, states, labels, members, live tasks in board order, and the delta_cursor board_delta continues from.',
    summary: (a) => `Board snapshot: ${(a.tasks as unknown[] | undefined)?.length ?? 0} tasks; delta_cursor ${a.delta_cursor ?? '?'}.`,
  },
  {
    name: 'board_delta', title: 'Board changes', method: 'GET', path: '/v1/plan/boards/:board/delta/', annotations: READ,
    params: [{ name: 'board', description: 'the board\'s uuid' }],
    query: [
      { name: 'cursor', description: 'delta_cursor of the snapshot, or cursor of the previous answer (required)' },
      { name: 'page_size', description: 'changes per answer, 1–100 (default 50)', type: 'integer' },
    ],
    description: 'The board\'s changes after the cursor, oldest first (GET /v1/plan/boards/{board}/delta/): apply each in order, continue with cursor while has_more; 400 delta_window_expired past 7 days (take a new snapshot).',
    summary: (a) => `${(a.results as unknown[] | undefined)?.length ?? 0} changes; ${a.has_more ? 'more to fetch' : 'up to date'}.`,
  },
  {
    name: 'get_task', title: 'Get a task', method: 'GET', path: '/v1/plan/tasks/:task/', annotations: READ, params: [TASK],
    description: 'One task (GET /v1/plan/tasks/{task}/), with its version for update_task and move_task.',
    summary: taskLine('Task'),
  },
  {
    name: 'create_task', title: 'Create a task', method: 'POST', path: '/v1/plan/tasks/', body: createTaskSchema, annotations: ADD, headerArgs: [IDEMPOTENCY],
    description: 'Create a task on the board the body names (POST /v1/plan/tasks/).',
    summary: taskLine('Created'),
  },
  {
    name: 'update_task', title: 'Update a task', method: 'PATCH', path: '/v1/plan/tasks/:task/', body: updateTaskSchema, params: [TASK], annotations: SET, headerArgs: [IDEMPOTENCY],
    description: 'Change a task\'s fields (PATCH /v1/plan/tasks/{task}/). Send the version you read: a stale one is refused with version_conflict.',
    summary: taskLine('Updated'),
  },
  {
    name: 'move_task', title: 'Move a task', method: 'POST', path: '/v1/plan/tasks/:task/move/', body: moveTaskSchema, params: [TASK], annotations: SET,
    headerArgs: [{ name: 'version', header: 'if-match', type: 'integer', description: 'the task\'s version you read; a stale one is refused with version_conflict' }, IDEMPOTENCY],
    description: 'Move a task to another state or place on its board (POST /v1/plan/tasks/{task}/move/); version as for update_task.',
    summary: taskLine('Moved'),
  },
  {
    name: 'comment_task', title: 'Comment on a task', method: 'POST', path: '/v1/plan/tasks/:task/comments/', body: createCommentSchema, params: [TASK], annotations: ADD, headerArgs: [IDEMPOTENCY],
    description: 'Comment on a task (POST /v1/plan/tasks/{task}/comments/), in Markdown; @mentions notify.',
    summary: (a) => `Comment ${a.uuid ?? ''} added.`,
  },
];
