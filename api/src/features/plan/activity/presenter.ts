import { presentEvent } from '../task-history/presenter.ts';
import type { HistoryRow } from '../task-history/service.ts';

/** An entry of the organization's activity: the change-log row, what it did (`task.moved`), and where. */
export function presentActivityEntry(history: HistoryRow) {
  const { row } = history;
  return { ...presentEvent(history), action: `${row.object_kind}.${row.change_kind}`, project: row.project_uuid, task: row.task_uuid };
}
