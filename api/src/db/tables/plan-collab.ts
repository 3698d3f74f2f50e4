/** The Plan's shared work around tasks (migrations 0650–0669): views, favorites, notifications, reports, files. */

export const VIEW_VISIBILITIES = ['personal', 'shared', 'board_default'] as const;
export type ViewVisibility = (typeof VIEW_VISIBILITIES)[number];

export interface ViewRow {
  uuid: string;
  organization_uuid: string;
  board_uuid: string | null;
  project_uuid: string | null;
  owner_uuid: string | null;
  name: string;
  visibility: ViewVisibility;
  filters: string;
  sort: string;
  version: number;
  created_at: string;
  updated_at: string;
  /** How the client lays the view out (list, board, table, timeline, calendar) and what it groups by. */
  view_mode?: string | null;
  group_by?: string | null;
  /** The swimlanes' dimension, or `none` (migration 1000). */
  sub_group_by?: string | null;
}

export const FAVORITE_TYPES = ['task', 'board', 'project', 'view'] as const;
export type FavoriteType = (typeof FAVORITE_TYPES)[number];

export interface FavoriteRow {
  uuid: string;
  organization_uuid: string;
  user_uuid: string;
  object_type: FavoriteType;
  object_uuid: string;
  created_at: string;
}

export interface NotificationRow {
  uuid: string;
  organization_uuid: string;
  recipient_uuid: string;
  kind: string;
  object_type: string;
  object_uuid: string;
  board_uuid: string | null;
  project_uuid: string | null;
  actor_uuid: string | null;
  agent_name: string | null;
  title: string;
  body: string;
  data: string;
  read_at: string | null;
  created_at: string;
}

export interface NotificationRouteRow {
  uuid: string;
  organization_uuid: string;
  kind: string;
  channel: string;
  scope: string | null;
  created_by_uuid: string | null;
  created_at: string;
  updated_at: string;
  /** A label for people (the DailyBot client names its routes), and whether it sends (a disabled route is kept, silent). */
  name?: string | null;
  enabled?: boolean | number;
}

export interface DueNoticeRow {
  task_uuid: string;
  due_date: string;
  kind: string;
  created_at: string;
}

export const REPORT_KINDS = ['daily', 'week_start', 'week_end'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export interface ReportScheduleRow {
  uuid: string;
  organization_uuid: string;
  name: string;
  kind: ReportKind;
  enabled: boolean | number;
  weekdays: string;
  time: string;
  timezone: string;
  channel: string | null;
  email_recipients: string | null;
  scope: string | null;
  created_by_uuid: string | null;
  last_run_at: string | null;
  next_run_at: string | null;
  created_at: string;
  updated_at: string;
}

export type AttachmentStatus = 'pending' | 'ready';

export interface AttachmentRow {
  uuid: string;
  organization_uuid: string;
  object_kind: string;
  object_uuid: string;
  board_uuid: string | null;
  project_uuid: string | null;
  uploader_uuid: string | null;
  filename: string;
  declared_type: string;
  content_type: string | null;
  file_kind: string | null;
  declared_size: number | string | null;
  size: number | string | null;
  sha256: string | null;
  storage_key: string;
  status: AttachmentStatus;
  upload_token_hash: string | null;
  expires_at: string | null;
  uploaded_at: string | null;
  created_at: string;
  confirmed_at: string | null;
  caption?: string | null;
}

export interface FileTrashRow {
  storage_key: string;
  created_at: string;
}

export interface ReactionRow {
  organization_uuid: string;
  object_kind: string;
  object_uuid: string;
  user_uuid: string;
  emoji: string;
  created_at: string;
}

export interface CommentRow {
  uuid: string;
  organization_uuid: string;
  task_uuid: string;
  parent_uuid: string | null;
  author_uuid: string | null;
  agent_name: string | null;
  body: string;
  /** JSON array of user uuids. */
  mentions: string;
  created_at: string;
  updated_at: string;
  edited_at: string | null;
}
