import type { PlanRoutes, ReadCall } from '../../../http/plan/registrar.ts';
import type { PageRequest } from '../../../lib/page.ts';
import { taskAttachments } from '../attachments/kinds.ts';
import { listComments } from '../comments/service.ts';
import { presentAttachment } from '../files/presenter.ts';
import { listAttachments } from '../files/service.ts';
import { presentActivity } from '../task-history/presenter.ts';
import { taskActivity } from '../task-history/service.ts';
import { includeWith, withIncludes } from '../tasks/lists.ts';
import { getTask } from '../tasks/service.ts';

/** What one task's GET embeds beyond the task lists' tokens: the first page of each of its collections, and a count. */
const EMBEDS = ['attachments', 'comments', 'activity', 'comment_count'] as const;
type Embed = (typeof EMBEDS)[number];
const FIRST_PAGE: PageRequest = { offset: 0, limit: 20, style: 'page' };

/** A collection's first page as a list envelope; `next` is its own door's second page. */
function firstPage<T>(call: ReadCall, door: string, count: number, results: T[]) {
  return { count, next: count > results.length ? `${call.baseUrl}${door}?page=2&page_size=${FIRST_PAGE.limit}` : null, previous: null, results };
}

/** The lists' own embeds, which come whole: as list envelopes here too, so every embed of one task reads alike. */
const WHOLE = ['participants', 'relations', 'children'] as const;
const whole = (results: unknown[]) => ({ count: results.length, next: null, previous: null, results });

/**
 * `GET tasks/{task}/`: one task, with what `include` asks for: its participants, relations and children (all of
 * them), and the first page (20) of its attachments, comments and activity, each as a list envelope
 * (`{count, next, previous, results}`, as the DailyBot client reads them), and comment_count.
 */
export function taskDetailRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: tasks');
  r.read(
    {
      path: '/v1/plan/tasks/:task/', summary: 'One task, by uuid or KEY-n (an old key too)', response: 'PlanTask', keyParams: ['task'],
      query: [{ name: 'include', description: 'participants, relations, children (all, as a list envelope); attachments, comments, activity (first 20, as a list envelope) and comment_count' }],
    },
    async (call) => {
      const { tokens, also } = includeWith<Embed>(call.query.values('include') ?? [], EMBEDS);
      const { task } = await getTask(call, call.params.task);
      const [presented] = await withIncludes(call, [task], tokens);
      const embeds: Record<string, unknown> = {};
      for (const name of WHOLE) if (tokens.has(name)) embeds[name] = whole(presented[name] as unknown[]);
      const base = `/v1/plan/tasks/${task.uuid}`;
      if (also.has('attachments')) {
        const { count, rows } = await listAttachments(call, taskAttachments, { task: task.uuid }, FIRST_PAGE);
        embeds.attachments = firstPage(call, `${base}/attachments/`, count, rows.map(presentAttachment));
      }
      if (also.has('comments') || also.has('comment_count')) {
        const { count, results } = await listComments(call, task.uuid, also.has('comments') ? FIRST_PAGE : { ...FIRST_PAGE, limit: 1 });
        if (also.has('comments')) embeds.comments = firstPage(call, `${base}/comments/`, count, results);
        if (also.has('comment_count')) embeds.comment_count = count;
      }
      if (also.has('activity')) {
        const { count, rows } = await taskActivity(call, task.uuid, FIRST_PAGE);
        embeds.activity = firstPage(call, `${base}/activity/`, count, rows.map(presentActivity));
      }
      return { ...presented, ...embeds };
    },
  );
}
