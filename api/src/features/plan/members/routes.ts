import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { presentMember, presentMentionable } from './presenter.ts';
import { listMembers, listMentionables, putMember, removeMember, updateMember } from './service.ts';
import type { Container } from './service.ts';
import { addMemberSchema, updateMemberSchema } from './schema.ts';

/** Members and mentionables of boards and of projects: the same routes under both. */
export function memberRoutes(plan: PlanRoutes): void {
  for (const [container, base, param] of [['board', '/v1/plan/boards/:board', 'board'], ['project', '/v1/plan/projects/:project', 'project']] as [Container, string, string][]) {
    const r = plan.tagged(container === 'board' ? 'Plan: boards' : 'Plan: projects');
    r.list({ path: `${base}/members/`, summary: `Members of a ${container} and their roles`, item: 'PlanMember' }, async (call) => {
      const { count, rows } = await listMembers(call, container, call.params[param], call.page);
      return { count, results: rows.map(presentMember) };
    });
    r.write(
      { method: 'post', structure: true, path: `${base}/members/`, summary: `Add a member (201), or change an existing member's role (200)`, scope: 'tasks:admin', body: addMemberSchema, status: 201, response: 'PlanMember' },
      async (call) => {
        const { member, created } = await putMember(call, container, call.params[param], call.body.user, call.body.role);
        if (!created) call.status(200);
        return presentMember(member);
      },
    );
    r.write(
      { method: 'patch', structure: true, path: `${base}/members/:user/`, summary: `Change a member's role; an empty body answers the membership as it is`, scope: 'tasks:admin', body: updateMemberSchema, response: 'PlanMember' },
      async (call) => presentMember(await updateMember(call, container, call.params[param], call.params.user, call.body.role)),
    );
    r.write(
      { method: 'delete', structure: true, scope: 'tasks:admin', path: `${base}/members/:user/`, summary: 'Remove a member (409 last_grant_cannot_be_removed for the last one of a members-only one)', status: 204 },
      (call) => removeMember(call, container, call.params[param], call.params.user),
    );
    r.list(
      {
        path: `${base}/mentionables/`,
        summary: `People who can own or take part in the ${container}'s tasks`,
        item: 'PlanMentionable',
        query: [{ name: 'search', description: 'name or e-mail contains (2–256 characters)' }],
      },
      async (call) => {
        const { count, rows } = await listMentionables(call, container, call.params[param], call.query.search(), call.page);
        return { count, results: rows.map(presentMentionable) };
      },
    );
  }
}
