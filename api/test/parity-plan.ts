import { notify } from '../src/features/plan/notifications/notify.ts';
import { encodeForm, form } from './files.ts';
import type { TestApp } from './harness.ts';
import type { ParityRequest } from './parity.ts';

/**
 * The parity test's Plan work on top of the seeded goal, project, board and task (test/parity.test.ts): comments,
 * task files, views, favorites, the inbox, notification routes, reports, files and reactions.
 */
export async function seedPlanWork(t: TestApp, key: string, ids: Record<string, string>, people: { organization: string; admin: string; mia: string; miaKey: string; otto: string }): Promise<Record<string, string>> {
  const post = async (path: string, body: unknown, as = key) => {
    const res = await t.request('POST', `/v1/plan${path}`, { key: as, body, headers: { 'if-match': '*' } });
    if (res.status >= 300) throw new Error(`seeding ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const upload = async (path: string) => {
    const { raw, contentType } = await encodeForm(form({ name: 'notes.md', type: 'text/markdown', bytes: Buffer.from('# Notes\n') }));
    const res = await t.request('POST', `/v1/plan${path}`, { key, raw, headers: { 'content-type': contentType } });
    if (res.status !== 201) throw new Error(`seeding ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const task = (await t.request('GET', `/v1/plan/tasks/${ids.task}/`, { key })).body;
  const view = await post(`/boards/${ids.board}/views/`, { name: 'Mine', visibility: 'personal', filters: {} });
  const favorite = await post('/me/favorites/', { object_type: 'project', object_uuid: ids.project });
  const report = await post('/reports/', { name: 'Standup', kind: 'daily', email_recipients: ['mia@acme.test'] });
  const route = await post('/notifications/routes/', { kind: 'task.assigned', channel: 'email' });
  const clientRoute = await post('/notification-routes/', { name: 'Mentions', kinds: ['task.mentioned'], channel: { type: 'email' } });
  const subject = { type: 'task' as const, uuid: task.uuid, board: ids.board, project: ids.project, title: task.title, key: task.key };
  const notice = { kind: 'task.assigned', organizationUuid: people.organization, recipients: [people.admin], subject, actor: { uuid: people.mia }, text: 'Mia assigned a task to you' };
  const [notification] = (await notify(t.db, notice, t.clock.now())).inbox;
  const projectFile = await upload(`/projects/${ids.project}/attachments/`);
  const goalFile = await upload(`/goals/${ids.goal}/attachments/`);
  const updateFile = await upload(`/projects/${ids.project}/updates/${ids.update}/attachments/`);
  const milestoneFile = await upload(`/projects/${ids.project}/milestones/${ids.milestone}/attachments/`);
  const boardFile = await upload(`/boards/${ids.board}/attachments/`);
  await post(`/projects/${ids.project}/updates/${ids.update}/reactions/`, { emoji: '👀' }, people.miaKey);
  const comment = await post(`/tasks/${task.uuid}/comments/`, { body: `<@${people.mia}> can you look?` });
  const doomedComment = await post(`/tasks/${task.uuid}/comments/`, { body: 'Old news' });
  const commentFile = await upload(`/tasks/${task.uuid}/comments/${comment.uuid}/attachments/`);
  await post(`/tasks/${task.uuid}/comments/${comment.uuid}/reactions/`, { emoji: '👀' }, people.miaKey);
  // A task's file, uploaded (not yet confirmed: the steps confirm it) and another one ready.
  const presign = async () => {
    const presigned = await post(`/tasks/${task.uuid}/attachments/presign/`, { filename: 'notes.md', content_type: 'text/markdown', size: 8 });
    const put = await t.request('PUT', presigned.upload_url.replace(t.url, ''), { raw: Buffer.from('# Notes\n'), headers: { 'content-type': 'text/markdown' } });
    if (put.status !== 200) throw new Error(`seeding a task file: ${put.status} ${put.text}`);
    return presigned.attachment_uuid as string;
  };
  const uploadedTaskFile = await presign();
  const taskFile = await presign();
  await post(`/tasks/${task.uuid}/attachments/${taskFile}/confirm/`, {});
  return {
    comment: comment.uuid, doomedComment: doomedComment.uuid, commentFile: commentFile.uuid, uploadedTaskFile, taskFile,
    view: view.uuid, favorite: favorite.uuid, report: report.uuid, route: route.uuid, clientRoute: clientRoute.uuid, notification,
    projectFile: projectFile.uuid, goalFile: goalFile.uuid, updateFile: updateFile.uuid, milestoneFile: milestoneFile.uuid, boardFile: boardFile.uuid,
  };
}

/** Every comment, task file, view, favorite, inbox, route, report, file and reaction operation once; destructive ones last. */
export async function planWorkSteps(ids: Record<string, string>): Promise<ParityRequest[]> {
  const p = '/v1/plan';
  const task = `${p}/tasks/${ids.task}`;
  const board = `${p}/boards/${ids.board}`;
  const project = `${p}/projects/${ids.project}`;
  const update = `${project}/updates/${ids.update}`;
  const comment = `${task}/comments/${ids.comment}`;
  const files = [
    [`${project}/attachments/`, ids.projectFile],
    [`${p}/goals/${ids.goal}/attachments/`, ids.goalFile],
    [`${update}/attachments/`, ids.updateFile],
    [`${comment}/attachments/`, ids.commentFile],
    [`${project}/milestones/${ids.milestone}/attachments/`, ids.milestoneFile],
    [`${board}/attachments/`, ids.boardFile],
  ];
  const routes = [`${p}/notifications/routes/`, `${p}/notification-routes/`];
  const milestone = `${project}/milestones/${ids.milestone}`;
  const { raw, contentType } = await encodeForm(form({ name: 'plan.txt', type: 'text/plain', bytes: Buffer.from('Ship on Friday.\n') }));
  const anyVersion = { 'if-match': '*' };
  return [
    { method: 'GET', path: `${board}/views/` },
    { method: 'POST', path: `${board}/views/`, body: { name: 'Bugs', visibility: 'personal', filters: { label: [ids.label] } }, headers: anyVersion },
    { method: 'GET', path: `${project}/views/` },
    { method: 'POST', path: `${project}/views/`, body: { name: 'Launch work', visibility: 'personal' }, headers: anyVersion },
    { method: 'GET', path: `${p}/views/${ids.view}/` },
    { method: 'PUT', path: `${p}/views/${ids.view}/`, body: { name: 'Mine, newest first', visibility: 'personal', filters: {}, sort: '-created_at' }, headers: anyVersion },
    { method: 'PATCH', path: `${p}/views/${ids.view}/`, body: { name: 'Mine' }, headers: anyVersion },
    { method: 'GET', path: `${p}/me/favorites/` },
    { method: 'POST', path: `${p}/me/favorites/`, body: { object_type: 'board', object_uuid: ids.board } },
    { method: 'GET', path: `${p}/inbox/` },
    { method: 'GET', path: `${p}/inbox/summary/` },
    { method: 'POST', path: `${p}/inbox/${ids.notification}/read/` },
    { method: 'POST', path: `${p}/inbox/${ids.notification}/unread/` },
    { method: 'POST', path: `${p}/inbox/read-all/` },
    { method: 'GET', path: `${p}/notifications/routes/` },
    { method: 'POST', path: `${p}/notifications/routes/`, body: { kind: 'task.mentioned', channel: 'email' } },
    { method: 'GET', path: `${p}/notifications/routes/${ids.route}/` },
    { method: 'PATCH', path: `${p}/notifications/routes/${ids.route}/`, body: { kind: 'task.due' } },
    { method: 'GET', path: `${p}/reports/` },
    { method: 'POST', path: `${p}/reports/`, body: { name: 'Week ahead', kind: 'week_start', email_recipients: ['mia@acme.test'] } },
    { method: 'GET', path: `${p}/reports/${ids.report}/` },
    { method: 'PATCH', path: `${p}/reports/${ids.report}/`, body: { time: '08:30' } },
    { method: 'GET', path: `${p}/reports/${ids.report}/preview/` },
    { method: 'POST', path: `${p}/reports/${ids.report}/run/` },
    ...files.flatMap(([base, file]): ParityRequest[] => [
      { method: 'GET', path: base },
      { method: 'POST', path: base, raw, headers: { 'content-type': contentType } },
      { method: 'GET', path: `${base}${file}/` },
      { method: 'GET', path: `${base}${file}/content/` },
      { method: 'PATCH', path: `${base}${file}/`, body: { caption: 'The notes' } },
    ]),
    // The DailyBot client's names and doors.
    { method: 'GET', path: `${p}/notification-routes/` },
    { method: 'POST', path: `${p}/notification-routes/`, body: { name: 'Due', kinds: ['task.due'], channel: { type: 'email' }, enabled: false } },
    { method: 'GET', path: `${p}/notification-routes/${ids.clientRoute}/` },
    { method: 'PATCH', path: `${p}/notification-routes/${ids.clientRoute}/`, body: { name: 'Mentions of me' } },
    ...routes.flatMap((base): ParityRequest[] => [
      { method: 'POST', path: `${base}${ids.route}/send-test/?dry_run=true` },
      { method: 'GET', path: `${base}${ids.route}/deliveries/` },
    ]),
    { method: 'GET', path: `${p}/reports/${ids.report}/runs/` },
    { method: 'POST', path: `${p}/reports/${ids.report}/send-test/?dry_run=true` },
    // The later client's doors: organization labels, the grouped task board, workspace views, board and project order.
    { method: 'GET', path: `${p}/labels/?search=bu` },
    { method: 'POST', path: `${p}/labels/`, body: { name: 'needs design', color: '#8b5cf6' } },
    { method: 'GET', path: `${p}/tasks/board/?board=${ids.board}&group_by=state&sub_group_by=priority` },
    { method: 'GET', path: `${p}/views/workspace/` },
    { method: 'PUT', path: `${p}/views/workspace/`, body: [{ name: 'Everything mine', view_mode: 'kanban', filters: { owner: 'me' } }], headers: anyVersion },
    { method: 'GET', path: `${board}/move-preview/?project=${ids.spareProject}` },
    { method: 'POST', path: `${p}/boards/${ids.doomedBoard}/reorder/`, body: { project: ids.project } },
    { method: 'POST', path: `${p}/projects/${ids.spareProject}/reorder/`, body: { before: ids.project } },
    { method: 'GET', path: `${p}/inbox/unread-count/?mentioned=false` },
    { method: 'GET', path: `${p}/projects/updates/` },
    { method: 'GET', path: `${p}/milestones/` },
    { method: 'POST', path: `${milestone}/complete/` },
    { method: 'POST', path: `${milestone}/reopen/` },
    { method: 'POST', path: `${milestone}/archive/` },
    { method: 'POST', path: `${milestone}/restore/` },
    { method: 'GET', path: `${p}/labels/${ids.label}/` },
    { method: 'PATCH', path: `${p}/labels/${ids.label}/`, body: { color: '#336699' } },
    { method: 'DELETE', path: `${p}/labels/${ids.label}/?dry_run=true` },
    { method: 'POST', path: `${task}/subscription/` },
    { method: 'DELETE', path: `${task}/subscription/` },
    { method: 'POST', path: `${task}/attachments/`, raw, headers: { 'content-type': contentType } },
    { method: 'PATCH', path: `${task}/attachments/${ids.taskFile}/`, body: { filename: 'trace-1.txt' } },
    { method: 'GET', path: `${p}/attachments/resolve/?ids=${ids.projectFile},${ids.goalFile}` },
    { method: 'GET', path: `${p}/me/activity-cursor/` },
    { method: 'PUT', path: `${p}/me/activity-cursor/`, body: { last_seen_at: '2026-03-10T10:00:00Z' } },
    { method: 'POST', path: `${board}/visit/` },
    { method: 'GET', path: `${p}/me/recents/` },
    { method: 'GET', path: `${p}/me/tasks/counts/` },
    { method: 'GET', path: `${p}/me/briefing/` },
    { method: 'PUT', path: `${p}/me/briefing/`, body: { enabled: true, time: '07:30' } },
    { method: 'GET', path: `${p}/me/briefing/preview/` },
    { method: 'POST', path: `${p}/me/briefing/send-test/?dry_run=true` },
    { method: 'GET', path: `${p}/me/notifications/` },
    { method: 'PUT', path: `${p}/me/notifications/`, body: { items: [{ kind: 'comment.reaction', enabled: true }] } },
    { method: 'PUT', path: `${board}/views/`, body: [{ uuid: ids.view, name: 'Mine' }, { name: 'Everything', view_mode: 'table' }], headers: anyVersion },
    { method: 'PUT', path: `${project}/views/`, body: [{ name: 'Roadmap', view_mode: 'timeline' }], headers: anyVersion },
    { method: 'GET', path: `${task}/comments/` },
    { method: 'POST', path: `${task}/comments/`, body: { body: 'Reproduced on staging.', parent: ids.comment } },
    { method: 'GET', path: `${comment}/` },
    { method: 'PATCH', path: `${comment}/`, body: { body: `<@${ids.mia}> can you look today?` } },
    { method: 'GET', path: `${comment}/reactions/` },
    { method: 'POST', path: `${comment}/reactions/`, body: { emoji: '👍' } },
    { method: 'DELETE', path: `${comment}/reactions/${encodeURIComponent('👍')}/` },
    { method: 'GET', path: `${task}/attachments/` },
    // The upload URL's token is new in each app.
    { method: 'POST', path: `${task}/attachments/presign/`, body: { filename: 'trace.txt', content_type: 'text/plain', size: 100 }, differs: ['upload_url'] },
    { method: 'POST', path: `${task}/attachments/${ids.uploadedTaskFile}/confirm/` },
    { method: 'GET', path: `${task}/attachments/${ids.taskFile}/` },
    { method: 'GET', path: `${task}/attachments/${ids.taskFile}/content/` },
    { method: 'GET', path: `${update}/reactions/` },
    { method: 'POST', path: `${update}/reactions/`, body: { emoji: '🚀' } },
    { method: 'DELETE', path: `${update}/reactions/${encodeURIComponent('🚀')}/?dry_run=true` },
    { method: 'DELETE', path: `${update}/reactions/${encodeURIComponent('🚀')}/` },
    ...files.map(([base, file]): ParityRequest => ({ method: 'DELETE', path: `${base}${file}/` })),
    { method: 'DELETE', path: `${task}/attachments/${ids.taskFile}/?dry_run=true` },
    { method: 'DELETE', path: `${task}/attachments/${ids.taskFile}/` },
    { method: 'DELETE', path: `${task}/comments/${ids.doomedComment}/` },
    { method: 'DELETE', path: `${p}/reports/${ids.report}/` },
    { method: 'DELETE', path: `${p}/notifications/routes/${ids.route}/` },
    { method: 'DELETE', path: `${p}/notification-routes/${ids.clientRoute}/` },
    { method: 'DELETE', path: `${p}/me/favorites/${ids.favorite}/` },
    { method: 'DELETE', path: `${p}/views/${ids.view}/`, headers: anyVersion },
  ];
}
