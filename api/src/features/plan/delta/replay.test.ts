import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardMaker, startTaskApp } from '../../../../test/task-fixtures.ts';
import type { TaskApp } from '../../../../test/task-fixtures.ts';

/**
 * The delta feed's promise, as a property: a client that takes a snapshot and then applies the feed (in pages of
 * any size, at any moment, starting at any point) ends with exactly what a fresh snapshot shows, after 1,000
 * random changes of tasks (create, update, move, archive, restore, delete, move to another board and back),
 * labels and states.
 */

type Snapshot = {
  board: Record<string, unknown>;
  states: Row[];
  labels: Row[];
  members: Row[];
  tasks: Row[];
  delta_cursor: string;
};
type Row = Record<string, unknown> & { uuid: string };
type Change = { object_kind: string; object_uuid: string; change_kind: string; snapshot: Row | null };

/** What a client keeps: the rules docs/plan.md gives for applying the feed. */
class Replica {
  board: Record<string, unknown>;
  readonly states = new Map<string, Row>();
  readonly labels = new Map<string, Row>();
  readonly members = new Map<string, Row>();
  readonly tasks = new Map<string, Row>();
  cursor: string;
  readonly #uuid: string;

  constructor(snapshot: Snapshot) {
    this.#uuid = snapshot.board.uuid as string;
    this.board = snapshot.board;
    for (const [map, rows] of [[this.states, snapshot.states], [this.labels, snapshot.labels], [this.members, snapshot.members], [this.tasks, snapshot.tasks]] as const) {
      for (const row of rows) map.set(row.uuid, row);
    }
    this.cursor = snapshot.delta_cursor;
  }

  apply(change: Change): void {
    const collections: Record<string, Map<string, Row>> = { state: this.states, label: this.labels, board_member: this.members, task: this.tasks };
    if (change.object_kind === 'board') {
      if (change.snapshot) this.board = change.snapshot;
      return;
    }
    const map = collections[change.object_kind];
    if (!map) return; // relations, participants, comments: not kept by this client
    const gone = change.snapshot === null || (change.object_kind === 'task' && (change.snapshot.archived_at !== null || change.snapshot.board !== this.#uuid));
    if (gone) map.delete(change.object_uuid);
    else map.set(change.object_uuid, change.snapshot!);
  }

  /** The replica in the snapshot's order. */
  view() {
    const states = [...this.states.values()].sort((a, b) => Number(a.position) - Number(b.position) || cmp(a.uuid, b.uuid));
    const column = new Map(states.map((s, i) => [s.uuid, i]));
    return {
      board: this.board,
      states,
      labels: [...this.labels.values()].sort((a, b) => cmp(String(a.name).trim().toLowerCase(), String(b.name).trim().toLowerCase()) || cmp(a.uuid, b.uuid)),
      members: [...this.members.values()].sort((a, b) => cmp(String(a.created_at), String(b.created_at)) || cmp(a.uuid, b.uuid)),
      tasks: [...this.tasks.values()].sort((a, b) => column.get(a.state as string)! - column.get(b.state as string)! || cmp(String(a.rank), String(b.rank)) || cmp(a.uuid, b.uuid)),
    };
  }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const pick = fc.nat(1_000_000);
const op = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant('create' as const), state: pick, label: fc.option(pick), onOther: fc.boolean() }) },
  { weight: 5, arbitrary: fc.record({ op: fc.constant('update' as const), task: pick, title: fc.string({ minLength: 1, maxLength: 30 }), priority: fc.option(fc.integer({ min: 1, max: 5 })), label: fc.option(pick) }) },
  { weight: 5, arbitrary: fc.record({ op: fc.constant('move' as const), task: pick, state: pick, after: fc.option(pick) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('archive' as const), task: pick }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('restore' as const), task: pick }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), task: pick }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('out' as const), task: pick }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('in' as const), task: pick }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('label' as const), label: pick, archive: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('state' as const), state: pick }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('poll' as const), client: pick, pageSize: fc.integer({ min: 1, max: 40 }), drain: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('join' as const) }) },
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

