import { VISIBILITIES } from './access.ts';
import type { Visibility } from './access.ts';
import type { ReadCall } from './routes.ts';

/** The filters boards and projects (containers with members and a visibility) share in their lists. */
export interface ContainerFilters {
  includeArchived: boolean;
  search?: string;
  member?: string;
  visibility?: Visibility;
  ordering: [string, 'asc' | 'desc'];
}

export function containerFilters(call: ReadCall, ordering: Record<string, string>): ContainerFilters {
  return {
    includeArchived: call.query.flag('include_archived'),
    search: call.query.search(),
    member: call.query.person('member', call.actor.user.uuid),
    visibility: call.query.oneOf('visibility', VISIBILITIES),
    ordering: call.query.ordering(ordering, ['created_at', 'asc']),
  };
}

/** Their OpenAPI query parameters; `extra` names the list's own. */
export function containerFilterDocs(noun: string, searchable: string, ordering: Record<string, string>, extra: { name: string; description: string }[]) {
  return [
    { name: 'include_archived', description: `true to include archived ${noun}` },
    { name: 'search', description: `${searchable} contains (2–256 characters)` },
    ...extra,
    { name: 'member', description: `"me" or a user uuid: ${noun} with that member` },
    { name: 'visibility', description: 'org or members' },
    { name: 'ordering', description: `${Object.keys(ordering).join(', ')}; prefix - for descending` },
  ];
}
