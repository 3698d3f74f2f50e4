import type { PlanRead } from '../frame/context.ts';

/** The object attachments hang on, as the caller may see it. */
export interface AttachTarget {
  uuid: string;
  /** The board whose change stream records its attachments (tasks, comments), or null. */
  board: string | null;
  project: string | null;
  /** Whoever wrote the object, if it has an author (a comment, a project update): they may remove its files too. */
  author: string | null;
}

/**
 * A kind of object that takes attachments (the attachments' routes are declared per kind by resource.ts). A feature
 * whose objects take files declares its kind: where its objects are, how one is found for the caller (404 when
 * invisible), and who may attach to it (attachments/kinds.ts; comments/kinds.ts).
 */
export interface AttachableKind {
  /** plan_attachments.object_kind: project, goal, project_update, task, comment. */
  kind: string;
  /** The object's path, its parameters as the router names them (`/v1/plan/projects/:project`). */
  path: string;
  /** The OpenAPI tag of its attachment routes, and what the summaries call one object. */
  tag: string;
  noun: string;
  /** Path parameters that take something else than a uuid (a task's KEY-n). */
  keyParams?: string[];
  /** The object the path's parameters name, or 404. */
  resolve(r: PlanRead, params: Record<string, string>): Promise<AttachTarget>;
  /** Refuses (403 with the kind's code) a caller who may see the object but not attach to it. */
  assertMayAttach?(r: PlanRead, target: AttachTarget): void;
  /** The table whose rows these objects are: the sweep removes the files of objects gone without a word (a cascade). */
  table: string;
}