describe('Plan delta feed replay (property)', () => {
  let app: TaskApp;
  const newBoard = boardMaker(() => app, 'R');
  beforeAll(async () => {
    app = await startTaskApp();
  });
  afterAll(async () => app.t.close());

  it('snapshot + deltas equals a fresh snapshot after 1,000 random changes', { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1000, maxLength: 1000 }), async (ops) => {
        const { call, acme } = app;
        const key = acme.adminKey;
        const a = await newBoard();
        const b = await newBoard();
        const board = a.board.uuid;
        const snapshot = async (): Promise<Snapshot> => {
          const res = await call('GET', `/v1/plan/boards/${board}/board/`, key);
          expect(res.status).toBe(200);
          return res.body;
        };
        const poll = async (replica: Replica, pageSize: number, drain: boolean) => {
          for (;;) {
            const res = await call('GET', `/v1/plan/boards/${board}/delta/?cursor=${replica.cursor}&page_size=${pageSize}`, key);
            expect(res.status).toBe(200);
            for (const change of res.body.results) replica.apply(change);
            replica.cursor = res.body.cursor;
            if (!drain || !res.body.has_more) return;
          }
        };
        const ok = <R extends { status: number; text: string }>(res: R, what: string): R => {
          if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
          return res;
        };
        const stateIds = Object.values(a.states);
        const otherStates = Object.values(b.states);
        const live: string[] = [];
        const archived: string[] = [];
        const elsewhere: string[] = [];
        const labels: string[] = [];
        const replicas = [new Replica(await snapshot())];
        const nth = <T>(list: T[], n: number): T => list[n % list.length];
        const take = (list: string[], n: number) => list.splice(n % list.length, 1)[0];
        let made = 0;

        for (const step of ops as Op[]) {
          switch (step.op) {
            case 'create': {
              if (step.onOther) {
                const res = ok(await call('POST', `/v1/plan/boards/${b.board.uuid}/tasks/`, key, { title: `b${made++}`, state: nth(otherStates, step.state) }), 'create on B');
                elsewhere.push(res.body.uuid);
              } else {
                const body: Record<string, unknown> = { title: `t${made++}`, state: nth(stateIds, step.state) };
                if (step.label !== null && labels.length) body.labels = [nth(labels, step.label)];
                live.push(ok(await call('POST', `/v1/plan/boards/${board}/tasks/`, key, body), 'create').body.uuid);
              }
              break;
            }
            case 'update': {
              if (!live.length) break;
              const body: Record<string, unknown> = { title: step.title.trim() || 'x', priority: step.priority };
              if (step.label !== null) body.labels = labels.length ? [nth(labels, step.label)] : [];
              ok(await call('PATCH', `/v1/plan/tasks/${nth(live, step.task)}/`, key, body), 'update');
              break;
            }
            case 'move': {
              if (!live.length) break;
              const body: Record<string, unknown> = { state: nth(stateIds, step.state) };
              if (step.after !== null) {
                const neighbour = (await call('GET', `/v1/plan/boards/${board}/tasks/?state=${body.state}&page_size=5`, key)).body.results?.[0];
                if (neighbour && neighbour.uuid !== nth(live, step.task)) body.after = neighbour.uuid;
              }
              ok(await call('POST', `/v1/plan/tasks/${nth(live, step.task)}/move/`, key, body), 'move');
              break;
            }
            case 'archive':
              if (live.length) {
                const task = take(live, step.task);
                ok(await call('POST', `/v1/plan/tasks/${task}/archive/`, key), 'archive');
                archived.push(task);
              }
              break;
            case 'restore':
              if (archived.length) {
                const task = take(archived, step.task);
                ok(await call('POST', `/v1/plan/tasks/${task}/restore/`, key), 'restore');
                live.push(task);
              }
              break;
            case 'delete': {
              const from = archived.length && step.task % 3 === 0 ? archived : live;
              if (from.length) ok(await call('DELETE', `/v1/plan/tasks/${take(from, step.task)}/`, key), 'delete');
              break;
            }
            case 'out':
              if (live.length) {
                const task = take(live, step.task);
                ok(await call('POST', `/v1/plan/tasks/${task}/move-board/`, key, { board: b.board.uuid }), 'move out');
                elsewhere.push(task);
              }
              break;
            case 'in':
              if (elsewhere.length) {
                const task = take(elsewhere, step.task);
                ok(await call('POST', `/v1/plan/tasks/${task}/move-board/`, key, { board, state: nth(stateIds, step.task) }), 'move in');
                live.push(task);
              }
              break;
            case 'label':
              if (!labels.length || step.label % 3 === 0) {
                labels.push(ok(await call('POST', `/v1/plan/boards/${board}/labels/`, key, { name: `label ${made++}` }), 'label').body.uuid);
              } else if (step.archive && labels.length > 1) {
                ok(await call('POST', `/v1/plan/boards/${board}/labels/${take(labels, step.label)}/archive/`, key), 'label archive');
              } else {
                ok(await call('PATCH', `/v1/plan/boards/${board}/labels/${nth(labels, step.label)}/`, key, { name: `Label ${made++}` }), 'label rename');
              }
              break;
            case 'state':
              ok(await call('PATCH', `/v1/plan/boards/${board}/states/${nth(stateIds, step.state)}/`, key, { name: `State ${made++}` }), 'state rename');
              break;
            case 'poll':
              await poll(nth(replicas, step.client), step.pageSize, step.drain);
              break;
            case 'join':
              if (replicas.length < 4) replicas.push(new Replica(await snapshot()));
              break;
          }
        }
        const fresh = await snapshot();
        const expected = { board: fresh.board, states: fresh.states, labels: fresh.labels, members: fresh.members, tasks: fresh.tasks };
        expect(fresh.tasks.length).toBe(live.length);
        for (const replica of replicas) {
          await poll(replica, 100, true);
          expect(replica.view()).toEqual(expected);
        }
      }),
      // One run is 1,000 HTTP calls: shrinking a failure would replay thousands; the seed and path reproduce it.
      { numRuns: 1, endOnFailure: true },
    );
  });
});
