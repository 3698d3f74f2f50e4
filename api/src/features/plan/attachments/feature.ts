import type { Deps } from '../../../http/deps.ts';
import type { Feature } from '../../../http/feature.ts';
import { planRouter } from '../../../http/plan/registrar.ts';
import { PLAN_HOOKS } from '../frame/hooks.ts';
import { boardAttachments, commentAttachments, goalAttachments, milestoneAttachments, projectAttachments, taskAttachments, updateAttachments } from './kinds.ts';
import { sweepFiles } from '../files/repository.ts';
import { attachmentRoutes, uploadRoutes } from './routes.ts';

/** The tables of the objects that take files, by kind: the sweep drops the files of objects gone. */
export const ATTACHED_TABLES: Record<string, string> = {
  ...Object.fromEntries([projectAttachments, goalAttachments, updateAttachments, taskAttachments, commentAttachments, milestoneAttachments, boardAttachments].map((k) => [k.kind, k.table])),
};

/** Every minute: lapsed uploads and files of objects gone are removed from the store. */
export function sweepAttachmentFiles(deps: Deps): Promise<number> {
  return sweepFiles(deps.db, deps.files, ATTACHED_TABLES, deps.clock.now());
}

/** Plan (beta): files attached to projects, goals, project updates, tasks and comments; the presigned uploads' PUT; the store's sweep. */
export const planAttachments: Feature = {
  name: 'plan/attachments',
  routers: (deps, mw) => [planRouter(deps, mw, PLAN_HOOKS, attachmentRoutes), uploadRoutes(deps)],
  openapi: () => import('./openapi.ts'),
  jobs: [{ name: 'plan-attachment-sweep', schedule: '* * * * *', run: sweepAttachmentFiles }],
};
