import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestResponse } from './harness.ts';
import { createBoard, seedPlanOrg } from './plan-fixtures.ts';
import type { PlanOrg } from './plan-fixtures.ts';
import { startTestApp } from './harness.ts';
import { startHttpsReceiver, TEST_CA } from './receivers.ts';
import type { HttpsReceiver } from './receivers.ts';
import { PNG, encodeForm, form } from './files.ts';
import { CLIENT_CALLS } from './dailybot-client.ts';
import type { ClientCall } from './dailybot-client.ts';

/**
 * The contract with the DailyBot command-line client: every (method, path) of its Plan calls (test/dailybot-client.ts,
 * both versions) is made in order, as its signed-in user (a CLI token, the client's first credential), with its own
 * field names and values, against one seeded organization with Slack connected (a local stand-in of Slack's Web
 * API), at the default minute ceilings and about a call a second (one person, one command at a time). Every call
 * must succeed (2xx) and answer every field its command reads: a 404 or 405 is a door the client knocks on that is
 * missing, a 429 a ceiling too low for it, a 5xx a defect, any other refusal something the client sends that is
 * not taken.
 */
/** The doors the client writes without its agent stamp (settings, saved views). */
const UNSTAMPED = /\/(views|me\/notifications|me\/briefing|notification-routes|reports)\//;

describe('the DailyBot CLI: every Plan call it makes reaches a door', () => {
  let t: TestApp;
  let slack: HttpsReceiver;
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
    // Slack's Web API, as far as channel lookups, direct messages and posts go.
    slack = await startHttpsReceiver((req) => {
      if (req.url.startsWith('/api/conversations.list')) {
        return { status: 200, body: { ok: true, channels: [{ id: 'C0GENERAL', name: 'general' }, { id: 'G0LEADS', name: 'leads', is_private: true }], response_metadata: { next_cursor: '' } } };
      }
      if (req.url.startsWith('/api/users.lookupByEmail')) return { status: 200, body: { ok: true, user: { id: 'U0ADA' } } };
      if (req.url.startsWith('/api/conversations.open')) return { status: 200, body: { ok: true, channel: { id: 'D0ADA' } } };
      return { status: 200, body: { ok: true, ts: '1700000000.000100', channel: 'C0GENERAL' } };
    });
    // The default minute ceilings: one person running the client's commands one at a time must get through.
    t = await startTestApp({}, { SLACK_API_URL: `${slack.url}/api`, ALLOW_PRIVATE_WEBHOOKS: 'true' }, { ca: TEST_CA });
    acme = await seedPlanOrg(t);
    token = await t.seedToken(acme.org.uuid, acme.admin.uuid);
    const P = '/v1/plan';
    await must(t.request('PATCH', '/v1/organization/', { key: acme.adminKey, body: { platform: { kind: 'slack', bot_token: 'xoxb-contract' } } }), 'Slack');
    Object.assign(ids, { admin: acme.admin.uuid, mia: acme.member.user.uuid, otto: acme.other.user.uuid, slack: 'C0GENERAL' });
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
  afterAll(async () => {
    await t?.close();
    await slack?.close();
  });

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

  it('answers every call with a 2xx and every field its command reads', async () => {
    const failures: string[] = [];
    let succeeded = 0;
    for (const c of CLIENT_CALLS) {
      // One command at a time: about a call a second.
      t.clock.advance(1_000);
      const res = await make(c);
      const name = `${c.method} ${c.path}${c.query ? `?${c.query}` : ''}`;
      if (res.status >= 300) {
        failures.push(`${name} → ${res.status} ${res.text.slice(0, 200)}`);
        continue;
      }
      succeeded++;
      const missing = missingReads(res.body, c.reads ?? []);
      if (missing.length) failures.push(`${name} → ${res.status} without ${missing.join(', ')}`);
      for (const [id, field] of Object.entries(c.capture ?? {})) ids[id] = String(valueAt(res.body, field) ?? '');
    }
    console.info(`DailyBot CLI contract: ${succeeded} of ${CLIENT_CALLS.length} calls succeed (2xx), ${failures.length} failures`);
    expect(failures).toEqual([]);
  });
});

/** The value at a dotted path (no `*`), or undefined. */
function valueAt(body: unknown, path: string): unknown {
  let value: unknown = body;
  for (const part of path.split('.')) value = value !== null && typeof value === 'object' && Object.hasOwn(value, part) ? (value as Record<string, unknown>)[part] : undefined;
  return value;
}

/** The read paths (`a.b`, `results.*.c`) the answer does not carry; `*` needs a non-empty array, each item carrying the rest. */
export function missingReads(body: unknown, paths: string[]): string[] {
  const has = (value: unknown, parts: string[]): boolean => {
    if (parts.length === 0) return true;
    const [part, ...rest] = parts;
    if (part === '*') return Array.isArray(value) && value.length > 0 && value.every((item) => has(item, rest));
    return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, part) && has((value as Record<string, unknown>)[part], rest);
  };
  return paths.filter((path) => !has(body, path.split('.')));
}
