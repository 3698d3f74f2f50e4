/** The Plan (beta), migrations 0600–0699. */

/** A board's or a project's visibility: everyone who may use Plan, or its members (and the admins). */
export const PLAN_VISIBILITIES = ['org', 'members'] as const;
export type Visibility = (typeof PLAN_VISIBILITIES)[number];
export const PLAN_MEMBER_ROLES = ['manager', 'member'] as const;
export type MemberRole = (typeof PLAN_MEMBER_ROLES)[number];
/** CONTRACT §9 state categories. */
export const PLAN_STATE_CATEGORIES = ['backlog', 'todo', 'in_progress', 'done', 'canceled'] as const;
export type StateCategory = (typeof PLAN_STATE_CATEGORIES)[number];

export interface PlanOrganizationRow {
  organization_uuid: string;
  change_seq: number | string;
  created_at: string;
}

export interface PlanChangeRow {
  id: number | string;
  organization_uuid: string;
  board_uuid: string | null;
  project_uuid: string | null;
  seq: number | string;
  object_kind: string;
  object_uuid: string;
  change_kind: string;
  changed_fields: string;
  snapshot: string | null;
  actor_uuid: string | null;
  credential_uuid: string | null;
  agent_name: string | null;
  created_at: string;
  /** The task the change belongs to (its own changes, its relations' and participants'), else null. */
  task_uuid: string | null;
}

export interface IdempotencyKeyRow {
  actor_id: string;
  key: string;
  organization_uuid: string;
  fingerprint: string;
  state: 'running' | 'done';
  locked_until: string;
  status: number | null;
  headers: string | null;
  body: string | null;
  created_at: string;
  expires_at: string;
}

/** A board's or a project's member (plan_board_members, plan_project_members). */
export interface PlanMemberRow {
  uuid: string;
  user_uuid: string;
  role: MemberRole;
  created_at: string;
}
export interface BoardMemberRow extends PlanMemberRow {
  board_uuid: string;
}
export interface ProjectMemberRow extends PlanMemberRow {
  project_uuid: string;
}

/** Every key a board has had, per organization (retired keys stay reserved). */
export interface BoardKeyRow {
  organization_uuid: string;
  key: string;
  board_uuid: string;
  created_at: string;
  retired_at: string | null;
}

export interface TaskLabelRow {
  task_uuid: string;
  label_uuid: string;
  /** Where the task is (migration 0900): written by triggers from the task, never by the code. */
  state_uuid?: string | null;
  live?: boolean | number;
}

export interface GoalRow {
  uuid: string;
  organization_uuid: string;
  name: string;
  name_key: string;
  description: string;
  created_by_uuid: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
  period_start?: string | null;
  period_end?: string | null;
  status?: string | null;
}

export interface ProjectRow {
  uuid: string;
  organization_uuid: string;
  goal_uuid: string | null;
  name: string;
  name_key: string;
  description: string;
  visibility: Visibility;
  created_by_uuid: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
  start_date?: string | null;
  target_date?: string | null;
  health?: string | null;
  /** Its place in the organization's order of projects (a fractional index; migration 1000). */
  position?: string | null;
}

export interface MilestoneRow {
  uuid: string;
  organization_uuid: string;
  project_uuid: string;
  name: string;
  description: string;
  target_date: string | null;
  created_at: string;
  updated_at: string;
  completed_at?: string | null;
  archived_at?: string | null;
}

/** A person's last visit of a board (their recents). */
export interface BoardVisitRow {
  user_uuid: string;
  board_uuid: string;
  organization_uuid: string;
  visited_at: string;
}

/** A person's Plan settings: how far they have read the activity feed, and their daily briefing (JSON). */
export interface PersonSettingsRow {
  user_uuid: string;
  organization_uuid: string;
  activity_seen_at: string | null;
  briefing: string | null;
  notifications: string | null;
  updated_at: string;
}

/** One sending of a scheduled report: by its schedule, or asked for (run/, send-test/). */
export interface ReportRunRow {
  uuid: string;
  report_uuid: string;
  organization_uuid: string;
  trigger: 'schedule' | 'manual';
  deliveries: number;
  ran_at: string;
}

export interface ProjectUpdateRow {
  uuid: string;
  organization_uuid: string;
  project_uuid: string;
  author_uuid: string | null;
  agent_name: string | null;
  body: string;
  health: string | null;
  created_at: string;
  updated_at: string;
  edited_at: string | null;
}

export interface BoardRow {
  uuid: string;
  organization_uuid: string;
  project_uuid: string | null;
  key: string;
  name: string;
  description: string;
  visibility: Visibility;
  created_by_uuid: string | null;
  change_seq: number | string;
  next_task_number: number;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
  /** Its place in the organization's order of boards (a fractional index; migration 1000). */
  position?: string | null;
}

export interface StateRow {
  uuid: string;
  organization_uuid: string;
  board_uuid: string;
  name: string;
  name_key: string;
  category: StateCategory;
  position: number;
  color: string;
  is_default: boolean | number;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface LabelRow {
  uuid: string;
  organization_uuid: string;
  /** Null for an organization label (every board of the organization offers it; migration 1001). */
  board_uuid: string | null;
  name: string;
  name_key: string;
  color: string;
  description: string;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
  /** Who made it (organization labels: they may edit it besides admins). */
  created_by_uuid?: string | null;
}

export interface TaskRow {
  uuid: string;
  organization_uuid: string;
  board_uuid: string;
  number: number;
  title: string;
  description: string;
  state_uuid: string;
  owner_uuid: string | null;
  priority: number | null;
  estimate: number | null;
  start_date: string | null;
  due_date: string | null;
  parent_task_uuid: string | null;
  milestone_uuid: string | null;
  version: number;
  rank: string;
  created_by_uuid: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  archived_at: string | null;
}
