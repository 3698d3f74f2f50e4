import { startTestApp } from './harness.ts';
import { startHttpsReceiver, startSmtpSink, TEST_CA } from './receivers.ts';
import type { TestApp, RequestOptions, TestResponse } from './harness.ts';
import { generateKeyBetween } from 'fractional-indexing';
import { uuidv7 } from '../src/lib/ids.ts';

/**
 * Plan test fixtures: an organization with the beta on and one person of each role, and a request helper for
 * /v1/plan/ paths. Tasks have no endpoints of their own yet in these tests' scope, so `insertTask` writes one
 * straight into plan_tasks (as the task endpoints will), for the rules that count tasks.
 */
export async function seedPlanOrg(t: TestApp, options: { name?: string; plan?: 'free' | 'basic' | 'pro' | 'enterprise'; beta?: boolean } = {}) {
  const acme = await t.seedOrganization({ name: options.name ?? 'Acme', plan: options.plan ?? 'pro', beta: options.beta ?? true });
  const slug = acme.org.slug;
  const member = await t.seedUser(acme.org.uuid, { role: 'member', email: `mia@${slug}.test`, firstName: 'Mia' });
  const other = await t.seedUser(acme.org.uuid, { role: 'member', email: `otto@${slug}.test`, firstName: 'Otto' });
  const guest = await t.seedUser(acme.org.uuid, { role: 'guest', email: `gus@${slug}.test`, firstName: 'Gus' });
  const agentKey = (await t.seedUser(acme.org.uuid, { role: 'admin', email: `bot@${slug}.test`, firstName: 'Bot', kind: 'agent' })).key;
  return { ...acme, member, other, guest, agentKey };
}

export type PlanOrg = Awaited<ReturnType<typeof seedPlanOrg>>;

/** A test app with a Plan organization and the request helper: `({ t, acme, call } = await startPlanApp())`. */
export async function startPlanApp(...args: Parameters<typeof startTestApp>) {
  const t = await startTestApp(...args);
  return { t, acme: await seedPlanOrg(t), call: planClient(t) };
}

export type PlanCall = ReturnType<typeof planClient>;

/** The same with one board (key PLAT, made by the admin) and the path of one of its collections (`labels`, `states`). */
export async function startBoardApp(collection: string) {
  const app = await startPlanApp();
  const { board, states } = await createBoard(app.t, app.acme.adminKey);
  return { ...app, board, states, base: `/v1/plan/boards/${board.uuid}/${collection}/` };
}

/** `t.request` with a key and JSON body, for brevity in Plan tests. */
export function planClient(t: TestApp) {
  return (method: string, path: string, key: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse> => {
    const options: RequestOptions = { key, headers };
    if (body !== undefined) options.body = body;
    return t.request(method, path, options);
  };
}

export async function createBoard(t: TestApp, key: string, body: Record<string, unknown> = {}) {
  const res = await t.request('POST', '/v1/plan/boards/', { key, body: { name: 'Platform', key: 'PLAT', ...body } });
  if (res.status !== 201) throw new Error(`board not created: ${res.status} ${res.text}`);
  const states = await t.request('GET', `/v1/plan/boards/${res.body.uuid}/states/`, { key });
  const byName = Object.fromEntries(states.body.results.map((s: { name: string; uuid: string }) => [s.name, s.uuid])) as Record<string, string>;
  return { board: res.body, states: byName };
}

/** A task row as the task endpoints write one (number from the board's counter, ranked last in its column, version 1). */
export async function insertTask(t: TestApp, board: { uuid: string; organization?: string }, state: string, options: { labels?: string[]; archived?: boolean } = {}) {
  const now = t.clock.now().toISOString();
  const tail = await t.db('plan_tasks').where({ state_uuid: state }).max({ rank: 'rank' }).first();
  const row = (await t.db('plan_boards').where({ uuid: board.uuid }).first('organization_uuid', 'next_task_number'))!;
  const uuid = uuidv7();
  await t.db('plan_boards').where({ uuid: board.uuid }).update({ next_task_number: row.next_task_number + 1 });
  await t.db('plan_tasks').insert({
    uuid, organization_uuid: row.organization_uuid, board_uuid: board.uuid, number: row.next_task_number, title: `Task ${row.next_task_number}`,
    description: '', state_uuid: state, version: 1, rank: generateKeyBetween(tail?.rank ?? null, null), created_at: now, updated_at: now,
    archived_at: options.archived ? now : null,
  });
  for (const label of options.labels ?? []) await t.db('plan_task_labels').insert({ task_uuid: uuid, label_uuid: label });
  return uuid;
}

/** Every row of every plan_ table, for comparing the database before and after a dry run or a refusal. */
export async function dumpPlanTables(t: TestApp): Promise<string> {
  const tables = ['plan_organizations', 'plan_changes', 'plan_idempotency_keys', 'plan_goals', 'plan_projects', 'plan_project_members', 'plan_milestones', 'plan_project_updates', 'plan_boards', 'plan_board_keys', 'plan_board_members', 'plan_states', 'plan_labels', 'plan_tasks', 'plan_task_labels', 'plan_task_keys', 'plan_task_relations', 'plan_task_participants', 'plan_task_subscriptions', 'plan_task_search'];
  const dump: Record<string, unknown> = {};
  for (const table of tables) dump[table] = await t.db(table).select().orderByRaw('1');
  return JSON.stringify(dump);
}

/** Rows of `table` matching `where`, as a number on either engine (PostgreSQL counts are strings). */
export async function countRows(t: TestApp, table: string, where: (query: ReturnType<TestApp['db']>) => unknown = () => {}): Promise<number> {
  const query = t.db(table);
  where(query);
  const [{ n }] = await query.count({ n: '*' });
  return Number(n);
}

/**
 * An app whose chat platform is a stand-in Slack workspace (conversations.list answers `channels`; a post
 * answers ok) and whose e-mail goes to an SMTP sink: what notification routes and scheduled reports send to.
 */
export async function startChatAndMailApp(channels: { id: string; name: string; is_private?: boolean }[]) {
  const rx = await startHttpsReceiver((req) => {
    if (req.url.startsWith('/api/conversations.list')) return { status: 200, body: { ok: true, channels, response_metadata: { next_cursor: '' } } };
    const lookup = /^\/api\/users\.lookupByEmail\?email=([^&]+)/.exec(req.url);
    if (lookup) return { status: 200, body: { ok: true, user: { id: `U_${decodeURIComponent(lookup[1]).split('@')[0].toUpperCase()}` } } };
    return { status: 200, body: { ok: true, ts: '1.2', channel: 'C1' } };
  });
  const sink = await startSmtpSink();
  const t = await startTestApp({}, { SLACK_API_URL: `${rx.url}/api`, SMTP_URL: sink.url, ALLOW_PRIVATE_WEBHOOKS: 'true' }, { ca: TEST_CA });
  return {
    t, rx, sink,
    async close() {
      await t.close();
      await rx.close();
      await sink.close();
    },
  };
}
