import * as yup from 'yup';
import { uuidField } from '../../../http/fields.ts';
import { LABEL_MODES, boardTaskSchema, moveTaskSchema, taskRef, updateTaskSchema } from '../tasks/schema.ts';

/**
 * `tasks/bulk/`: `{operation, items, atomic?}`; each item names its task and carries the operation's fields.
 * `create` makes new tasks on `board` (each item is a task's creation body).
 */
export const BULK_OPERATIONS = ['update', 'move', 'archive', 'restore', 'label', 'create'] as const;
export type BulkOperation = (typeof BULK_OPERATIONS)[number];
export const BULK_LIMIT = 100;

/**
 * The DailyBot client's operation names: each is one of ours with the same items (`set_priority` items are
 * `{task, priority}`, an update's). An alias, not another operation: the result names the operation it ran.
 */
export const BULK_OPERATION_ALIASES: Record<string, BulkOperation> = {
  set_priority: 'update',
  set_owner: 'update',
  assign: 'update',
  set_due_date: 'update',
  set_state: 'move',
  labels: 'label',
};

export const bulkSchema = yup.object({
  operation: yup.string().required(),
  items: yup.array(yup.mixed()).required(),
  /** All or nothing: one item refused and none is kept. */
  atomic: yup.boolean(),
  /** The board `create` makes its tasks on. */
  board: uuidField(),
});

const version = () => yup.number().integer().min(1);
const task = () => taskRef().required();

/** Each operation's item body: the single-task call's body, with `task` (uuid or KEY-n) and an optional `version`. */
export const ITEM_SCHEMAS = {
  update: updateTaskSchema.shape({ task: task() }),
  move: moveTaskSchema.shape({ task: task(), version: version() }),
  archive: yup.object({ task: task(), version: version() }),
  restore: yup.object({ task: task(), version: version() }),
  label: yup.object({ task: task(), version: version(), mode: yup.string().oneOf(LABEL_MODES).required(), labels: yup.array(yup.string().required()).max(50).required() }),
  create: boardTaskSchema,
} satisfies Record<BulkOperation, yup.AnyObjectSchema>;

export type BulkItem = { [K in BulkOperation]: yup.InferType<(typeof ITEM_SCHEMAS)[K]> }[BulkOperation];
