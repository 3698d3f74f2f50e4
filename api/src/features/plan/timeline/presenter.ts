import type { PresentedTask } from '../tasks/repository.ts';

/** A task on the timeline: its span of days, and the task. */
export function presentSpan(task: PresentedTask) {
  return { starts_on: task.start_date ?? task.due_date, ends_on: task.due_date ?? task.start_date, task };
}
