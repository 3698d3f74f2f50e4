import type { ClientCall } from './dailybot-client-call.ts';

/**
 * What the later `/v1/plan/`-era version of the DailyBot client (DailybotHQ/cli at
 * edcf7e3e843a7507d4881a5c09d922860c5f7120: `dailybot_cli/api_client.py` and the command files `board.py`,
 * `project.py`, `tasks.py`, `task.py`, `plan_views.py`, `plan_label.py`, `tasks_settings.py`, `_channels.py`,
 * `_favorites.py`) calls beyond the earlier one, and the earlier doors it now calls with other values: sorts,
 * workspace views, board and project order, organization labels, the grouped task board, member and view doors,
 * board attachments, pinned views, the `kanban` view mode, watchers, and with a chat platform connected, channels,
 * personal notification settings, routes and reports as its commands send them. Same conventions as
 * dailybot-client.ts; `{slack}` is the stand-in's public channel.
 */
const P = '/v1/plan';
const VIEW_READS = ['name', 'view_mode', 'group_by', 'sort', 'visibility', 'scope', 'uuid'];
const MEMBER_GRANT = ['uuid', 'user_uuid', 'team_uuid', 'role'];

export const LATER_CALLS: ClientCall[] = [
  // Sorted reads (`--sort`: the aliases `due`, `created`… are mapped by the client before they are sent).
  { method: 'GET', path: `${P}/boards/{board}/board/`, query: 'sort=priority', reads: ['delta_cursor', 'states', 'tasks'] },
  { method: 'GET', path: `${P}/boards/{board}/tasks/`, query: 'sort=-due_date' },
  { method: 'GET', path: `${P}/tasks/{task}/children/`, query: 'sort=-priority' },
  { method: 'GET', path: `${P}/me/tasks/`, query: 'scope=involved&sort=start_date' },
  // The grouped board over any slice (`tasks board`).
  {
    method: 'GET', path: `${P}/tasks/board/`, query: 'board={board}&group_by=state&sub_group_by=priority&tasks_per_group=10&sort=priority',
    reads: ['total', 'group_by', 'sub_group_by', 'groups.*.key', 'groups.*.name', 'groups.*.count', 'groups.*.lanes.*.tasks', 'groups.*.lanes.*.next_offset'],
  },
  { method: 'GET', path: `${P}/tasks/board/`, query: 'owner=me&group_by=priority&offset=0&group=2', reads: ['total', 'groups'] },
  // Workspace views (`plan views workspace`, `… save`).
  { method: 'GET', path: `${P}/views/workspace/`, reads: ['results'] },
  {
    method: 'PUT', path: `${P}/views/workspace/`, ifMatchFrom: `${P}/views/workspace/`,
    body: [{ name: 'Everything mine', view_mode: 'list', filters: { owner: 'me' } }, { name: 'Roadmap', view_mode: 'timeline', visibility: 'shared', filters: {} }],
    reads: ['*.name', '*.view_mode', '*.visibility', '*.uuid'],
  },
  { method: 'GET', path: `${P}/views/workspace/`, reads: ['results.*.name', 'results.*.view_mode', 'results.*.visibility', 'results.*.uuid'] },
  // Saved views: one at a time (no If-Match), kanban, pinned.
  { method: 'POST', path: `${P}/boards/{board}/views/`, body: { name: 'Blocked', filters: {}, view_mode: 'kanban', group_by: 'state', sub_group_by: 'none', sort: 'priority', visibility: 'personal' }, capture: { boardView: 'uuid' }, reads: ['name'] },
  { method: 'POST', path: `${P}/projects/{project}/views/`, body: { name: 'Sprint focus', filters: {}, view_mode: 'list' }, reads: ['name'] },
  { method: 'GET', path: `${P}/boards/{board}/views/`, reads: ['results.*.name', 'results.*.kind', 'results.*.uuid'] },
  { method: 'GET', path: `${P}/projects/{project}/views/`, reads: ['results.*.name', 'results.*.view_mode', 'results.*.uuid'] },
  { method: 'PATCH', path: `${P}/views/{boardView}/`, body: { view_mode: 'kanban', group_by: 'owner' } },
  { method: 'GET', path: `${P}/views/{boardView}/`, reads: VIEW_READS },
  { method: 'POST', path: `${P}/me/favorites/`, body: { target_type: 'view', target_uuid: '{boardView}' }, reads: ['rank'] },
  { method: 'GET', path: `${P}/me/favorites/`, reads: ['results.*.rank', 'results.*.target_type', 'results.*.target_uuid', 'results.*.uuid'] },
  // Board order and moves between projects (`board reorder`, `board move-preview`).
  { method: 'GET', path: `${P}/boards/{otherBoard}/move-preview/`, query: 'project={project}', reads: ['from_project_uuid', 'to_project_uuid', 'tasks_count', 'tasks_with_foreign_milestone', 'goals_affected'] },
  { method: 'POST', path: `${P}/boards/{otherBoard}/reorder/`, body: { before: '{board}' }, reads: ['name'] },
  { method: 'POST', path: `${P}/boards/{otherBoard}/reorder/`, body: { project: '{project}' }, reads: ['name'] },
  { method: 'POST', path: `${P}/projects/{spareProject}/reorder/`, body: { before: '{project}' }, reads: ['name'] },
  { method: 'POST', path: `${P}/projects/{spareProject}/reorder/`, body: {} },
  // Memberships: the grant row (`member update`), and who sees a project.
  { method: 'PATCH', path: `${P}/boards/{board}/members/{mia}/`, body: {}, reads: MEMBER_GRANT },
  { method: 'PATCH', path: `${P}/projects/{project}/members/{mia}/`, body: {}, reads: MEMBER_GRANT },
  { method: 'GET', path: `${P}/boards/{board}/members/`, reads: ['results.*.user.name', 'results.*.role', 'results.*.user.uuid'] },
  { method: 'GET', path: `${P}/projects/{project}/members/`, reads: ['results.*.subject_type', 'results.*.name', 'results.*.team_name', 'results.*.user_uuid', 'results.*.team_uuid'] },
  { method: 'GET', path: `${P}/boards/{board}/mentionables/`, reads: ['results.*.name', 'results.*.kind', 'results.*.uuid'] },
  // Organization labels (`plan label list|create`).
  { method: 'POST', path: `${P}/labels/`, body: { name: 'needs design', color: '#8b5cf6', description: 'Waits for a designer' }, capture: { orgLabel: 'uuid' }, reads: ['name', 'uuid'] },
  { method: 'GET', path: `${P}/labels/`, query: 'search=design&include_archived=true', reads: ['results.*.name', 'results.*.color', 'results.*.uuid', 'results.*.is_archived'] },
  { method: 'GET', path: `${P}/boards/{board}/labels/`, reads: ['results.*.name', 'results.*.color', 'results.*.uuid'] },
  { method: 'POST', path: `${P}/tasks/{task}/labels/batch/`, body: { mode: 'add', label_uuids: ['{orgLabel}'] }, reads: ['labels'] },
  // Files on a board, and renames.
  { method: 'POST', path: `${P}/boards/{board}/attachments/`, multipart: true, capture: { boardFile: 'uuid' } },
  { method: 'GET', path: `${P}/boards/{board}/attachments/`, reads: ['results.*.filename', 'results.*.content_type', 'results.*.size', 'results.*.status', 'results.*.uuid'] },
  { method: 'GET', path: `${P}/boards/{board}/attachments/{boardFile}/content/` },
  { method: 'PATCH', path: `${P}/boards/{board}/attachments/{boardFile}/`, body: { filename: 'plan-v2.png' }, reads: ['filename'] },
  // A watcher is listed with the participants and taken off like them (`task participants`).
  { method: 'POST', path: `${P}/tasks/{task}/participants/`, body: { user_uuid: '{otto}', role: 'watcher' } },
  { method: 'GET', path: `${P}/tasks/{task}/participants/`, reads: ['results.*.member.name', 'results.*.role', 'results.*.source', 'results.*.is_muted', 'results.*.member.uuid'] },
  { method: 'DELETE', path: `${P}/tasks/{task}/participants/{otto}/` },
  // A chat platform is connected: kinds, channels, personal settings, routes and reports as the commands send them.
  { method: 'GET', path: `${P}/notifications/catalog/`, reads: ['kinds.*.key', 'kinds.*.scope'] },
  { method: 'GET', path: `${P}/channels/`, query: 'search=gen&type=channel', reads: ['results.*.external_id', 'results.*.name', 'results.*.type'] },
  { method: 'GET', path: `${P}/channels/`, query: 'type=private_channel', reads: ['results.*.external_id'] },
  { method: 'PUT', path: `${P}/me/notifications/`, body: { items: [{ kind: 'task.commented', chat: true, email: false }], destination: { type: 'channel', channel: { external_id: '{slack}' } } }, reads: ['items.*.kind', 'items.*.chat', 'items.*.email', 'destination'] },
  { method: 'PUT', path: `${P}/me/notifications/`, body: { destination: { type: 'dm' } } },
  {
    method: 'POST', path: `${P}/notification-routes/`, capture: { chatRoute: 'uuid' },
    body: { name: 'Completions', channel: { external_id: '{slack}' }, kinds: ['task.created'], scope: { type: 'boards', uuids: ['{board}'] }, enabled: true },
    reads: ['name'],
  },
  { method: 'PATCH', path: `${P}/notification-routes/{chatRoute}/`, body: { scope: { type: 'all', uuids: [] }, enabled: false } },
  { method: 'POST', path: `${P}/notification-routes/{chatRoute}/send-test/`, query: 'dry_run=true', reads: ['dry_run', 'channel.name', 'channel.external_id'] },
  { method: 'POST', path: `${P}/notification-routes/{chatRoute}/send-test/`, reads: ['sent'] },
  {
    method: 'POST', path: `${P}/reports/`, capture: { chatReport: 'uuid' },
    body: { name: 'Standup', kind: 'daily', weekdays: [1, 2, 3, 4, 5], time: '09:00', channel: { external_id: '{slack}' }, scope: { type: 'projects', uuids: ['{project}'] } },
    reads: ['name'],
  },
  { method: 'POST', path: `${P}/reports/{chatReport}/send-test/`, query: 'dry_run=true', reads: ['dry_run', 'channel.name', 'channel.external_id'] },
  { method: 'PATCH', path: `${P}/reports/{chatReport}/`, body: { channel: null, email_recipients: ['{admin}'] } },
];

/** The later version's removals, made with the earlier ones. */
export const LATER_REMOVALS: ClientCall[] = [
  { method: 'DELETE', path: `${P}/boards/{board}/attachments/{boardFile}/` },
  { method: 'DELETE', path: `${P}/views/{boardView}/` },
  { method: 'DELETE', path: `${P}/notification-routes/{chatRoute}/` },
  { method: 'DELETE', path: `${P}/reports/{chatReport}/` },
];
