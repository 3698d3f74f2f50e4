import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestResponse } from './harness.ts';
import { createBoard, seedPlanOrg } from './plan-fixtures.ts';
import type { PlanOrg } from './plan-fixtures.ts';
import { startTestApp } from './harness.ts';
import { PNG, encodeForm, form } from './files.ts';
import { CLIENT_CALLS } from './dailybot-client.ts';
import type { ClientCall } from './dailybot-client.ts';

/**
 * The contract with the DailyBot command-line client: every (method, path) of its Plan calls (test/dailybot-client.ts)
 * is made in order, as its signed-in user (a CLI token, the client's first credential), with its own field names,
 * against one seeded organization, at the default minute ceilings and about a call a second (one person, one
 * command at a time). A 404 or 405 means a door the client knocks on is missing; a 429 a ceiling too low for it; a
 * 5xx is a defect.
 * The test prints how many calls answered and how many succeeded (2xx), the figure the issue tracks.
 */
/** The doors the client writes without its agent stamp (settings, saved views). */
const UNSTAMPED = /\/(views|me\/notifications|me\/briefing|notification-routes|reports)\//;

describe('the DailyBot CLI: every Plan call it makes reaches a door', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let token: string;
  const ids: Record<string, string> = {};

  const as = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => t.request(method, path, { token, body, headers });
  const must = async (res: Promise<TestResponse>, what: string) => {
    const answer = await res;
    if (answer.status >= 300) throw new Error(`seeding ${what}: ${answer.status} ${answer.text}`);
    return answer.body;
  };
  const multipart = async (path: string, name = 'shot.png') => {
    const { raw, contentType } = await encodeForm(form({ name, type: 'image/png', bytes: PNG }, { caption: 'The screen' }));
    return t.request('POST', path, { token, raw, headers: { 'content-type': contentType } });
  };
  /** An attachment of a parent through our own doors, or a fresh uuid (its calls then fail) when the door is missing. */
  const attach = async (parent: string) => {
    const res = await multipart(`${parent}attachments/`);
    return res.status === 201 ? (res.body.uuid as string) : crypto.randomUUID();
  };

  beforeAll(async () => {
    // The default minute ceilings: one person running the client's commands one at a time must get through.
    t = await startTestApp();
    acme = await seedPlanOrg(t);
    token = await t.seedToken(acme.org.uuid, acme.admin.uuid);
    const P = '/v1/plan';
    Object.assign(ids, { admin: acme.admin.uuid, mia: acme.member.user.uuid });
    const { board, states } = await createBoard(t, acme.adminKey);
    ids.board = board.uuid;
    ids.state = states['In Progress'] ?? Object.values(states)[1];
    ids.otherBoard = (await createBoard(t, acme.adminKey, { name: 'Other', key: 'OTH' })).board.uuid;
    ids.spareState = (await must(as('POST', `${P}/boards/${board.uuid}/states/`, { name: 'Spare', category: 'in_progress' }), 'state')).uuid;
    ids.label = (await must(as('POST', `${P}/boards/${board.uuid}/labels/`, { name: 'bug' }), 'label')).uuid;
    ids.spareLabel = (await must(as('POST', `${P}/boards/${board.uuid}/labels/`, { name: 'old' }), 'label')).uuid;
    const task = (title: string) => must(as('POST', `${P}/boards/${board.uuid}/tasks/`, { title }), 'task');
    const first = await task('Fix the login loop');
    ids.task = first.key;
    ids.task2 = (await task('Move me')).key;
    ids.task3 = (await task('Bulk me')).key;
    ids.relation = (await must(as('POST', `${P}/tasks/${ids.task}/relations/`, { relation_type: 'relates_to', target_task: ids.task2 }), 'relation')).uuid;
    ids.comment = (await must(as('POST', `${P}/tasks/${ids.task}/comments/`, { body: 'First look' }), 'comment')).uuid;
    // Something in the admin's inbox: Mia assigns them a task.
    await t.request('POST', `${P}/boards/${board.uuid}/tasks/`, { key: acme.member.key, body: { title: 'For Ada', owner: acme.admin.uuid } });
    const inbox = await as('GET', `${P}/inbox/`);
    ids.inbox = inbox.body?.results?.[0]?.uuid ?? crypto.randomUUID();
    const listEtag = async (path: string) => (await as('GET', path)).headers.get('etag') ?? '';
    ids.view = (await must(as('POST', `${P}/boards/${board.uuid}/views/`, { name: 'Mine', visibility: 'personal' }, { 'if-match': await listEtag(`${P}/boards/${board.uuid}/views/`) }), 'view')).uuid;
    ids.favorite = (await must(as('POST', `${P}/me/favorites/`, { object_type: 'board', object_uuid: board.uuid }), 'favorite')).uuid;
    ids.project = (await must(as('POST', `${P}/projects/`, { name: 'Launch' }), 'project')).uuid;
    ids.spareProject = (await must(as('POST', `${P}/projects/`, { name: 'Spare' }), 'project')).uuid;
    ids.update = (await must(as('POST', `${P}/projects/${ids.project}/updates/`, { body: 'Kick-off' }), 'update')).uuid;
    ids.milestone = (await must(as('POST', `${P}/projects/${ids.project}/milestones/`, { name: 'Alpha' }), 'milestone')).uuid;
    ids.goal = (await must(as('POST', `${P}/goals/`, { name: 'Ship it' }), 'goal')).uuid;
    ids.route = (await must(as('POST', `${P}/notifications/routes/`, { kind: 'task.assigned', channel: 'email' }), 'route')).uuid;
    ids.report = (await must(as('POST', `${P}/reports/`, { name: 'Daily', kind: 'week_start', weekdays: [1], time: '09:00', email_recipients: [acme.admin.email] }), 'report')).uuid;
    ids.taskFile = await attach(`${P}/tasks/${ids.task}/`);
    ids.commentFile = await attach(`${P}/tasks/${ids.task}/comments/${ids.comment}/`);
    ids.projectFile = await attach(`${P}/projects/${ids.project}/`);
    ids.updateFile = await attach(`${P}/projects/${ids.project}/updates/${ids.update}/`);
    ids.milestoneFile = await attach(`${P}/projects/${ids.project}/milestones/${ids.milestone}/`);
    ids.goalFile = await attach(`${P}/goals/${ids.goal}/`);
    // The session starts in a fresh minute.
    t.clock.advance(60_000);
  });
  afterAll(async () => t?.close());

  const fill = (text: string) => text.replace(/\{(\w+)\}/g, (all, name: string) => ids[name] ?? all);
  const fillBody = (body: unknown): unknown => (body === undefined ? undefined : JSON.parse(fill(JSON.stringify(body))));

  async function make(c: ClientCall): Promise<TestResponse> {
    const headers: Record<string, string> = { ...c.headers };
    if (c.ifMatchFrom) headers['if-match'] = ((await as('GET', fill(c.ifMatchFrom))).headers.get('etag') ?? '').replace(/^W\//, '');
    let body = fillBody(c.body);
    // The client's agent stamp: `agent_name` in a JSON write's body, the header on other writes; none on the settings doors.
    if (c.method !== 'GET' && !UNSTAMPED.test(c.path)) {
      if (body && typeof body === 'object' && !Array.isArray(body) && c.method !== 'DELETE') body = { ...body, agent_name: 'Release bot' };
      else headers['x-dailybot-agent-name'] = 'Release%20bot';
    }
    if (JSON.stringify(body ?? null).includes('"{stateOrder}"')) {
      const live = (await as('GET', `/v1/plan/boards/${ids.board}/states/`)).body.results.map((s: { uuid: string }) => s.uuid);
      body = { order: live };
    }
    if (c.path === '{uploadUrl}') {
      const url = ids.uploadUrl ? new URL(ids.uploadUrl) : new URL(`${t.url}/v1/plan/missing/`);
      return t.request('PUT', `${url.pathname}${url.search}`, { token, raw: PNG, headers: { 'content-type': 'image/png' } });
    }
    const path = `${fill(c.path)}${c.query ? `?${fill(c.query)}` : ''}`;
    if (c.multipart) return multipart(path);
    return as(c.method, path, body, headers);
  }

  it('answers every call: no 404, no 405, no 5xx', async () => {
    const failures: string[] = [];
    let succeeded = 0;
    for (const c of CLIENT_CALLS) {
      // One command at a time: about a call a second.
      t.clock.advance(1_000);
      const res = await make(c);
      if (res.status === 429) failures.push(`${c.method} ${c.path} → 429 at the default minute ceilings`);
      const name = `${c.method} ${c.path}${c.query ? `?${c.query}` : ''}`;
      if (res.status === 404 || res.status === 405 || res.status >= 500) failures.push(`${name} → ${res.status} ${res.text.slice(0, 160)}`);
      if (res.status < 300) succeeded++;
      else if (process.env.CONTRACT_VERBOSE) console.info(`${name} → ${res.status} ${res.text.slice(0, 200)}`);
      if (c.path.endsWith('/attachments/presign/') && res.status === 201) Object.assign(ids, { presigned: res.body.attachment_uuid, uploadUrl: res.body.upload_url });
    }
    console.info(`DailyBot CLI contract: ${CLIENT_CALLS.length - failures.length} of ${CLIENT_CALLS.length} calls reach a door, ${succeeded} succeed (2xx)`);
    expect(failures).toEqual([]);
  });
});
