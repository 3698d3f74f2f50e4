/**
 * A closed-loop HTTP load generator for benchmarks whose clients differ (each agent has its own key and body):
 * `clients` keep-alive connections, each sending its next request when the previous answer arrived, for
 * `seconds`. Runs as its own process (node:http, not fetch: fetch's per-request cost would make the client the
 * bottleneck), reads its job as JSON on stdin and prints per-endpoint latencies as JSON on stdout.
 */
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface LoadClient {
  key: string;
  agentName: string;
  coAuthor: string;
  /** `kudos` mode: the team this client gives kudos to. */
  team?: string;
  /** `plan` mode: the board this client manages. */
  board?: string;
  /** `tasks` mode: whether this client writes tasks or lists them; `sync` mode: writes tasks or polls a delta feed. */
  role?: 'writer' | 'lister' | 'poller';
  /** `tasks` mode: a person to filter lists by owner. */
  owner?: string;
}

/** `tasks` mode: the board all clients work on, and what its lists filter by. */
export interface TasksTarget {
  board: string;
  /** Columns writers move their tasks into, and columns listers filter by. */
  moveTo: string[];
  states: string[];
  labels: string[];
  /** Words of the seeded titles and descriptions, for searches. */
  words: string[];
}

/** `sync` mode: the boards whose delta feeds are polled and written, and the pace of each role. */
export interface SyncTarget {
  boards: { uuid: string; states: string[] }[];
  /** Each poller asks for its board's changes every pollMs (100 a page: one page holds what pollMs brings). */
  pollMs: number;
  /** Each writer writes every writeMs. */
  writeMs: number;
}

export interface LoadJob {
  url: string;
  seconds: number;
  /**
   * `me`: GET /v1/me/ only (the baseline); `agents`: each client alternates a report and a health check; `kudos`:
   * each client gives kudos to its team; `plan`: each client cycles through creating a label, listing labels,
   * creating a state and listing states on its board, every write with an Idempotency-Key of its own; `tasks`:
   * writers cycle through creating a task, moving it to another column and patching it, listers through a list
   * filtered by state and label, one by owner and label, and a search; `rest-report` and `mcp-report`: the same
   * plain agent report, as POST /v1/agent-reports/ or as the MCP tool call `report` on POST /mcp.
   */
  mode: 'me' | 'agents' | 'kudos' | 'plan' | 'tasks' | 'sync' | 'search' | 'rest-report' | 'mcp-report';
  /** `tasks` mode: the board and its filters; `search` mode: its words. */
  tasks?: TasksTarget;
  /**
   * `sync` mode: pollers read their board's snapshot, then poll its delta feed from the snapshot's cursor; writers
   * create, patch and move tasks on their board, each create and patch with a title of its own, and the generator
   * notes when a poller first sees that title in the feed (`visibility`). `search`: GET /v1/plan/search/?q=.
   */
  sync?: SyncTarget;
  /** `plan` mode: makes this run's names and Idempotency-Keys its own (a later run must not replay them). */
  runId?: string;
  /** `agents` mode: whether each report names the client's co-author (merged into their stand-up) or nobody. */
  coAuthored?: boolean;
  /** Open loop: each client starts a request every intervalMs whether or not the last one answered. */
  intervalMs?: number;
  clients: LoadClient[];
}

export interface LoadOutput {
  latencies: Record<string, number[]>;
  /** `sync` mode: per tracked write, ms from its answer to the first delta answer that showed it (0 if shown before). */
  visibility?: number[];
  /** `sync` mode: tracked writes no poller saw before the end. */
  unseen?: number;
  non2xx: number;
  errors: number;
  elapsedSeconds: number;
}

interface Request {
  name: string;
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
  /** Reads the answer's body (most requests discard it unread). */
  onAnswer?: (status: number, body: string) => void;
}

/** `tasks` mode: the key of the task each writer created last. */
const lastTask = new Map<number, string>();

function tasksRequest(job: LoadJob, client: LoadClient, c: number, n: number): Request {
  const target = job.tasks!;
  const pick = <T>(list: T[], i: number): T => list[i % list.length];
  const board = `/v1/plan/boards/${target.board}/tasks/`;
  if (client.role === 'lister') {
    switch (n % 3) {
      case 0:
        return { name: 'list: state + label', method: 'GET', path: `${board}?state=${pick(target.states, c + n)}&label=${pick(target.labels, c * 7 + n)}` };
      case 1:
        return { name: 'list: owner + label', method: 'GET', path: `${board}?owner=${client.owner}&label=${pick(target.labels, c + n * 3)}` };
      default:
        return { name: 'search', method: 'GET', path: `${board}?search=${encodeURIComponent(pick(target.words, c * 13 + n))}` };
    }
  }
  const key = lastTask.get(c);
  if (n % 3 === 0 || !key) {
    const id = `${job.runId ?? 'run'}-${c}-${n}`;
    return {
      name: 'create',
      method: 'POST',
      path: board,
      body: JSON.stringify({ title: `${pick(target.words, c + n)} ${pick(target.words, n * 5)} ${id}`, labels: [pick(target.labels, n)], priority: 1 + (n % 5) }),
      headers: { 'idempotency-key': `bench-${id}` },
      onAnswer: (status, body) => {
        if (status === 201) lastTask.set(c, (JSON.parse(body) as { key: string }).key);
      },
    };
  }
  if (n % 3 === 1) return { name: 'move', method: 'POST', path: `/v1/plan/tasks/${key}/move/`, body: JSON.stringify({ state: pick(target.moveTo, c + n) }) };
  return { name: 'patch', method: 'PATCH', path: `/v1/plan/tasks/${key}/`, body: JSON.stringify({ title: `Patched ${c}-${n}`, priority: 1 + (n % 5) }) };
}

