import type { TaskRow } from '../../../db/tables.ts';
import { fullName } from '../../users/repository.ts';
import type { PlanWrite } from '../frame/context.ts';
import { notify } from '../notifications/notify.ts';
import { taskSubscribers } from './people.ts';

/**
 * What a task's change tells people, in the change's own transaction (recordTaskChanges calls this): a new owner
 * hears `task.assigned` and the one it was taken from `task.unassigned` (when the caller passes the tasks as they
 * were); the task's followers (taskSubscribers) hear `task.state_changed` when it changes column. A new task is
 * `task.created` and one moved into a done column `task.completed`: only routes hear those (a post in the channels
 * the organization routed them to). notify() leaves out whoever made the change and anyone who
 * cannot see the board.
 */
export async function notifyTaskChanges(w: PlanWrite, tasks: TaskRow[], change: string, fields: string[], before: TaskRow[] = []): Promise<void> {
  const created = change === 'created';
  const assigned = created || fields.includes('owner');
  const moved = !created && fields.includes('state');
  if (!assigned && !moved) return;
  const who = fullName(w.actor.user);
  for (const task of tasks) {
    const wantsAssignee = assigned && task.owner_uuid !== null && task.owner_uuid !== w.actor.user.uuid;
    const previous = fields.includes('owner') ? (before.find((b) => b.uuid === task.uuid)?.owner_uuid ?? null) : null;
    const wantsPrevious = previous !== null && previous !== task.owner_uuid;
    if (!created && !wantsAssignee && !wantsPrevious && !moved) continue;
    const board = await w.db('plan_boards').where({ uuid: task.board_uuid }).first('key', 'project_uuid', 'organization_uuid');
    if (!board) continue;
    const key = `${board.key}-${task.number}`;
    const subject = { type: 'task' as const, uuid: task.uuid, board: task.board_uuid, project: board.project_uuid, title: task.title, key };
    const base = { organizationUuid: board.organization_uuid, subject, actor: { uuid: w.actor.user.uuid }, agentName: w.agentName };
    if (created) {
      await notify(w.db, { ...base, kind: 'task.created', recipients: [], text: `${who} created ${key} ${task.title}`, data: { task: task.uuid } }, w.now);
    }
    if (wantsAssignee) {
      await notify(w.db, { ...base, kind: 'task.assigned', recipients: [task.owner_uuid!], text: `${who} assigned ${key} ${task.title} to you`, data: { task: task.uuid } }, w.now);
    }
    if (wantsPrevious) {
      await notify(w.db, { ...base, kind: 'task.unassigned', recipients: [previous], text: `${who} gave ${key} ${task.title} to someone else`, data: { task: task.uuid, owner: task.owner_uuid } }, w.now);
    }
    if (moved) {
      const state = await w.db('plan_states').where({ uuid: task.state_uuid }).first('uuid', 'name', 'category');
      const followers = await taskSubscribers(w.db, task);
      if (state && followers.length) {
        await notify(
          w.db,
          { ...base, kind: 'task.state_changed', recipients: followers, text: `${who} moved ${key} ${task.title} to ${state.name}`, data: { task: task.uuid, state: state.uuid, state_name: state.name, category: state.category } },
          w.now,
        );
      }
      if (state?.category === 'done') {
        await notify(w.db, { ...base, kind: 'task.completed', recipients: [], text: `${who} completed ${key} ${task.title}`, data: { task: task.uuid, state: state.uuid } }, w.now);
      }
    }
  }
}
