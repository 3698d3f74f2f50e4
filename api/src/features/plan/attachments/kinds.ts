import { forbidden } from '../../../lib/errors.ts';
import { visibleComment } from '../comments/service.ts';
import { visibleBoard, visibleGoal, visibleProject } from '../frame/access.ts';
import { getMilestone } from '../milestones/service.ts';
import { visibleTask } from '../tasks/access.ts';
import { visibleUpdate } from '../updates/service.ts';
import type { AttachableKind } from '../files/kinds.ts';

export const projectAttachments: AttachableKind = {
  kind: 'project',
  path: '/v1/plan/projects/:project',
  tag: 'Plan: projects',
  noun: 'project',
  table: 'plan_projects',
  async resolve(r, params) {
    await visibleProject(r.db, r.actor, params.project);
    return { uuid: params.project, board: null, project: params.project, author: null };
  },
};

export const goalAttachments: AttachableKind = {
  kind: 'goal',
  path: '/v1/plan/goals/:goal',
  tag: 'Plan: goals',
  noun: 'goal',
  table: 'plan_goals',
  async resolve(r, params) {
    await visibleGoal(r.db, r.actor, params.goal);
    return { uuid: params.goal, board: null, project: null, author: null };
  },
};

export const updateAttachments: AttachableKind = {
  kind: 'project_update',
  path: '/v1/plan/projects/:project/updates/:update',
  tag: 'Plan: projects',
  noun: 'project update',
  table: 'plan_project_updates',
  async resolve(r, params) {
    const update = await visibleUpdate(r, params.project, params.update);
    return { uuid: update.uuid, board: null, project: update.project_uuid, author: update.author_uuid };
  },
  assertMayAttach(r, target) {
    if (target.author !== r.actor.user.uuid) throw forbidden('update_not_author', 'Only the author of a project update can attach files to it.');
  },
};

/** Files on a task: presign → PUT → confirm (25 MiB); the uploader or an admin removes one. */
export const taskAttachments: AttachableKind = {
  kind: 'task',
  path: '/v1/plan/tasks/:task',
  tag: 'Plan: tasks',
  noun: 'task',
  keyParams: ['task'],
  table: 'plan_tasks',
  async resolve(r, params) {
    const { task } = await visibleTask(r, params.task);
    return { uuid: task.uuid, board: task.board_uuid, project: null, author: null };
  },
};

/** Files on a comment: one multipart request, by the comment's author only (403 comment_not_author). */
export const commentAttachments: AttachableKind = {
  kind: 'comment',
  path: '/v1/plan/tasks/:task/comments/:comment',
  tag: 'Plan: comments',
  noun: 'comment',
  keyParams: ['task'],
  table: 'plan_comments',
  async resolve(r, params) {
    const { task, comment } = await visibleComment(r, params.task, params.comment);
    return { uuid: comment.uuid, board: task.board_uuid, project: null, author: comment.author_uuid };
  },
  assertMayAttach(r, target) {
    if (target.author !== r.actor.user.uuid) throw forbidden('comment_not_author', 'Only the author of a comment can attach files to it.');
  },
};

/** Files on a project's milestone (the DailyBot client's): whoever sees the project reads them. */
export const milestoneAttachments: AttachableKind = {
  kind: 'milestone',
  path: '/v1/plan/projects/:project/milestones/:milestone',
  tag: 'Plan: projects',
  noun: 'milestone',
  table: 'plan_milestones',
  async resolve(r, params) {
    const milestone = await getMilestone(r, params.project, params.milestone);
    return { uuid: milestone.uuid, board: null, project: milestone.project_uuid, author: null };
  },
};

/** Files on a board itself (the DailyBot client's): whoever sees the board reads them. */
export const boardAttachments: AttachableKind = {
  kind: 'board',
  path: '/v1/plan/boards/:board',
  tag: 'Plan: boards',
  noun: 'board',
  table: 'plan_boards',
  async resolve(r, params) {
    await visibleBoard(r.db, r.actor, params.board);
    return { uuid: params.board, board: params.board, project: null, author: null };
  },
};
