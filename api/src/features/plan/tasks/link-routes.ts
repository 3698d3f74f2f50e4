import * as yup from 'yup';
import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { badRequest } from '../../../lib/errors.ts';
import { RELATION_TYPES } from '../../../db/tables.ts';
import { addParticipant, getSubscription, listParticipants, removeParticipant, setSubscription } from './people.ts';
import { addRelation, isRelationType, listRelations, removeRelation } from './relations.ts';
import { participantSchema, subscriptionSchema, taskRef } from './schema.ts';

/** What hangs on a task: its relations, participants, and the caller's subscription. */

const TASK = '/v1/plan/tasks/:task';
const keyParams = ['task'];

export const relationSchema = yup.object({
  relation_type: yup.string().required(),
  target_task: taskRef().required(),
});

export function linkRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: task links');
  r.list({ path: `${TASK}/relations/`, summary: 'Relations of a task from its side (blocks, blocked_by, relates_to, duplicates, duplicated_by)', item: 'PlanTaskRelation', keyParams }, async (call) => {
    const all = await listRelations(call, call.params.task);
    return { count: all.length, results: all.slice(call.page.offset, call.page.offset + call.page.limit) };
  });
  r.write(
    {
      method: 'post',
      path: `${TASK}/relations/`,
      summary: 'Link a task to another (409 relation_exists, relation_cycle; 400 invalid_relation)',
      body: relationSchema,
      status: 201,
      response: 'PlanTaskRelation',
      keyParams,
    },
    async (call) => {
      const type = call.body.relation_type;
      if (!isRelationType(type)) throw badRequest('invalid_relation', `relation_type must be one of: ${RELATION_TYPES.join(', ')}.`, { parameter: 'relation_type' });
      return addRelation(call, call.params.task, type, call.body.target_task);
    },
  );
  r.write({ method: 'delete', path: `${TASK}/relations/:relation/`, summary: 'Remove a relation (from either task)', status: 204, keyParams }, (call) =>
    removeRelation(call, call.params.task, call.params.relation),
  );

  r.list({ path: `${TASK}/participants/`, summary: 'Who is on a task (participants) and who watches it (watchers, and its owner or creator when they muted it)', item: 'PlanTaskParticipant', keyParams }, (call) => listParticipants(call, call.params.task, call.page));
  r.write(
    { method: 'post', path: `${TASK}/participants/`, summary: 'Add a participant (400 participant_cannot_access_board); 200 when already one', body: participantSchema, status: 201, response: 'PlanPerson', keyParams },
    async (call) => {
      const { participant, created } = await addParticipant(call, call.params.task, call.body.user, { role: call.body.role, is_muted: call.body.is_muted });
      if (!created) call.status(200);
      return participant;
    },
  );
  r.write({ method: 'delete', path: `${TASK}/participants/:user/`, summary: 'Take a participant off the task, or a watcher off its followers', status: 204, keyParams }, (call) =>
    removeParticipant(call, call.params.task, call.params.user),
  );

  r.read({ path: `${TASK}/subscription/`, summary: 'Whether you follow this task\'s notifications, and why', person: true, response: 'PlanTaskSubscription', keyParams }, (call) =>
    getSubscription(call, call.params.task),
  );
  r.write(
    { method: 'put', path: `${TASK}/subscription/`, summary: 'Follow or stop following this task\'s notifications', person: true, body: subscriptionSchema, response: 'PlanTaskSubscription', keyParams },
    (call) => setSubscription(call, call.params.task, call.body.subscribed),
  );
  // The DailyBot client's verbs for the same choice: POST follows, DELETE stops following.
  for (const [method, subscribed] of [['post', true], ['delete', false]] as const) {
    r.write(
      { method, path: `${TASK}/subscription/`, summary: subscribed ? 'Follow this task (PUT with subscribed: true)' : 'Stop following this task (PUT with subscribed: false)', person: true, scope: 'tasks:write', destructive: false, response: 'PlanTaskSubscription', keyParams },
      (call) => setSubscription(call, call.params.task, subscribed),
    );
  }
}
