import type { Actor } from '../../../auth/credentials.ts';
import { assertActor } from '../../../auth/policy.ts';
import type { PlanQuery } from '../../../http/plan/query.ts';
import { badRequest, invalidFilter } from '../../../lib/errors.ts';
import { isUuid } from '../../../lib/ids.ts';
import { INCLUDE_TOKENS, TASK_SORTS } from './lists.ts';
import type { IncludeToken, TaskFilters } from './lists.ts';

/**
 * The task lists' query parameters, with the spec's codes: `state`, `board` (uuids, at most 50:
 * `too_many_filter_values`), `label` (uuids, at most 50: `invalid_label_filter`), `owner` (`me`, a user uuid or
 * `unowned`), `priority` (1–5), `parent_task`, `milestone`, `since`/`until` (or `start_date`/`end_date`, or
 * `date`: created on those days), `due_from`/`due_to` (YYYY-MM-DD: `invalid_date_range`), `include` (tokens:
 * `invalid_filter_value` with `extra.parameter`), `sort` or `ordering` (`invalid_sort`), `search` (2–256
 * characters: `search_query_too_short`, `search_query_too_long`).
 */

export const FILTER_LIMIT = 50;

function labels(query: PlanQuery): string[] | undefined {
  const values = query.values('label');
  if (!values) return undefined;
  if (values.length > FILTER_LIMIT) throw badRequest('invalid_label_filter', `label takes at most ${FILTER_LIMIT} label uuids.`, { parameter: 'label', limit: FILTER_LIMIT });
  if (!values.every(isUuid)) throw badRequest('invalid_label_filter', 'label takes label uuids, separated by commas.', { parameter: 'label' });
  return [...new Set(values.map((v) => v.toLowerCase()))];
}

function owners(query: PlanQuery, actor: Actor): TaskFilters['owners'] {
  const values = query.values('owner');
  if (!values) return undefined;
  if (values.length > FILTER_LIMIT) throw badRequest('too_many_filter_values', `owner takes at most ${FILTER_LIMIT} values.`, { parameter: 'owner', limit: FILTER_LIMIT });
  const users = new Set<string>();
  let unowned = false;
  for (const value of values) {
    if (value === 'unowned') unowned = true;
    else if (value === 'me') {
      assertActor(actor, 'owner=me needs a person; agent and organization keys act for no one.');
      users.add(actor.user.uuid);
    } else if (isUuid(value)) users.add(value.toLowerCase());
    else throw invalidFilter('owner', 'owner must be "me", "unowned" or user uuids, separated by commas.');
  }
  return { users: [...users], unowned };
}

function priorities(query: PlanQuery): number[] | undefined {
  const values = query.values('priority');
  if (!values) return undefined;
  if (values.length > FILTER_LIMIT) throw badRequest('too_many_filter_values', `priority takes at most ${FILTER_LIMIT} values.`, { parameter: 'priority', limit: FILTER_LIMIT });
  if (!values.every((v) => /^[1-5]$/.test(v))) throw invalidFilter('priority', 'priority must be whole numbers from 1 to 5, separated by commas.');
  return [...new Set(values.map(Number))];
}

function include(query: PlanQuery): Set<IncludeToken> {
  const values = query.values('include') ?? [];
  const unknown = values.find((v) => !(INCLUDE_TOKENS as readonly string[]).includes(v));
  if (unknown !== undefined) throw invalidFilter('include', `include takes ${INCLUDE_TOKENS.join(', ')}; not ${unknown.slice(0, 40)}.`);
  return new Set(values as IncludeToken[]);
}

/** The `include` tokens alone (a single task's GET takes them too). */
export const includeOf = include;

export function taskFilters(query: PlanQuery, actor: Actor): TaskFilters {
  const day = query.dateRange(['date'], ['date']);
  const parent = query.values('parent_task');
  return {
    boards: query.uuids('board', FILTER_LIMIT),
    states: query.uuids('state', FILTER_LIMIT),
    labels: labels(query),
    owners: owners(query, actor),
    priorities: priorities(query),
    parent: parent ? parent[parent.length - 1] : undefined,
    milestone: query.uuid('milestone'),
    created: day.from ? day : query.dateRange(['since', 'start_date'], ['until', 'end_date']),
    due: query.dateRange(['due_from'], ['due_to']),
    search: query.search(),
    include: include(query),
    sort: query.sort(TASK_SORTS, { column: 'rank', order: 'asc' }),
  };
}

/**
 * The version a write expects: the body's `version` or the If-Match header (`"3"`, `W/"3"` or `3`; `*` is
 * any). Both, differing: 400 `version_precondition_ambiguous`. An unreadable If-Match: 400
 * `invalid_filter_value` naming it.
 */
export function expectedVersion(ifMatch: string | undefined, version: number | undefined): number | undefined {
  let fromHeader: number | undefined;
  if (ifMatch !== undefined && ifMatch.trim() !== '*') {
    const match = /^\s*(?:W\/)?"?([1-9][0-9]{0,9})"?\s*$/.exec(ifMatch);
    if (!match) throw invalidFilter('If-Match', 'If-Match must be the task\'s version, as "3".');
    fromHeader = Number(match[1]);
  }
  if (fromHeader !== undefined && version !== undefined && fromHeader !== version) {
    throw badRequest('version_precondition_ambiguous', `If-Match (${fromHeader}) and the body's version (${version}) differ; send one.`, { if_match: fromHeader, version });
  }
  return version ?? fromHeader;
}
