/**
 * The notification kinds of Plan (GET /v1/plan/notifications/catalog/; items carry `key`). Notification routes
 * and personal settings name a kind by its key; any other answers 400 unknown_notification_kind.
 */
export interface NotificationKind {
  key: string;
  name: string;
  description: string;
  /** What the notification is about. */
  object_type: 'task' | 'comment' | 'project' | 'board' | 'report';
  /** Where it can be delivered: the Plan inbox, e-mail, a chat channel route. */
  channels: ('inbox' | 'email' | 'chat')[];
  default_enabled: boolean;
  /**
   * Whom it is for: `personal` kinds reach people (their inbox, e-mail, chat) and they choose which they get
   * (PUT /v1/plan/me/notifications/); `org` kinds are about the organization's work and only routes send them (a
   * post in a channel). The DailyBot client offers personal kinds in its settings and org kinds in its routes.
   */
  scope: 'personal' | 'org';
}

export const NOTIFICATION_CATALOG: readonly NotificationKind[] = [
  { key: 'task.assigned', name: 'Task assigned', description: 'A task was assigned to you.', object_type: 'task', channels: ['inbox', 'email', 'chat'], default_enabled: true, scope: 'personal' },
  { key: 'task.unassigned', name: 'Task unassigned', description: 'A task you owned was given to someone else.', object_type: 'task', channels: ['inbox', 'email', 'chat'], default_enabled: true, scope: 'personal' },
  { key: 'task.mentioned', name: 'Mentioned', description: 'You were mentioned in a task description or comment.', object_type: 'task', channels: ['inbox', 'email', 'chat'], default_enabled: true, scope: 'personal' },
  { key: 'task.commented', name: 'New comment', description: 'Someone commented on a task you own, take part in or subscribe to.', object_type: 'comment', channels: ['inbox', 'email', 'chat'], default_enabled: true, scope: 'personal' },
  { key: 'task.comment_replied', name: 'Reply to your comment', description: 'Someone replied to your comment.', object_type: 'comment', channels: ['inbox', 'email', 'chat'], default_enabled: true, scope: 'personal' },
  { key: 'task.state_changed', name: 'State changed', description: 'A task you own, take part in or subscribe to moved to another state.', object_type: 'task', channels: ['inbox', 'email', 'chat'], default_enabled: true, scope: 'personal' },
  { key: 'task.completed', name: 'Task completed', description: 'A task moved into a done column (for channel routes).', object_type: 'task', channels: ['chat'], default_enabled: false, scope: 'org' },
  { key: 'task.created', name: 'Task created', description: 'A task was created on a board (for channel routes).', object_type: 'task', channels: ['chat'], default_enabled: false, scope: 'org' },
  { key: 'task.blocked', name: 'Task blocked', description: 'A task you own is now blocked by another.', object_type: 'task', channels: ['inbox', 'email', 'chat'], default_enabled: true, scope: 'personal' },
  { key: 'task.unblocked', name: 'Task unblocked', description: 'The last task blocking one you own was completed.', object_type: 'task', channels: ['inbox', 'email', 'chat'], default_enabled: true, scope: 'personal' },
  { key: 'task.due', name: 'Due date reached', description: 'A task you own reached its due date (once per due date, in the morning of that day in your time zone).', object_type: 'task', channels: ['inbox', 'email', 'chat'], default_enabled: true, scope: 'personal' },
  { key: 'task.due_soon', name: 'Due soon', description: 'A task you own is due within a day.', object_type: 'task', channels: ['inbox', 'email', 'chat'], default_enabled: true, scope: 'personal' },
  { key: 'task.overdue', name: 'Overdue', description: 'A task you own is past its due date.', object_type: 'task', channels: ['inbox', 'email', 'chat'], default_enabled: true, scope: 'personal' },
  { key: 'comment.reaction', name: 'Reaction', description: 'Someone reacted to your comment.', object_type: 'comment', channels: ['inbox'], default_enabled: false, scope: 'personal' },
  { key: 'project.update_posted', name: 'Project update', description: 'An update was posted on a project you are a member of.', object_type: 'project', channels: ['inbox', 'email', 'chat'], default_enabled: true, scope: 'personal' },
  { key: 'project.member_added', name: 'Added to a project', description: 'You were added to a project.', object_type: 'project', channels: ['inbox', 'email'], default_enabled: true, scope: 'personal' },
  { key: 'board.member_added', name: 'Added to a board', description: 'You were added to a board.', object_type: 'board', channels: ['inbox', 'email'], default_enabled: true, scope: 'personal' },
  { key: 'report.delivered', name: 'Scheduled report', description: 'A scheduled report or briefing was delivered.', object_type: 'report', channels: ['email', 'chat'], default_enabled: true, scope: 'org' },
];

const KINDS = new Map(NOTIFICATION_CATALOG.map((kind) => [kind.key, kind]));
export const isNotificationKind = (key: string): boolean => KINDS.has(key);
export const notificationKind = (key: string): NotificationKind | undefined => KINDS.get(key);
