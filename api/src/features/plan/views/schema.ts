import * as yup from 'yup';
import { VIEW_VISIBILITIES } from '../../../db/tables.ts';
import { nameField } from '../frame/schema.ts';
import { uuidField } from '../../../http/fields.ts';
import { invalidFilter } from '../../../lib/errors.ts';

/**
 * A saved view: a name, who sees it, and the task list's filters and sort it stands for. Filters are the task
 * list's query parameters as an object (`{"state": [uuid], "owner": "me", "priority": 1}`): plain names, values
 * that are text, numbers, booleans, null or short lists of those, kept within bounds so a view stays small.
 */
const FILTER_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const SORT_FIELD = /^-?[a-z][a-z0-9_]{0,63}$/;
const MAX_FILTERS = 30;
const MAX_VALUES = 50;

const scalar = (v: unknown) => v === null || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v.length <= 256);

function filtersProblem(value: unknown): string | null {
  if (value === undefined) return null;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'Must be an object of filter names and values.';
  const entries = Object.entries(value);
  if (entries.length > MAX_FILTERS) return `At most ${MAX_FILTERS} filters.`;
  for (const [name, v] of entries) {
    if (!FILTER_NAME.test(name)) return `"${name.slice(0, 64)}" is not a filter name (lower-case letters, digits and _).`;
    if (Array.isArray(v) ? v.length > MAX_VALUES || !v.every((item) => item !== null && scalar(item)) : !scalar(v)) {
      return `${name}: a value is text (at most 256 characters), a number, a boolean, null, or a list of at most ${MAX_VALUES} of those.`;
    }
  }
  return null;
}

const filtersField = () =>
  yup.mixed<Record<string, unknown>>().test('filters', function check(value) {
    const problem = filtersProblem(value);
    return problem === null || this.createError({ message: problem });
  });

/** `sort`: a field or a list of at most 5, `-` for descending (`["-priority", "due_date"]`). */
const sortField = () =>
  yup.mixed<string | string[]>().test('sort', 'A field name or a list of at most 5 ("-" prefix for descending).', (value) => {
    if (value === undefined) return true;
    const list = Array.isArray(value) ? value : [value];
    return list.length <= 5 && list.every((f) => typeof f === 'string' && SORT_FIELD.test(f));
  });

/** How a client lays the view out. `kanban` is the DailyBot client's name for `board` (VIEW_MODE_ALIASES). */
export const VIEW_MODES = ['list', 'board', 'table', 'timeline', 'calendar'] as const;
export const VIEW_MODE_ALIASES: Record<string, (typeof VIEW_MODES)[number]> = { kanban: 'board' };
const knownMode = (value: string) => (VIEW_MODES as readonly string[]).includes(value) || Object.hasOwn(VIEW_MODE_ALIASES, value);
/** The view mode stored for a value the schema took (an alias becomes the mode it names). */
export const viewModeOf = (value: string | null | undefined): string | null | undefined =>
  typeof value === 'string' && Object.hasOwn(VIEW_MODE_ALIASES, value) ? VIEW_MODE_ALIASES[value] : value;

/** A mode outside the list answers 400 invalid_filter_value (extra.parameter view_mode), as a query value would. */
const viewModeField = () =>
  yup
    .string()
    .nullable()
    .label('list, board (or kanban), table, timeline or calendar')
    .test('view-mode', (value) => {
      if (value === undefined || value === null || knownMode(value)) return true;
      throw invalidFilter('view_mode', `view_mode must be one of: ${VIEW_MODES.join(', ')} (kanban is board).`);
    });

/** A field a view groups its tasks by (columns: group_by; swimlanes: sub_group_by, or none), stored as given (null clears). */
const groupField = () => yup.string().matches(FILTER_NAME, { message: 'A field name (lower-case letters, digits and _).' }).nullable();
const layout = () => ({ view_mode: viewModeField(), group_by: groupField(), sub_group_by: groupField() });

/** A new view: personal unless `visibility` says otherwise. */
export const createViewSchema = yup.object({
  name: nameField(200).required(),
  visibility: yup.string().oneOf(VIEW_VISIBILITIES),
  filters: filtersField(),
  sort: sortField(),
  ...layout(),
});
export type CreateViewInput = yup.InferType<typeof createViewSchema>;

/** PUT replaces the view (name and visibility required, filters and sort emptied when absent); PATCH changes what it names. */
export const replaceViewSchema = createViewSchema.shape({ visibility: yup.string().oneOf(VIEW_VISIBILITIES).required() });
export const updateViewSchema = yup.object({
  name: nameField(200),
  visibility: yup.string().oneOf(VIEW_VISIBILITIES),
  filters: filtersField(),
  sort: sortField(),
  ...layout(),
});

/**
 * One view of the array `PUT …/views/` saves (the DailyBot client's): the caller's own views of the place, all of
 * them (views/save.ts). An item with the `uuid` of one of them changes it; one without is a new view.
 */
export const savedViewItemSchema = yup.object({
  uuid: uuidField(),
  name: nameField(200).required(),
  visibility: yup.string().oneOf(['personal', 'shared'] as const),
  filters: filtersField(),
  sort: sortField(),
  ...layout(),
});
export type SavedViewItem = yup.InferType<typeof savedViewItemSchema>;
export type UpdateViewInput = yup.InferType<typeof updateViewSchema>;