function planRequest(job: LoadJob, client: LoadClient, c: number, n: number): Request {
  const board = `/v1/plan/boards/${client.board}`;
  const id = `${job.runId ?? 'run'}-${c}-${n}`;
  const idempotent = { 'idempotency-key': `bench-${id}` };
  switch (n % 4) {
    case 0:
      return { name: 'label write', method: 'POST', path: `${board}/labels/`, body: JSON.stringify({ name: `label ${id}`, color: '#5E6AD2' }), headers: idempotent };
    case 1:
      return { name: 'label read', method: 'GET', path: `${board}/labels/` };
    case 2:
      return { name: 'state write', method: 'POST', path: `${board}/states/`, body: JSON.stringify({ name: `state ${id}`, category: 'in_progress' }), headers: idempotent };
    default:
      return { name: 'state read', method: 'GET', path: `${board}/states/` };
  }
}

/** `sync` mode: each poller's cursor; per tracked write, when its answer came and when a poller first saw it. */
const cursors = new Map<number, string>();
const answered = new Map<string, number>();
const seen = new Map<string, number>();
const TOKEN = /\[(w\d+-\d+)\]/;

function syncRequest(job: LoadJob, client: LoadClient, c: number, n: number): Request {
  const boards = job.sync!.boards;
  const board = boards[c % boards.length];
  const cursor = cursors.get(c);
  if (client.role === 'poller') {
    const onAnswer = (status: number, body: string) => {
      if (status !== 200) return;
      const at = performance.now();
      const answer = JSON.parse(body) as { delta_cursor?: string; cursor?: string; results?: { snapshot: { title?: string } | null }[] };
      cursors.set(c, (answer.delta_cursor ?? answer.cursor)!);
      for (const change of answer.results ?? []) {
        const token = change.snapshot?.title?.match(TOKEN)?.[1];
        if (token && !seen.has(token)) seen.set(token, at);
      }
    };
    if (!cursor) return { name: 'snapshot', method: 'GET', path: `/v1/plan/boards/${board.uuid}/board/`, onAnswer };
    return { name: 'delta', method: 'GET', path: `/v1/plan/boards/${board.uuid}/delta/?cursor=${cursor}&page_size=100`, onAnswer };
  }
  const token = `w${c}-${n}`;
  const track = (status: number, body: string) => {
    if (status < 200 || status >= 300) return;
    answered.set(token, performance.now());
    if (status === 201) lastTask.set(c, (JSON.parse(body) as { key: string }).key);
  };
  const key = lastTask.get(c);
  if (n % 3 === 0 || !key) {
    return { name: 'write: create', method: 'POST', path: `/v1/plan/boards/${board.uuid}/tasks/`, body: JSON.stringify({ title: `Task [${token}]` }), onAnswer: track };
  }
  if (n % 3 === 1) return { name: 'write: patch', method: 'PATCH', path: `/v1/plan/tasks/${key}/`, body: JSON.stringify({ title: `Renamed [${token}]` }), onAnswer: track };
  return { name: 'write: move', method: 'POST', path: `/v1/plan/tasks/${key}/move/`, body: JSON.stringify({ state: board.states[n % board.states.length] }) };
}

/** `sync` mode: visibility of every tracked write, and how many were never seen. */
export function syncVisibility(): { visibility: number[]; unseen: number } {
  const visibility: number[] = [];
  let unseen = 0;
  for (const [token, at] of answered) {
    const first = seen.get(token);
    if (first === undefined) unseen++;
    else visibility.push(Math.max(0, first - at));
  }
  return { visibility, unseen };
}

function nextRequest(job: LoadJob, client: LoadClient, c: number, n: number): Request {
  if (job.mode === 'me') return { name: 'me', method: 'GET', path: '/v1/me/' };
  if (job.mode === 'sync') return syncRequest(job, client, c, n);
  if (job.mode === 'search') {
    const words = job.tasks!.words;
    return { name: 'search', method: 'GET', path: `/v1/plan/search/?q=${encodeURIComponent(words[(c * 13 + n) % words.length])}` };
  }
  if (job.mode === 'plan') return planRequest(job, client, c, n);
  if (job.mode === 'tasks') return tasksRequest(job, client, c, n);
  if (job.mode === 'kudos') return { name: 'kudos', method: 'POST', path: '/v1/kudos/', body: JSON.stringify({ content: `Thanks for release ${n}!`, teams_receivers: [client.team] }) };
  if (job.mode === 'rest-report' || job.mode === 'mcp-report') return reportRequest(job.mode, client, n);
  if ((n + c) % 2 === 0) {
    const body = JSON.stringify({
      agent_name: client.agentName,
      content: `Run ${n}: built and tested`,
      structured: { completed: [`Build ${n} passed`], in_progress: [`Deploy ${n}`], blockers: [] },
      metadata: { run: n },
      co_authors: job.coAuthored === false ? [] : [client.coAuthor],
    });
    return { name: 'report', method: 'POST', path: '/v1/agent-reports/', body };
  }
  return { name: 'health', method: 'POST', path: '/v1/agent-health/', body: JSON.stringify({ agent_name: client.agentName, ok: true, message: `step ${n}` }) };
}

