import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestResponse } from './harness.ts';
import { createBoard, startPlanApp } from './plan-fixtures.ts';
import type { PlanCall, PlanOrg } from './plan-fixtures.ts';
import { isSqlite } from '../src/db/connection.ts';

/** Requests waiting their turn hold or wait for a pooled connection: on a loaded test machine 5 s is not always enough. */
const SLOW_MACHINE = { DATABASE_CONNECT_TIMEOUT_MS: '30000' };
/** The dry-run cases send a few hundred requests in rounds. */
const LONG = 240_000;

/**
 * Writes that used to deadlock on PostgreSQL (issue 24, item 7; issue 34, item 15: dry-run deletions beside the
 * writes on what they delete): they take their locks in one order now (docs/architecture.md, "Transactions that
 * lose a race, and the lock order"), and a transaction that still loses a deadlock runs again (db/retry.ts). Each
 * case checks the answers and, on PostgreSQL, that the server saw no deadlock at all (pg_stat_database), so the
 * retry is a safety net here, not what makes the case pass.
 */
describe('concurrent writes take their locks in one order (no deadlock, no 503)', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  beforeAll(async () => {
    ({ t, acme, call } = await startPlanApp({}, { PLAN_RATE_LIMIT_WRITES: '100000', PLAN_RATE_LIMIT_READS: '100000', RATE_LIMIT_WRITES: '100000', ...SLOW_MACHINE }));
  });
  afterAll(async () => t.close());

  async function deadlocks(): Promise<number> {
    if (isSqlite(t.db)) return 0;
    // The statistics collector reports with a delay; ask it for a fresh snapshot.
    await t.db.raw('select pg_stat_clear_snapshot()');
    const { rows } = await t.db.raw('select deadlocks from pg_stat_database where datname = current_database()');
    return Number(rows[0].deadlocks);
  }
  /** No 5xx; a 503's cause from the log, when there is one (a deadlock left after the retries, a pool that ran dry). */
  const noServerErrors = (answers: TestResponse[]) => {
    const causes = answers.some((a) => a.status >= 500) ? t.logs.filter((l) => l.includes('database unavailable')).map((l) => JSON.parse(l).err?.message ?? l) : [];
    expect([answers.filter((a) => a.status >= 500).map((a) => `${a.status} ${a.text}`), causes]).toEqual([[], []]);
  };

  it('adds questions to one check-in side by side: every one kept, positions 0..n-1', async () => {
    const before = await deadlocks();
    const created = await t.request('POST', '/v1/checkins/create/', { key: acme.adminKey, body: { name: 'Daily', schedule: { days: [1, 2, 3, 4, 5], time: '09:00', timezone: 'UTC' } } });
    expect(created.status).toBe(201);
    const checkin = created.body.uuid;
    const start = (await t.db('checkin_questions').where({ checkin_uuid: checkin })).length;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => t.request('POST', `/v1/checkins/${checkin}/questions/`, { key: acme.adminKey, body: { question_type: 'text', question: `Q${i}?`, index: i % 3 } })),
    );
    noServerErrors(answers);
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(201));
    const positions = (await t.db('checkin_questions').where({ checkin_uuid: checkin }).select('position')).map((r) => Number(r.position)).sort((a, b) => a - b);
    expect(positions).toEqual(Array.from({ length: start + 12 }, (_, i) => i));
    expect(await deadlocks()).toBe(before);
  });

  it('deletes linked tasks of one board side by side, dry runs included', async () => {
    const before = await deadlocks();
    const { board } = await createBoard(t, acme.adminKey, { name: 'Locks', key: 'LOCK' });
    const tasks: { uuid: string; key: string }[] = [];
    for (let i = 0; i < 12; i++) tasks.push((await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.adminKey, { title: `T${i}`, ...(i % 4 ? { parent_task: tasks[i - (i % 4)].key } : {}) })).body);
    for (let i = 0; i < 11; i++) {
      const linked = await call('POST', `/v1/plan/tasks/${tasks[i].key}/relations/`, acme.adminKey, { relation_type: 'relates_to', target_task: tasks[(i * 5 + 3) % 12].key });
      expect([201, 409]).toContain(linked.status);
    }
    const answers = await Promise.all([
      ...tasks.map((task) => call('DELETE', `/v1/plan/tasks/${task.key}/?dry_run=true`, acme.adminKey)),
      ...tasks.map((task) => call('DELETE', `/v1/plan/tasks/${task.key}/`, acme.adminKey)),
    ]);
    noServerErrors(answers);
    expect(answers.slice(12).map((a) => a.status)).toEqual(Array(12).fill(204));
    expect(await t.db('plan_tasks').where({ board_uuid: board.uuid }).count({ n: '*' }).first()).toEqual({ n: isSqlite(t.db) ? 0 : '0' });
    expect(await deadlocks()).toBe(before);
  });

  it('retires a milestone and deletes a state (migrate_to) while the tasks they touch are edited and moved, dry runs included', async () => {
    const before = await deadlocks();
    const project = (await call('POST', '/v1/plan/projects/', acme.adminKey, { name: 'Locks project' })).body.uuid;
    const { board, states } = await createBoard(t, acme.adminKey, { name: 'Locks two', key: 'LOCKB', project });
    const milestone = (await call('POST', `/v1/plan/projects/${project}/milestones/`, acme.adminKey, { name: 'M1' })).body.uuid;
    const tasks: { key: string }[] = [];
    for (let i = 0; i < 10; i++) {
      const task = (await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.adminKey, { title: `T${i}`, state: i % 2 ? states.Todo : states.Backlog })).body;
      expect((await call('PATCH', `/v1/plan/tasks/${task.key}/`, acme.adminKey, { milestone })).status).toBe(200);
      tasks.push(task);
    }
    const answers = await Promise.all([
      call('DELETE', `/v1/plan/projects/${project}/milestones/${milestone}/?dry_run=true`, acme.adminKey),
      ...tasks.map((task, i) => (i % 3 ? call('PATCH', `/v1/plan/tasks/${task.key}/`, acme.adminKey, { title: `Edited ${i}` }) : call('POST', `/v1/plan/tasks/${task.key}/move/`, acme.adminKey, { state: states.Todo }))),
      call('DELETE', `/v1/plan/boards/${board.uuid}/states/${states.Backlog}/?migrate_to=${states.Todo}&dry_run=true`, acme.adminKey),
      call('DELETE', `/v1/plan/projects/${project}/milestones/${milestone}/`, acme.adminKey),
      call('DELETE', `/v1/plan/boards/${board.uuid}/states/${states.Backlog}/?migrate_to=${states.Todo}`, acme.adminKey),
    ]);
    noServerErrors(answers);
    expect(answers.slice(-2).map((a) => a.status)).toEqual([200, 200]); // both deletions retire: the milestone and the state come back archived
    const ranks = (await t.db('plan_tasks').where({ board_uuid: board.uuid, state_uuid: states.Todo }).select('rank')).map((r) => r.rank);
    expect(new Set(ranks).size).toBe(10);
    expect(await deadlocks()).toBe(before);
  });

  /** A dry run's answer (status 200, `dry_run: true`) with the status the real operation would have answered. */
  const dryRunOf = (answer: TestResponse) => {
    expect([answer.status, answer.body?.dry_run]).toEqual([200, true]);
    return answer.body as { status: number; result: Record<string, unknown> | null; changes: { object_kind: string; object_uuid: string; change_kind: string }[] };
  };

  it('dry-runs the deletion of a board while tasks and labels are created on it: every creation lands, every dry run answers as the real deletion would', async () => {
    const before = await deadlocks();
    for (let round = 0; round < 3; round++) {
      const { board } = await createBoard(t, acme.adminKey, { name: `Dry ${round}`, key: `DRY${round}` });
      for (let i = 0; i < 4; i++) expect((await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.adminKey, { title: `Seed ${i}` })).status).toBe(201);
      for (let i = 0; i < 2; i++) expect((await call('POST', `/v1/plan/boards/${board.uuid}/labels/`, acme.adminKey, { name: `Seed ${i}` })).status).toBe(201);
      const alone = dryRunOf(await call('DELETE', `/v1/plan/boards/${board.uuid}/?dry_run=true`, acme.adminKey));
      expect(alone.result!.cascade).toEqual({ states: 5, labels: 2, members: 1, tasks: 4 });

      const answers = await Promise.all([
        ...Array.from({ length: 8 }, () => call('DELETE', `/v1/plan/boards/${board.uuid}/?dry_run=true`, acme.adminKey)),
        ...Array.from({ length: 8 }, (_, i) => call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.adminKey, { title: `New ${i}` })),
        ...Array.from({ length: 4 }, (_, i) => call('POST', `/v1/plan/boards/${board.uuid}/labels/`, acme.adminKey, { name: `New ${i}` })),
      ]);
      noServerErrors(answers);
      // Every creation lands (no 409 identifier_allocation_failed), with the board's next numbers, none skipped.
      expect(answers.slice(8).map((a) => `${a.status} ${a.body?.code ?? ''}`)).toEqual(Array(12).fill('201 '));
      expect(answers.slice(8, 16).map((a) => Number(a.body.key.split('-')[1])).sort((a, b) => a - b)).toEqual([5, 6, 7, 8, 9, 10, 11, 12]);
      // Each dry run saw the board at one moment: the seeds and some of the creations, never a half-deleted board.
      for (const answer of answers.slice(0, 8)) {
        const dry = dryRunOf(answer);
        const cascade = dry.result!.cascade as Record<string, number>;
        expect([dry.status, dry.result!.deleted, cascade.states, cascade.members]).toEqual([204, alone.result!.deleted, 5, 1]);
        expect(cascade.tasks).toBeGreaterThanOrEqual(4);
        expect(cascade.tasks).toBeLessThanOrEqual(12);
        expect(cascade.labels).toBeGreaterThanOrEqual(2);
        expect(cascade.labels).toBeLessThanOrEqual(6);
        expect(dry.changes).toEqual(alone.changes);
      }
      // And what the last dry run answers is what the deletion does.
      const last = dryRunOf(await call('DELETE', `/v1/plan/boards/${board.uuid}/?dry_run=true`, acme.adminKey));
      expect(last.result!.cascade).toEqual({ states: 5, labels: 6, members: 1, tasks: 12 });
      expect((await call('DELETE', `/v1/plan/boards/${board.uuid}/`, acme.adminKey)).status).toBe(last.status);
      for (const table of ['plan_tasks', 'plan_labels', 'plan_states', 'plan_board_members'] as const) {
        expect(Number((await t.db(table).where({ board_uuid: board.uuid }).count({ n: '*' }))[0].n)).toBe(0);
      }
    }
    expect(await deadlocks()).toBe(before);
  }, LONG);

  it('dry-runs the deletion of a board without taking a lock: it answers while another transaction holds the board', async () => {
    // SQLite has one connection: a transaction held here would hold the app's requests too. Nothing to show there.
    if (isSqlite(t.db)) return;
    const { board } = await createBoard(t, acme.adminKey, { name: 'Held', key: 'HELD' });
    expect((await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.adminKey, { title: 'One' })).status).toBe(201);
    const holder = await t.db.transaction();
    try {
      await holder('plan_boards').where({ uuid: board.uuid }).forUpdate().first('uuid');
      const waited = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 20_000).unref());
      const dry = await Promise.race([call('DELETE', `/v1/plan/boards/${board.uuid}/?dry_run=true`, acme.adminKey), waited]);
      expect(dry === 'waited' ? 'the dry run waited for the board' : dryRunOf(dry).result!.cascade).toEqual({ states: 5, labels: 0, members: 1, tasks: 1 });
    } finally {
      await holder.rollback();
    }
  }, LONG);

  const flat = (value: unknown, path = ''): [string, unknown][] =>
    value !== null && typeof value === 'object' ? Object.entries(value).flatMap(([k, v]) => flat(v, `${path}.${k}`)) : [[path, value]];

  /**
   * `answer` (a dry run beside writes that only add) saw the Plan at one moment between `before` and `after` (the
   * same dry run alone, before and after those writes): the answer of one of them, or for a dry run each count
   * between theirs, every other field as theirs, and every change of `before` and none that `after` lacks.
   */
  const seenBetween = (answer: TestResponse, before: TestResponse, after: TestResponse) => {
    if (answer.status !== 200 || before.status !== 200 || after.status !== 200) {
      refusedBetween(answer, before, after);
      return;
    }
    const [got, low, high] = [answer, before, after].map((a) => dryRunOf(a));
    const [lows, highs] = [new Map(flat(low.result)), new Map(flat(high.result))];
    expect(got.status).toBe(low.status);
    for (const [path, value] of flat(got.result)) {
      if (typeof value !== 'number') expect([path, value]).toEqual([path, lows.get(path)]);
      else expect([path, value >= (lows.get(path) as number) && value <= (highs.get(path) as number)]).toEqual([path, true]);
    }
    const keys = (dry: ReturnType<typeof dryRunOf>) => new Set(dry.changes.map((c) => `${c.object_kind} ${c.object_uuid} ${c.change_kind}`));
    const [gotKeys, lowKeys, highKeys] = [got, low, high].map(keys);
    expect([...lowKeys].filter((k) => !gotKeys.has(k))).toEqual([]);
    expect([...gotKeys].filter((k) => !highKeys.has(k))).toEqual([]);
  };

  /**
   * `answer` where `before` or `after` is not a dry run's 200: the answer of one of them, or a refusal with the code
   * of one of them whose counts lie between (a label on 3 of the tasks created meanwhile: 409 label_in_use with
   * tasks: 3, where the label alone answered 200 before the writes and tasks: 6 after them).
   */
  const refusedBetween = (answer: TestResponse, before: TestResponse, after: TestResponse) => {
    const exactly = [before, after].some((a) => a.status === answer.status && JSON.stringify(a.body) === JSON.stringify(answer.body));
    const same = [before, after].filter((a) => a.status === answer.status && a.body?.code !== undefined && a.body?.code === answer.body?.code);
    if (exactly) return;
    if (answer.status < 400) expect([[before.status, before.body], [after.status, after.body]]).toContainEqual([answer.status, answer.body]);
    expect([[before.status, before.body?.code], [after.status, after.body?.code]]).toContainEqual([answer.status, answer.body?.code]);
    // Numbers apart (a count, and the count a detail names), the refusal is theirs.
    const fields = (a: TestResponse) => flat(a.body).map(([path, value]): [string, unknown] => [path, typeof value === 'string' ? value.replace(/\d+/g, 'n') : typeof value === 'number' ? 'number' : value]);
    expect(fields(answer)).toEqual(fields(same[0]));
    const counts = same.map((a) => new Map(flat(a.body)));
    for (const [path, value] of flat(answer.body)) {
      if (typeof value !== 'number') continue;
      const bounds = counts.map((c) => c.get(path) as number);
      const [low, high] = [same.length === 2 ? Math.min(...bounds) : 0, Math.max(...bounds)];
      expect([path, value >= low && value <= high]).toEqual([path, true]);
    }
  };

  it('dry-runs deletions of a board, its members, tasks, labels, states and participants beside writes on them: each answers as the real deletion would at one moment', async () => {
    const before = await deadlocks();
    const mia = acme.member.user.uuid;
    const otto = acme.other.user.uuid;
    for (let round = 0; round < 2; round++) {
      const { board, states } = await createBoard(t, acme.adminKey, { name: `Dry mix ${round}`, key: `DRYM${round}` });
      const other = (await createBoard(t, acme.adminKey, { name: `Dry other ${round}`, key: `DRYO${round}` })).board;
      const path = `/v1/plan/boards/${board.uuid}`;
      expect((await call('POST', `${path}/members/`, acme.adminKey, { user: otto })).status).toBe(201);
      const review = (await call('POST', `${path}/states/`, acme.adminKey, { name: 'Review', category: 'in_progress' })).body.uuid;
      const used = (await call('POST', `${path}/labels/`, acme.adminKey, { name: 'Used' })).body.uuid;
      const unused = (await call('POST', `${path}/labels/`, acme.adminKey, { name: 'Unused' })).body.uuid;
      const tasks: { key: string }[] = [];
      for (let i = 0; i < 6; i++) {
        const body = { title: `T${i}`, participants: [mia], ...(i < 2 ? { state: review } : {}), ...(i === 2 ? { labels: [used] } : {}), ...(i === 5 ? { parent_task: tasks[4].key } : {}) };
        tasks.push((await call('POST', `${path}/tasks/`, acme.adminKey, body)).body);
      }
      const elsewhere: { key: string }[] = [];
      for (let i = 0; i < 2; i++) elsewhere.push((await call('POST', `/v1/plan/boards/${other.uuid}/tasks/`, acme.adminKey, { title: `Other ${i}` })).body);
      const link = (from: { key: string }, to: { key: string }, type = 'relates_to') => call('POST', `/v1/plan/tasks/${from.key}/relations/`, acme.adminKey, { relation_type: type, target_task: to.key });
      expect([(await link(tasks[3], tasks[4], 'blocks')).status, (await link(tasks[0], elsewhere[0])).status]).toEqual([201, 201]);

      // In an order where no real deletion changes the answer of a later one (the tasks, then the board, last).
      const targets = [
        ...tasks.map((task) => `/v1/plan/tasks/${task.key}/participants/${mia}/`),
        `${path}/members/${otto}/`,
        `${path}/labels/${unused}/`,
        `${path}/labels/${used}/`,
        `${path}/states/${review}/?migrate_to=${states.Todo}`,
        ...tasks.map((task) => `/v1/plan/tasks/${task.key}/`),
        `/v1/plan/tasks/${elsewhere[0].key}/`,
        `${path}/`,
      ];
      const dryRun = (target: string) => call('DELETE', `${target}${target.includes('?') ? '&' : '?'}dry_run=true`, acme.adminKey);
      const alone = async () => {
        const answers: TestResponse[] = [];
        for (const target of targets) answers.push(await dryRun(target));
        return answers;
      };
      const first = await alone();
      expect(first.map((a) => a.status)).toEqual([...Array(8).fill(200), 409, ...Array(9).fill(200)]);

      const writes = [
        ...Array.from({ length: 6 }, (_, i) => () => call('POST', `${path}/tasks/`, acme.adminKey, { title: `New ${i}`, participants: [mia], labels: [unused] })),
        ...Array.from({ length: 3 }, (_, i) => () => call('POST', `${path}/labels/`, acme.adminKey, { name: `New ${i}` })),
        ...tasks.map((task) => () => call('POST', `/v1/plan/tasks/${task.key}/comments/`, acme.adminKey, { body: 'Still needed?' })),
        ...tasks.map((task) => () => link(elsewhere[1], task)),
        ...tasks.map((task, i) => () => call('PATCH', `/v1/plan/tasks/${task.key}/`, acme.adminKey, { title: `Edited ${i}` })),
        ...tasks.map((task) => () => call('POST', `/v1/plan/tasks/${task.key}/participants/`, acme.adminKey, { user: otto })),
        () => call('PATCH', `${path}/members/${otto}/`, acme.adminKey, { role: 'manager' }),
        () => call('POST', `/v1/plan/boards/${other.uuid}/tasks/`, acme.adminKey, { title: 'Other new' }),
      ];
      // Sent interleaved, so each dry run meets writes of every kind.
      const dryRuns = targets.map((target) => () => dryRun(target));
      const runs = [...dryRuns.map((run, i) => ({ run, at: i / dryRuns.length })), ...writes.map((run, i) => ({ run, at: i / writes.length }))].sort((a, b) => a.at - b.at).map((r) => r.run);
      const answers = await Promise.all(runs.map((run) => run()));
      const answerOf = (run: () => Promise<TestResponse>) => answers[runs.indexOf(run)];
      noServerErrors(answers);
      expect(writes.map((write) => answerOf(write).status)).toEqual([...Array(6 + 3 + 6 + 6).fill(201), ...Array(6).fill(200), ...Array(6).fill(201), 200, 201]);

      const last = await alone();
      for (const [i, target] of targets.entries()) {
        try {
          seenBetween(answerOf(dryRuns[i]), first[i], last[i]);
        } catch (err) {
          throw new Error(`DELETE ${target}?dry_run=true: ${(err as Error).message}`);
        }
      }
      // And the deletions do what the dry runs answer.
      for (const [i, target] of targets.entries()) {
        const real = await call('DELETE', target, acme.adminKey);
        expect([target, real.status]).toEqual([target, last[i].status === 200 ? last[i].body.status : last[i].status]);
      }
    }
    expect(await deadlocks()).toBe(before);
  }, LONG);
});
