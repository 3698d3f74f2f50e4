import * as yup from 'yup';
import { withAliases } from '../../../http/plan/aliases.ts';
import { dateField, jsonObjectField, uuidField } from '../../../http/fields.ts';
import { nameField } from '../frame/schema.ts';

/**
 * Task bodies (CONTRACT §9). A task is named by its uuid or its `KEY-n` wherever a body refers to one. The
 * description's length is checked by the service, which answers the spec's `description_too_long`.
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
