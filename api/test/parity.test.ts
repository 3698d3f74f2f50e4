import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey } from '../src/features/api-keys/service.ts';
import { setExchangeCommand } from '../src/admin/commands.ts';
import { matrixRowOf } from '../src/auth/method-matrix.ts';
import type { TestApp } from './harness.ts';
import { startParityPair } from './parity.ts';
import { planWorkSteps, seedPlanWork } from './parity-plan.ts';
import type { ParityRequest, ParityWorld } from './parity.ts';

/** One organization with something behind every endpoint; the compared key and token are fresh (no budget used). */
async function seed(t: TestApp): Promise<ParityWorld> {
  const acme = await t.seedOrganization({ plan: 'enterprise', beta: true });
  const key = acme.adminKey;
  const now = t.clock.now();
  const compared = await issueKey(t.db, { organizationUuid: acme.org.uuid, ownerUuid: acme.admin.uuid, kind: 'personal', name: 'compared' }, now);
  const token = await t.seedToken(acme.org.uuid, acme.admin.uuid);
  const spare = await issueKey(t.db, { organizationUuid: acme.org.uuid, ownerUuid: acme.admin.uuid, kind: 'personal', name: 'spare' }, now);
  const doomed = await issueKey(t.db, { organizationUuid: acme.org.uuid, ownerUuid: acme.admin.uuid, kind: 'personal', name: 'doomed' }, now);
  await setExchangeCommand(t.db, t.clock, acme.org.uuid, 'on');
  const mia = await t.seedUser(acme.org.uuid, { email: 'mia@acme.test', firstName: 'Mia' });
  const otto = await t.seedUser(acme.org.uuid, { email: 'otto@acme.test', firstName: 'Otto' });
  const post = async (path: string, body: unknown) => (await t.request('POST', path, { key, body })).body;
  const core = await post('/v1/teams/', { name: 'Core' });
  await post(`/v1/teams/${core.uuid}/member/`, { members: [{ uuid: mia.user.uuid }] });
  const old = await post('/v1/teams/', { name: 'Old' });
  const checkin = (name: string) =>
    post('/v1/checkins/create/', {
      name, schedule: { days: [0, 1, 2, 3, 4, 5, 6], time: '09:00', timezone: 'UTC' }, participants: { user_uuids: [acme.admin.uuid, mia.user.uuid] },
      questions: [{ question_type: 'text', question: 'Done?' }, { question_type: 'text', question: 'Next?' }, { question_type: 'text', question: 'Blockers?', is_blocker: true, required: false }],
    });
  const daily = await checkin('Daily');
  const weekly = await checkin('Weekly');
  const questions = async (uuid: string) => (await t.request('GET', `/v1/checkins/${uuid}/detail/`, { key })).body.questions.map((q: { uuid: string }) => q.uuid);
  const [dq1, dq2, dq3] = await questions(daily.uuid);
  const [wq1, wq2, wq3] = await questions(weekly.uuid);
  // A blocker to list and resolve (issue 36), on a check-in of its own, and the answers insights count.
  const blocked = await checkin('Blocked');
  const [bq1, bq2, bq3] = await questions(blocked.uuid);
  await post(`/v1/checkins/${blocked.uuid}/responses/`, { responses: [{ uuid: bq1, response: 'Shipped' }, { uuid: bq2, response: 'Docs' }, { uuid: bq3, response: 'Waiting on review' }] });
  const blocker = (await t.request('GET', `/v1/checkins/${blocked.uuid}/blockers/?state=open`, { key })).body.results[0];
  const templates = await t.request('GET', '/v1/templates/', { key });
  await post('/v1/agent-health/', { agent_name: 'deploy-bot', ok: true });
  const message = await post('/v1/agent-messages/', { agent_name: 'deploy-bot', content: 'Deploy when green' });
  await post('/v1/invite-user/', { email: 'invited@acme.test' });
  const delivery = (await t.request('GET', '/v1/deliveries/', { key })).body.results[0];
  const revocable = await post('/v1/invite-user/', { email: 'revocable@acme.test' });
  const hook = await post('/v1/webhook-subscription/', { hook_url: 'https://hooks.acme.test/old', subscriptions: ['kudos.posted'], secret: 'a-fixed-secret' });
  const value = await post('/v1/company-values/', { value: 'Ownership', emoji: '🦉' });
  const doomedValue = await post('/v1/company-values/', { value: 'Retired' });
  const kudos = (await t.request('POST', '/v1/kudos/', { key: mia.key, body: { content: 'Thanks for the release', receivers: [otto.user.uuid], company_value: value.uuid } })).body;
  const form = await post('/v1/forms/create/', {
    name: 'Expenses', form_type: 'approval', questions: [{ question_type: 'text', question: 'What for?' }, { question_type: 'text', question: 'How much?' }],
    states: [{ name: 'Open', is_initial: true }, { name: 'Approved', is_final: true }], transitions: [{ from_state: 'Open', to_state: 'Approved', roles: ['admin'] }],
  });
  const [fq1, fq2] = (await t.request('GET', `/v1/forms/${form.uuid}/?include=questions`, { key })).body.questions.map((q: { uuid: string }) => q.uuid);
  const answer = { responses: [{ uuid: fq1, response: 'Train' }, { uuid: fq2, response: '42' }] };
  const formResponse = await post(`/v1/forms/${form.uuid}/responses/`, answer);
  const doomedResponse = await post(`/v1/forms/${form.uuid}/responses/`, answer);
  const workflow = await post('/v1/workflows/', { name: 'Notify', trigger_type: 'api_trigger', actions: [{ type: 'send_email', to: ['ops@acme.test'], subject: 'Run', body_html: '<p>{{payload.what}}</p>' }] });
  const doomedWorkflow = await post('/v1/workflows/', { name: 'Old', trigger_type: 'api_trigger', actions: [{ type: 'send_email', to: ['ops@acme.test'], subject: 'x', body_html: 'x' }] });
  await post(`/v1/workflows/${workflow.uuid}/trigger/`, { payload: { what: 'seed' } });
  const run = (await t.request('GET', `/v1/workflows/${workflow.uuid}/runs/`, { key })).body.results[0];
  const plan = await seedPlan(t, key, mia.user.uuid, otto.user.uuid);
  const work = await seedPlanWork(t, key, plan, { organization: acme.org.uuid, admin: acme.admin.uuid, mia: mia.user.uuid, miaKey: mia.key, otto: otto.user.uuid });
  return {
    key: compared.secret,
    token,
    ids: {
      admin: acme.admin.uuid, mia: mia.user.uuid, otto: otto.user.uuid, core: core.uuid, old: old.uuid, spare: spare.uuid, doomed: doomed.uuid,
      daily: daily.uuid, dq1, dq2, dq3, weekly: weekly.uuid, wq1, wq2, wq3, blocked: blocked.uuid, blocker: blocker.uuid,
      template: (templates.body.results ?? templates.body)[0].uuid, message: message.uuid, delivery: delivery.uuid, hook: hook.hook_id,
      value: value.uuid, doomedValue: doomedValue.uuid, kudos: kudos.uuid, form: form.uuid, fq1, fq2, formResponse: formResponse.uuid,
      doomedResponse: doomedResponse.uuid, workflow: workflow.uuid, doomedWorkflow: doomedWorkflow.uuid, run: run.uuid, invitation: revocable.uuid,
      ...plan,
      ...work,
    },
  };
}