/** The plain report of `agents` mode, over REST or as an MCP tool call (a tool error counts as a non-2xx). */
function reportRequest(mode: 'rest-report' | 'mcp-report', client: LoadClient, n: number): Request {
  const report = { agent_name: client.agentName, content: `Run ${n}: built and tested`, structured: { completed: [`Build ${n} passed`], in_progress: [`Deploy ${n}`], blockers: [] }, metadata: { run: n } };
  if (mode === 'rest-report') return { name: 'report', method: 'POST', path: '/v1/agent-reports/', body: JSON.stringify(report) };
  return {
    name: 'mcp report',
    method: 'POST',
    path: '/mcp',
    body: JSON.stringify({ jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: 'report', arguments: report } }),
    headers: { accept: 'application/json, text/event-stream' },
    onAnswer: (_status, body) => {
      if (!body.includes('"structuredContent"') || body.includes('"isError":true')) toolErrors++;
    },
  };
}
let toolErrors = 0;

export async function runLoad(job: LoadJob): Promise<LoadOutput> {
  const target = new URL(job.url);
  const latencies: Record<string, number[]> = {};
  let non2xx = 0;
  let errors = 0;
  let snapshotsDoneAt = 0;
  const pollers = job.clients.filter((client) => client.role === 'poller').length;

  function send(agent: http.Agent, client: LoadClient, request: Request): Promise<void> {
    const headers: Record<string, string | number> = { 'x-api-key': client.key, accept: 'application/json', ...request.headers };
    if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(request.body);
    }
    const started = performance.now();
    // The delta feed once every poller has its snapshot, printed beside the whole phase's.
    const afterSnapshots = request.name === 'delta' && snapshotsDoneAt > 0 && started > snapshotsDoneAt;
    return new Promise((resolve) => {
      const req = http.request({ host: target.hostname, port: target.port, method: request.method, path: request.path, headers, agent }, (res) => {
        let answer = '';
        res.on('data', request.onAnswer ? (chunk: Buffer) => void (answer += chunk.toString()) : () => {});
        res.on('end', () => {
          (latencies[request.name] ??= []).push(performance.now() - started);
          if (afterSnapshots) (latencies['delta after the snapshots'] ??= []).push(performance.now() - started);
          if (request.name === 'snapshot' && latencies.snapshot.length === pollers) snapshotsDoneAt = performance.now();
          request.onAnswer?.(res.statusCode!, answer);
          if (res.statusCode! < 200 || res.statusCode! >= 300) non2xx++;
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(request.body);
    });
  }

  const started = performance.now();
  const deadline = started + job.seconds * 1000;
  await Promise.all(
    job.clients.map(async (client, c) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: job.intervalMs ? 8 : 1 });
      try {
        if (job.mode === 'sync') {
          // One request at a time (a poller needs the cursor of its last answer), started every pollMs or writeMs.
          const interval = client.role === 'poller' ? job.sync!.pollMs : job.sync!.writeMs;
          // Writers stop two polls early, so every write they made has had its chance to be seen.
          const until = client.role === 'poller' ? deadline : deadline - 2 * job.sync!.pollMs;
          let next = started + (interval * c) / job.clients.length;
          for (let n = 0; performance.now() < until; n++) {
            const wait = next - performance.now();
            if (wait > 0) await new Promise((r) => setTimeout(r, wait));
            await send(agent, client, nextRequest(job, client, c, n));
            next = Math.max(next + interval, performance.now() - interval);
          }
          return;
        }
        if (!job.intervalMs) {
          for (let n = 0; performance.now() < deadline; n++) await send(agent, client, nextRequest(job, client, c, n));
          return;
        }
        const interval = job.intervalMs;
        const offset = (interval * c) / job.clients.length; // spread the clients over one interval
        const inFlight: Promise<void>[] = [];
        for (let n = 0; ; n++) {
          const at = started + offset + n * interval;
          if (at >= deadline) break;
          const wait = at - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          inFlight.push(send(agent, client, nextRequest(job, client, c, n)));
        }
        await Promise.all(inFlight);
      } finally {
        agent.destroy();
      }
    }),
  );
  return { latencies, non2xx: non2xx + toolErrors, errors, elapsedSeconds: (performance.now() - started) / 1000, ...(job.mode === 'sync' ? syncVisibility() : {}) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  process.stdout.write(JSON.stringify(await runLoad(JSON.parse(input) as LoadJob)));
}
