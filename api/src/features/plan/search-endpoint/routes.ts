import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { badRequest, invalidFilter } from '../../../lib/errors.ts';
import { presentHit } from './presenter.ts';
import { SEARCH_TYPES, search } from './service.ts';
import type { Indexed } from '../search/index.ts';

export function searchRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: search');
  r.list(
    {
      path: '/v1/plan/search/',
      summary: 'Tasks, boards and projects whose words start with every word of q (a KEY-n finds its task); projects, then boards, then tasks, newest change first',
      item: 'PlanSearchResult',
      query: [
        { name: 'q', description: 'search text, 2–256 characters (required)' },
        { name: 'type', description: 'task, board, project (repeat or comma-separate; default all three)' },
        { name: 'include_archived', description: 'true to include archived objects and the tasks of archived boards' },
      ],
    },
    async (call) => {
      const text = call.query.search('q');
      if (text === undefined) throw badRequest('search_query_too_short', 'q is required: a search text of 2 to 256 characters.', { parameter: 'q' });
      const given = call.query.values('type');
      const unknown = given?.find((type) => !(SEARCH_TYPES as readonly string[]).includes(type));
      if (unknown !== undefined) throw invalidFilter('type', `type must be task, board or project (not ${unknown}).`);
      const types = new Set<Indexed>((given as Indexed[] | undefined) ?? SEARCH_TYPES);
      const { count, hits } = await search(call, { text, types, includeArchived: call.query.flag('include_archived') }, call.page);
      return { count, results: hits.map(presentHit) };
    },
  );
}
