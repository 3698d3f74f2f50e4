/**
 * The load side of the agents benchmark, on its own thread (its own event loop), so the client's work does not
 * sit in the server's event loop. Closed loop: `clients` concurrent clients, each sending its next request when
 * the previous answer arrived, for `seconds`. Posts per-endpoint latencies back to the parent.
 */
import { parentPort, workerData } from 'node:worker_threads';

interface Job {
  url: string;
  seconds: number;
  mode: 'baseline' | 'agents' | 'paced';
  /** Paced (open loop): each client sends its next request every intervalMs, whether or not the last one answered. */
  intervalMs?: number;
  clients: { key: string; agentName: string; coAuthor: string }[];
}

const job = workerData as Job;
const latencies: Record<string, number[]> = {};
let non2xx = 0;

async function timed(name: string, path: string, init: RequestInit): Promise<void> {
  const t0 = performance.now();
  const res = await fetch(`${job.url}${path}`, init);
  await res.arrayBuffer();
  (latencies[name] ??= []).push(performance.now() - t0);
  if (res.status < 200 || res.status >= 300) non2xx++;
}

function agentRequest(client: Job['clients'][number], c: number, n: number): Promise<void> {
  const headers = { 'x-api-key': client.key, 'content-type': 'application/json', accept: 'application/json' };
  if ((n + c) % 2 === 0) {
    const body = JSON.stringify({
      agent_name: client.agentName,
      content: `Run ${n}: built and tested`,
      structured: { completed: [`Build ${n} passed`], in_progress: [`Deploy ${n}`], blockers: [] },
      metadata: { run: n },
      co_authors: [client.coAuthor],
    });
    return timed('report', '/v1/agent-reports/', { method: 'POST', headers, body });
  }
  return timed('health', '/v1/agent-health/', { method: 'POST', headers, body: JSON.stringify({ agent_name: client.agentName, ok: true, message: `step ${n}` }) });
}

const deadline = performance.now() + job.seconds * 1000;
const started = performance.now();
if (job.mode === 'paced') {
  const interval = job.intervalMs ?? 250;
  await Promise.all(
    job.clients.map(async (client, c) => {
      const inFlight: Promise<void>[] = [];
      await new Promise((r) => setTimeout(r, (interval * c) / job.clients.length)); // spread the clients over one interval
      for (let n = 0; performance.now() < deadline; n++) {
        const next = started + (interval * c) / job.clients.length + (n + 1) * interval;
        inFlight.push(agentRequest(client, c, n));
        const wait = next - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      await Promise.all(inFlight);
    }),
  );
} else await Promise.all(
  job.clients.map(async (client, c) => {
    let n = 0;
    const headers = { 'x-api-key': client.key, 'content-type': 'application/json', accept: 'application/json' };
    while (performance.now() < deadline) {
      if (job.mode === 'baseline') {
        await timed('me', '/v1/me/', { headers });
      } else {
        await agentRequest(client, c, n);
      }
      n++;
    }
  }),
);
parentPort!.postMessage({ latencies, non2xx, elapsedSeconds: (performance.now() - started) / 1000 });