/** A goal with a project, a board with its states and a label, members, a milestone and an update: every Plan resource. */
async function seedPlan(t: TestApp, key: string, mia: string, otto: string): Promise<Record<string, string>> {
  const post = async (path: string, body: unknown) => {
    const res = await t.request('POST', `/v1/plan${path}`, { key, body });
    if (res.status >= 300) throw new Error(`seeding ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const goal = await post('/goals/', { name: 'Ship the beta' });
  const doomedGoal = await post('/goals/', { name: 'Old goal' });
  const project = await post('/projects/', { name: 'Launch', goal: goal.uuid });
  const spareProject = await post('/projects/', { name: 'Marketing site' });
  const doomedProject = await post('/projects/', { name: 'Old project' });
  const board = await post('/boards/', { name: 'Platform', key: 'PLAT', project: project.uuid });
  const doomedBoard = await post('/boards/', { name: 'Old board', key: 'OLD' });
  const states = (await t.request('GET', `/v1/plan/boards/${board.uuid}/states/`, { key })).body.results as { uuid: string; category: string }[];
  const review = await post(`/boards/${board.uuid}/states/`, { name: 'In Review', category: 'in_progress' });
  const label = await post(`/boards/${board.uuid}/labels/`, { name: 'bug', color: '#E5484D' });
  const doomedLabel = await post(`/boards/${board.uuid}/labels/`, { name: 'old' });
  await post(`/boards/${board.uuid}/members/`, { user: mia });
  await post(`/projects/${project.uuid}/members/`, { user: mia });
  const milestone = await post(`/projects/${project.uuid}/milestones/`, { name: 'Beta', target_date: '2026-04-01' });
  const update = await post(`/projects/${project.uuid}/updates/`, { body: 'Beta build is green.', health: 'on_track' });
  const todo = states.find((st) => st.category === 'todo')!.uuid;
  const task = await post(`/boards/${board.uuid}/tasks/`, { title: 'Write the release notes', state: todo, owner: mia, due_date: '2026-03-20' });
  const otherTask = await post(`/boards/${board.uuid}/tasks/`, { title: 'Tag the release', state: todo });
  const doomedTask = await post(`/boards/${board.uuid}/tasks/`, { title: 'Old task', state: todo });
  const relation = await post(`/tasks/${task.key}/relations/`, { relation_type: 'relates_to', target_task: doomedTask.key });
  await post(`/tasks/${task.key}/participants/`, { user: otto });
  const cursor = (await t.request('GET', `/v1/plan/boards/${board.uuid}/board/`, { key })).body.delta_cursor as string;
  return {
    goal: goal.uuid, doomedGoal: doomedGoal.uuid, project: project.uuid, spareProject: spareProject.uuid, doomedProject: doomedProject.uuid,
    board: board.uuid, doomedBoard: doomedBoard.uuid, review: review.uuid, label: label.uuid, doomedLabel: doomedLabel.uuid,
    milestone: milestone.uuid, update: update.uuid, stateOrder: JSON.stringify([review.uuid, ...states.map((st) => st.uuid)]),
    todo, task: task.key, otherTask: otherTask.key, doomedTask: doomedTask.key, relation: relation.uuid, cursor,
  };
}

/** Every Plan operation, once each; destructive ones last. */
function planSteps(ids: Record<string, string>): ParityRequest[] {
  const p = '/v1/plan';
  const board = `${p}/boards/${ids.board}`;
  const project = `${p}/projects/${ids.project}`;
  const goal = `${p}/goals/${ids.goal}`;
  return [
    { method: 'GET', path: `${p}/entitlements/` },
    { method: 'GET', path: `${p}/channels/?type=channel` },
    { method: 'GET', path: `${p}/notifications/catalog/` },
    { method: 'GET', path: `${p}/goals/` },
    { method: 'POST', path: `${p}/goals/`, body: { name: 'Grow usage' } },
    { method: 'GET', path: `${goal}/` },
    { method: 'PATCH', path: `${goal}/`, body: { description: 'By the end of the quarter' } },
    { method: 'GET', path: `${goal}/projects/` },
    { method: 'POST', path: `${goal}/projects/`, body: { project: ids.spareProject } },
    { method: 'DELETE', path: `${goal}/projects/${ids.spareProject}/` },
    { method: 'POST', path: `${goal}/archive/` },
    { method: 'POST', path: `${goal}/restore/` },
    { method: 'GET', path: `${p}/projects/` },
    { method: 'POST', path: `${p}/projects/`, body: { name: 'Docs', goal: ids.goal } },
    { method: 'GET', path: `${project}/` },
    { method: 'PATCH', path: `${project}/`, body: { description: 'The public launch' } },
    { method: 'POST', path: `${p}/projects/${ids.spareProject}/archive/` },
    { method: 'POST', path: `${p}/projects/${ids.spareProject}/restore/` },
    { method: 'GET', path: `${project}/milestones/` },
    { method: 'POST', path: `${project}/milestones/`, body: { name: 'GA', target_date: '2026-06-01' } },
    { method: 'GET', path: `${project}/milestones/${ids.milestone}/` },
    { method: 'PATCH', path: `${project}/milestones/${ids.milestone}/`, body: { target_date: '2026-04-15' } },
    { method: 'GET', path: `${project}/updates/` },
    { method: 'POST', path: `${project}/updates/`, body: { body: 'Docs are late.', health: 'at_risk' } },
    { method: 'GET', path: `${project}/updates/${ids.update}/` },
    { method: 'PATCH', path: `${project}/updates/${ids.update}/`, body: { body: 'Beta build is green again.' } },
    { method: 'GET', path: `${project}/members/` },
    { method: 'POST', path: `${project}/members/`, body: { user: ids.otto } },
    { method: 'PATCH', path: `${project}/members/${ids.mia}/`, body: { role: 'manager' } },
    { method: 'GET', path: `${project}/mentionables/` },
    { method: 'GET', path: `${p}/boards/` },
    { method: 'POST', path: `${p}/boards/`, body: { name: 'Docs', key: 'DOCS' } },
    { method: 'GET', path: `${board}/` },
    { method: 'PATCH', path: `${board}/`, body: { name: 'Platform team' } },
    { method: 'GET', path: `${board}/members/` },
    { method: 'POST', path: `${board}/members/`, body: { user: ids.otto, role: 'member' } },
    { method: 'PATCH', path: `${board}/members/${ids.mia}/`, body: { role: 'manager' } },
    { method: 'GET', path: `${board}/mentionables/` },
    { method: 'GET', path: `${board}/board/` },
    { method: 'GET', path: `${board}/delta/?cursor=${ids.cursor}` },
    { method: 'GET', path: `${p}/search/?q=release` },
    { method: 'GET', path: `${p}/activity/?page_size=5` },
    { method: 'GET', path: `${p}/pulse/` },
    { method: 'GET', path: `${p}/timeline/?start_date=2026-03-01` },
    { method: 'GET', path: `${board}/states/` },
    { method: 'POST', path: `${board}/states/reorder/`, body: { order: JSON.parse(ids.stateOrder) } },
    { method: 'POST', path: `${board}/states/`, body: { name: 'Blocked', category: 'in_progress', color: '#F5A524' } },
    { method: 'GET', path: `${board}/states/${ids.review}/` },
    { method: 'PATCH', path: `${board}/states/${ids.review}/`, body: { name: 'Review' } },
    { method: 'POST', path: `${board}/states/${ids.review}/archive/`, body: { migrate_to: ids.todo } },
    { method: 'POST', path: `${board}/states/${ids.review}/restore/` },
    { method: 'GET', path: `${board}/labels/` },
    { method: 'POST', path: `${board}/labels/`, body: { name: 'feature' } },
    { method: 'GET', path: `${board}/labels/${ids.label}/` },
    { method: 'PATCH', path: `${board}/labels/${ids.label}/`, body: { color: '#000000' } },
    { method: 'POST', path: `${board}/labels/${ids.label}/archive/` },
    { method: 'POST', path: `${board}/labels/${ids.label}/restore/` },
    ...taskSteps(ids),
    { method: 'DELETE', path: `${board}/labels/${ids.doomedLabel}/?dry_run=true` },
    { method: 'DELETE', path: `${board}/labels/${ids.doomedLabel}/` },
    { method: 'DELETE', path: `${board}/states/${ids.review}/`, body: { migrate_to: ids.todo } },
    { method: 'DELETE', path: `${board}/members/${ids.otto}/` },
    { method: 'DELETE', path: `${project}/members/${ids.otto}/` },
    { method: 'DELETE', path: `${project}/updates/${ids.update}/` },
    { method: 'DELETE', path: `${project}/milestones/${ids.milestone}/` },
    { method: 'POST', path: `${p}/boards/${ids.doomedBoard}/archive/` },
    { method: 'POST', path: `${p}/boards/${ids.doomedBoard}/restore/` },
    { method: 'DELETE', path: `${p}/boards/${ids.doomedBoard}/` },
    { method: 'DELETE', path: `${p}/projects/${ids.doomedProject}/` },
    { method: 'DELETE', path: `${p}/goals/${ids.doomedGoal}/` },
  ];
}

/** Every task operation, on tasks of the seeded board; destructive ones last. */
function taskSteps(ids: Record<string, string>): ParityRequest[] {
  const p = '/v1/plan';
  const task = `${p}/tasks/${ids.task}`;
  return [
    { method: 'GET', path: `${p}/tasks/?board=${ids.board}` },
    { method: 'GET', path: `${p}/boards/${ids.board}/tasks/` },
    { method: 'GET', path: `${p}/me/tasks/` },
    { method: 'POST', path: `${p}/tasks/`, body: { board: ids.board, title: 'Draft the announcement' } },
    { method: 'POST', path: `${p}/boards/${ids.board}/tasks/`, body: { title: 'Update the docs', priority: 2 } },
    { method: 'GET', path: `${task}/` },
    { method: 'PATCH', path: `${task}/`, body: { title: 'Write and publish the release notes' } },
    { method: 'POST', path: `${task}/move/`, body: { state: ids.todo, after: ids.otherTask } },
    { method: 'POST', path: `${task}/children/`, body: { title: 'Collect the changes' } },
    { method: 'GET', path: `${task}/children/` },
    { method: 'POST', path: `${task}/labels/batch/`, body: { mode: 'add', labels: [ids.label] } },
    { method: 'POST', path: `${task}/relations/`, body: { relation_type: 'blocks', target_task: ids.otherTask } },
    { method: 'GET', path: `${task}/relations/` },
    { method: 'POST', path: `${task}/participants/`, body: { user: ids.mia } },
    { method: 'GET', path: `${task}/participants/` },
    { method: 'PUT', path: `${task}/subscription/`, body: { subscribed: false } },
    { method: 'GET', path: `${task}/subscription/` },
    { method: 'POST', path: `${task}/duplicate/`, body: { title: 'Write the release notes again' } },
    { method: 'GET', path: `${task}/events/` },
    { method: 'GET', path: `${task}/activity/` },
    { method: 'POST', path: `${p}/tasks/bulk/`, headers: { 'Idempotency-Key': 'parity-bulk-0001' }, body: { operation: 'update', items: [{ task: ids.otherTask, priority: 3 }] } },
    { method: 'POST', path: `${task}/archive/` },
    { method: 'POST', path: `${task}/restore/` },
    { method: 'POST', path: `${p}/tasks/${ids.otherTask}/move-board/`, body: { board: ids.doomedBoard } },
    { method: 'DELETE', path: `${task}/relations/${ids.relation}/` },
    { method: 'DELETE', path: `${task}/participants/${ids.otto}/` },
    { method: 'DELETE', path: `${p}/tasks/${ids.doomedTask}/` },
  ];
}

/** Every check-in operation on one check-in, under /v1/checkins/ or its alias /v1/followups/. */
function checkinSteps(base: string, c: string, [q1, q2, q3]: string[]): ParityRequest[] {
  const responses = [{ uuid: q1, response: 'Shipped' }, { uuid: q2, response: 'Docs' }, { uuid: q3, response: '' }];
  return [
    { method: 'GET', path: `${base}/?include_summary=true&include_pending_users=true&page_size=1` },
    { method: 'GET', path: `${base}/${c}/` },
    { method: 'GET', path: `${base}/${c}/detail/` },
    { method: 'POST', path: `${base}/create/`, body: { name: `New from ${base}`, schedule: { days: [1], time: '10:00', timezone: 'UTC' } } },
    { method: 'PATCH', path: `${base}/${c}/config/`, body: { name: 'Renamed', allow_past_responses: true } },
    { method: 'PUT', path: `${base}/${c}/questions/reorder/`, body: { question_uuids: [q2, q1, q3] } },
    { method: 'POST', path: `${base}/${c}/questions/`, body: { question_type: 'text', question: 'Anything else?' } },
    { method: 'PATCH', path: `${base}/${c}/questions/${q1}/`, body: { question: 'What did you finish?' } },
    { method: 'POST', path: `${base}/${c}/responses/`, body: { responses } },
    { method: 'PUT', path: `${base}/${c}/responses/`, body: { responses: [{ uuid: q3, response: 'Waiting on review' }] } },
    { method: 'GET', path: `${base}/${c}/responses/?page_size=1` },
    { method: 'DELETE', path: `${base}/${c}/responses/` },
    // The check-in loop's routes are under /v1/checkins/ only.
    ...(base === '/v1/checkins' ? [{ method: 'GET', path: `${base}/${c}/runs/` }, { method: 'POST', path: `${base}/${c}/answer-link/` }] : []),
    { method: 'DELETE', path: `${base}/${c}/questions/${q3}/delete/` },
    { method: 'DELETE', path: `${base}/${c}/archive/` },
  ];
}

/** A check-in's blockers (listed, resolved, resolved again: unchanged), its insights and answers as CSV, a team's insights. */
function insightSteps(ids: Record<string, string>): ParityRequest[] {
  return ['/v1/checkins', '/v1/followups'].flatMap((base) => [
    { method: 'GET', path: `${base}/${ids.blocked}/blockers/?state=open` },
    { method: 'POST', path: `${base}/${ids.blocked}/blockers/${ids.blocker}/resolve/` },
    { method: 'GET', path: `${base}/${ids.blocked}/insights/` },
    { method: 'GET', path: `${base}/${ids.blocked}/responses/export/` },
  ]).concat([{ method: 'GET', path: `/v1/teams/${ids.core}/insights/` }]);
}

/** Kudos and company values, forms and their responses, workflows and their runs. */
function teamFeatureSteps(ids: Record<string, string>): ParityRequest[] {
  const form = `/v1/forms/${ids.form}`;
  const workflow = `/v1/workflows/${ids.workflow}`;
  return [
    { method: 'GET', path: '/v1/company-values/' },
    { method: 'POST', path: '/v1/company-values/', body: { value: 'Curiosity', emoji: '🔭' } },
    { method: 'GET', path: `/v1/company-values/${ids.value}/` },
    { method: 'PATCH', path: `/v1/company-values/${ids.value}/`, body: { description: 'We own our work' } },
    { method: 'DELETE', path: `/v1/company-values/${ids.doomedValue}/` },
    { method: 'POST', path: '/v1/kudos/', body: { content: 'Great pairing', users_receivers: [ids.mia, ids.otto], company_value: ids.value } },
    { method: 'GET', path: '/v1/kudos/?filter=kudos_given&page_size=1' },
    { method: 'GET', path: `/v1/kudos/${ids.kudos}/` },
    { method: 'POST', path: `/v1/kudos/${ids.kudos}/boost/` },
    { method: 'GET', path: '/v1/kudos/organization/' },
    { method: 'GET', path: '/v1/kudos/timeline/' },
    { method: 'GET', path: '/v1/kudos/wall-of-fame/?period=month' },
    { method: 'GET', path: '/v1/kudos/settings/' },
    { method: 'PATCH', path: '/v1/kudos/settings/', body: { daily_limit: 12 } },
    { method: 'GET', path: '/v1/forms/?include=questions' },
    { method: 'GET', path: '/v1/forms/form-owners/' },
    { method: 'POST', path: '/v1/forms/create/', body: { name: 'Leave', questions: [{ question_type: 'text', question: 'When?' }] } },
    { method: 'GET', path: `${form}/` },
    { method: 'PATCH', path: `${form}/config/`, body: { description: 'Travel and meals' } },
    { method: 'PUT', path: `${form}/questions/reorder/`, body: { question_uuids: [ids.fq2, ids.fq1] } },
    { method: 'POST', path: `${form}/questions/`, body: { question_type: 'text', question: 'Receipt number?', required: false } },
    { method: 'PATCH', path: `${form}/questions/${ids.fq1}/`, body: { question: 'What was it for?' } },
    { method: 'POST', path: `${form}/responses/`, body: { responses: [{ uuid: ids.fq1, response: 'Taxi' }, { uuid: ids.fq2, response: '18' }] } },
    { method: 'GET', path: `${form}/responses/` },
    { method: 'GET', path: `${form}/responses/${ids.formResponse}/` },
    { method: 'PATCH', path: `${form}/responses/${ids.formResponse}/`, body: { responses: [{ uuid: ids.fq2, response: '40' }] } },
    { method: 'POST', path: `${form}/responses/${ids.formResponse}/transition/`, body: { to_state: 'Approved', note: 'Fine' } },
    { method: 'DELETE', path: `${form}/responses/${ids.doomedResponse}/` },
    { method: 'DELETE', path: `${form}/questions/${ids.fq2}/delete/` },
    { method: 'DELETE', path: `${form}/archive/` },
    { method: 'GET', path: '/v1/workflows/' },
    { method: 'POST', path: '/v1/workflows/', body: { name: 'Welcome', trigger_type: 'api_trigger', actions: [{ type: 'send_email', to: ['hr@acme.test'], subject: 'Hi', body_html: 'Hi' }] } },
    { method: 'GET', path: `${workflow}/` },
    { method: 'PATCH', path: `${workflow}/`, body: { description: 'Tells ops' } },
    { method: 'POST', path: `${workflow}/trigger/`, body: { payload: { what: 'parity' } } },
    { method: 'GET', path: `${workflow}/runs/` },
    { method: 'GET', path: `${workflow}/runs/${ids.run}/` },
    { method: 'DELETE', path: `/v1/workflows/${ids.doomedWorkflow}/` },
  ];
}

/** `planWork`: the Plan's task and collaboration steps (test/parity-plan.ts), before the Plan's deletions. */
function steps({ ids }: ParityWorld, planWork: ParityRequest[]): ParityRequest[] {
  const agent = 'deploy-bot';
  // The compared API key's last_used_at moves when the key is used, not when the token is: that is the point.
  const lastUsed = ['results.*.last_used_at'];
  return [
    { method: 'GET', path: '/v1/me/' },
    { method: 'GET', path: '/v1/me/chat-accounts/' },
    // A link token nobody asked for: the same 404 either way.
    { method: 'POST', path: '/v1/me/chat-accounts/', body: { token: 'x'.repeat(32) } },
    { method: 'PATCH', path: '/v1/me/', body: { language: 'pt', holiday_calendar: 'PT', notifications: { reminders: false }, time_off: [{ start: '2026-08-03', end: '2026-08-14' }] } },
    { method: 'GET', path: '/v1/cli/auth/status/' },
    { method: 'GET', path: '/v1/organization/' },
    { method: 'PATCH', path: '/v1/organization/', body: { name: 'Acme Corp', timezone: 'Europe/Madrid' } },
    { method: 'GET', path: '/v1/users/?page_size=2' },
    { method: 'GET', path: `/v1/users/${ids.mia}/?include_email=true` },
    { method: 'PATCH', path: `/v1/users/${ids.mia}/`, body: { occupation: 'Engineer' } },
    { method: 'GET', path: '/v1/teams/' },
    { method: 'POST', path: '/v1/teams/', body: { name: 'Parity' } },
    { method: 'GET', path: `/v1/teams/${ids.core}/` },
    { method: 'PATCH', path: `/v1/teams/${ids.core}/`, body: { name: 'Core team' } },
    { method: 'POST', path: `/v1/teams/${ids.core}/member/`, body: { members: [{ uuid: ids.otto }] } },
    { method: 'GET', path: `/v1/teams/${ids.core}/members/` },
    { method: 'DELETE', path: `/v1/teams/${ids.core}/member/${ids.otto}/` },
    { method: 'DELETE', path: `/v1/teams/${ids.old}/` },
    { method: 'GET', path: '/v1/api-keys/', differs: lastUsed },
    { method: 'POST', path: '/v1/api-keys/', body: { name: 'CI' }, differs: ['key_suffix', 'masked_key'] },
    { method: 'GET', path: `/v1/api-keys/${ids.spare}/` },
    { method: 'PATCH', path: `/v1/api-keys/${ids.spare}/`, body: { regenerate: true }, differs: ['key_suffix', 'masked_key'] },
    { method: 'DELETE', path: `/v1/api-keys/${ids.doomed}/` },
    { method: 'POST', path: '/v1/invite-user/', body: { email: 'new@acme.test', first_name: 'Nia' } },
    { method: 'DELETE', path: `/v1/invitations/${ids.invitation}/` },
    { method: 'GET', path: '/v1/templates/' },
    { method: 'GET', path: `/v1/templates/${ids.template}/` },
    ...checkinSteps('/v1/checkins', ids.daily, [ids.dq1, ids.dq2, ids.dq3]),
    ...checkinSteps('/v1/followups', ids.weekly, [ids.wq1, ids.wq2, ids.wq3]),
    ...insightSteps(ids),
    { method: 'GET', path: '/v1/mood/track/' },
    { method: 'POST', path: '/v1/mood/track/', body: { score: 4 } },
    { method: 'GET', path: '/v1/deliveries/?page_size=2' },
    { method: 'GET', path: '/v1/integrations/' },
    { method: 'GET', path: '/v1/integrations/slack/manifest/' },
    { method: 'POST', path: '/v1/integrations/test-prompt/', body: {} },
    { method: 'GET', path: `/v1/deliveries/${ids.delivery}/` },
    { method: 'POST', path: `/v1/deliveries/${ids.delivery}/redeliver/` },
    { method: 'GET', path: '/v1/webhook-subscription/' },
    { method: 'POST', path: '/v1/webhook-subscription/', body: { hook_url: 'https://hooks.acme.test/new', subscriptions: ['followups.response.completed'], secret: 'another-fixed-secret' } },
    { method: 'POST', path: '/v1/webhook-subscription/sample/', body: { event: 'kudos.posted' } },
    { method: 'DELETE', path: '/v1/webhook-subscription/', body: { hook_id: ids.hook } },
    { method: 'POST', path: '/v1/send-email/', body: { to: 'ann@example.com', subject: 'Notes', body_html: '<p>Hi</p>' } },
    { method: 'POST', path: '/v1/send-message/', body: { message: 'Hello', target_users: [ids.mia] } },
    { method: 'POST', path: '/v1/open-conversation/', body: { users_uuids: [ids.mia] } },
    { method: 'GET', path: '/v1/report-channels/' },
    { method: 'POST', path: '/v1/agent-reports/', body: { agent_name: agent, content: 'Deployed 1.2', structured: { completed: ['Deploy'] }, co_authors: [ids.mia] } },
    { method: 'GET', path: `/v1/agent-reports/?agent_name=${agent}` },
    { method: 'POST', path: '/v1/agent-health/', body: { agent_name: agent, ok: false, message: 'Degraded' } },
    { method: 'GET', path: `/v1/agent-health/?agent_name=${agent}` },
    { method: 'GET', path: '/v1/agent/health/' },
    { method: 'POST', path: '/v1/agent-messages/', body: { agent_name: agent, content: 'Roll back' } },
    { method: 'GET', path: `/v1/agent-messages/?agent_name=${agent}&delivered=false` },
    { method: 'POST', path: '/v1/agent-messages/read/', body: { message_ids: [ids.message] } },
    { method: 'PATCH', path: '/v1/agent-messages/read/', body: { message_ids: [ids.message] } },
    { method: 'POST', path: '/v1/agent-email/send/', body: { agent_name: agent, to: ['ann@example.com'], subject: 'Deployed', body_html: '<p>Done</p>' } },
    { method: 'POST', path: '/v1/agent-webhook/', body: { agent_name: agent, webhook_url: 'https://hooks.acme.test/agent', webhook_secret: 'a-webhook-secret' } },
    { method: 'DELETE', path: '/v1/agent-webhook/', body: { agent_name: agent } },
    { method: 'POST', path: '/v1/agent/claim/', body: { claim_token: 'x'.repeat(40) } },
    { method: 'GET', path: '/v1/cli/updates/' },
    { method: 'GET', path: '/v1/cli/status/' },
    { method: 'POST', path: '/v1/cli/updates/', body: { done: 'Parity', doing: 'More parity' } },
    { method: 'POST', path: '/v1/cli/chat/completions/', body: { message: 'What did I do today?' } },
    { method: 'POST', path: '/v1/exchange-token/', body: { user_uuid: ids.mia } },
    // The audit names the credential that issued the token: the key in one world, the token in the other.
    { method: 'GET', path: `/v1/exchange-token/audit/?user=${ids.mia}`, differs: ['results.*.credential_uuid'] },
    ...teamFeatureSteps(ids),
    ...planWork,
    ...planSteps(ids),
    // Errors too: the same codes for the same mistakes.
    { method: 'GET', path: '/v1/users/?search=a' },
    { method: 'GET', path: '/v1/teams/0190c8f4-0000-7000-8000-000000000000/' },
    { method: 'POST', path: '/v1/teams/', body: { name: 'X', colour: 'red' } },
  ];
}

describe('credential parity: an API key, a CLI token and the web session cookie holding it, of the same user (spec "Versioning" 5)', () => {
  let pair: Awaited<ReturnType<typeof startParityPair>>;
  beforeAll(async () => {
    // Every Plan write is one request here: the minute ceilings (tested in the frame's own tests) would cut the walk short.
    pair = await startParityPair({ allowPrivateWebhooks: true, agentSelfRegistration: true, planMinuteLimits: { reads: 1000, writes: 1000, bulk: 1000, delta: 1000 } }, seed);
  });
  afterAll(async () => pair.close());

  it('answers the same status, body (ids aside), pagination and rate-limit headers on every endpoint both take', async () => {
    const requests = steps(pair.world, await planWorkSteps(pair.world.ids));
    const differences: string[] = [];
    for (const req of requests) differences.push(...(await pair.compare(req)));
    if (process.env.PARITY_DEBUG) console.log(pair.statuses.join('\n'));
    expect(differences).toEqual([]);

    // Every route that takes both credentials is among the requests.
    const app = pair.byKey;
    const covered = new Set<string>();
    for (const req of requests) {
      const path = req.path.split('?')[0];
      const route = app.routes.find((r) => r.method === req.method && new RegExp(`^${r.path.replace(/:\w+/g, '[^/]+')}$`).test(path));
      if (route) covered.add(`${route.method} ${route.path}`);
    }
    const both = [];
    for (const route of app.routes) {
      const row = matrixRowOf(route.path);
      if (!route.path.startsWith('/v1/') || row === null || !row.apiKey || !row.cli) continue;
      // Anonymous routes (registration, sign-in) take no credential at all.
      const probe = await app.request(route.method, route.path.replace(/:\w+/g, '0190c8f4-0000-7000-8000-000000000000'), route.method === 'GET' ? {} : { body: {} });
      if (probe.status === 401 && probe.body?.code === 'credential_absent') both.push(route);
    }
    expect(both.length).toBeGreaterThan(80);
    expect(both.map((r) => `${r.method} ${r.path}`).filter((route) => !covered.has(route))).toEqual([]);
  }, 120_000);

  it('answers the same over MCP: a handful of tools called with the key and with the token give the same structured results', async () => {
    const { ids } = pair.world;
    const differences: string[] = [];
    const tool = async (name: string, args: Record<string, unknown>) => {
      const { found, result } = await pair.compareTool(name, args);
      differences.push(...found);
      return result;
    };
    await tool('report', { agent_name: 'deploy-bot', content: 'Deployed 1.3 over MCP', co_authors: [ids.mia] });
    await tool('health_check', { agent_name: 'deploy-bot', ok: true });
    await tool('read_messages', { agent_name: 'deploy-bot' });
    await tool('list_checkins', {});
    await tool('search_tasks', { q: 'release', type: 'task' });
    await tool('list_board_tasks', { board: ids.board, sort: 'key' });
    await tool('list_board_states', { board: ids.board });
    await tool('board_snapshot', { board: ids.board });
    const created = await tool('create_task', { board: ids.board, title: 'Write the MCP notes', idempotency_key: 'parity-mcp-1' });
    const task = (created.structuredContent as { key: string; version: number }).key;
    await tool('update_task', { task, priority: 2, version: (created.structuredContent as { version: number }).version });
    await tool('comment_task', { task, body: 'Started' });
    await tool('get_task', { task });
    // Refusals too: the same code for the same mistake.
    await tool('get_task', { task: 'PLAT-9999' });
    await tool('update_task', { task, title: 'Stale', version: 1 });
    await tool('report', { agent_name: 'deploy-bot' });
    if (process.env.PARITY_DEBUG) console.log(pair.statuses.filter((line) => line.includes('tool ')).join('\n'));
    expect(created.isError).toBeFalsy();
    expect(pair.statuses.filter((line) => line.startsWith('error tool'))).toHaveLength(3);
    expect(differences).toEqual([]);
  });

  it('reports a difference where there is one (the API-key-only /v1/platform/*)', async () => {
    const found = await pair.compare({ method: 'GET', path: '/v1/platform/status/' });
    expect(found[0]).toMatch(/^GET \/v1\/platform\/status\/: status 200 with the key, 403 with the token/);
    expect(found.some((line) => line.includes('bodies differ'))).toBe(true);
  });
});
