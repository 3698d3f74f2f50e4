import * as yup from 'yup';
import { LABEL_MODES, moveTaskSchema, taskRef, updateTaskSchema } from '../tasks/schema.ts';

/** `tasks/bulk/`: `{operation, items, atomic?}`; each item names its task and carries the operation's fields. */
export const BULK_OPERATIONS = ['update', 'move', 'archive', 'restore', 'label'] as const;
export type BulkOperation = (typeof BULK_OPERATIONS)[number];
export const BULK_LIMIT = 100;

export const bulkSchema = yup.object({
  operation: yup.string().required(),
  items: yup.array(yup.mixed()).required(),
  /** All or nothing: one item refused and none is kept. */
  atomic: yup.boolean(),
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
} satisfies Record<BulkOperation, yup.AnyObjectSchema>;

export type BulkItem = { [K in BulkOperation]: yup.InferType<(typeof ITEM_SCHEMAS)[K]> }[BulkOperation];
