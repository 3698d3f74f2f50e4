/**
 * MCP benchmark: the same 50 agents (each with its own agent key) post the same plain report over REST
 * (POST /v1/agent-reports/) and as the MCP tool call `report` (POST /mcp, Streamable HTTP, stateless), in the same
 * run against the same `rollcall serve` process. Prints req/s and p99 of both, closed loop (BENCH_MCP_SECONDS,
 * default 15 s each), the ratio MCP ÷ REST (target ≥ 0.5), and the MCP p99 paced (each agent every
 * BENCH_AGENT_INTERVAL_MS, default 250 ms; target < 50 ms). `node api/bench/mcp.ts`, or `benchMcp()` from the runner.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runLoadProcess as runLoad, round1, summarize, withSeededServe, cpuText } from './lib.ts';
import type { EndpointResult } from './lib.ts';
import { seed } from './agents.ts';

export interface McpBenchResult {
  rest: EndpointResult;
  mcp: EndpointResult;
  paced: { intervalMs: number; offeredReqPerSec: number; rest: EndpointResult; mcp: EndpointResult };
  /** MCP req/s ÷ REST req/s, closed loop, same clients, same run. */
  ratio: number;
  non2xx: number;
  targets: { ratioAtLeast0_5: boolean; mcpP99Under50msPaced: boolean };
}

export async function benchMcp(options: { seconds?: number; print?: boolean } = {}): Promise<McpBenchResult> {
  const seconds = options.seconds ?? Number(process.env.BENCH_MCP_SECONDS ?? 15);
  const intervalMs = Number(process.env.BENCH_AGENT_INTERVAL_MS ?? 250);
  const log = options.print === false ? () => {} : (line: string) => console.log(line);
  return withSeededServe('mcp', seed, async (url, clients, dir, pid) => {
    // Warm-up of both paths (credential cache, connections, JIT), then the measurements.
    await runLoad({ url, seconds: 2, mode: 'rest-report', clients });
    await runLoad({ url, seconds: 2, mode: 'mcp-report', clients });
    const restRun = await runLoad({ url, seconds, mode: 'rest-report', clients }, pid);
    const mcpRun = await runLoad({ url, seconds, mode: 'mcp-report', clients }, pid);
    const pacedRest = await runLoad({ url, seconds, mode: 'rest-report', clients, intervalMs });
    const pacedMcp = await runLoad({ url, seconds, mode: 'mcp-report', clients, intervalMs });
    const rest = summarize('REST POST /v1/agent-reports/', restRun.latencies.report ?? [], restRun.elapsedSeconds);
    const mcp = summarize('MCP tools/call report', mcpRun.latencies['mcp report'] ?? [], mcpRun.elapsedSeconds);
    const paced = {
      intervalMs,
      offeredReqPerSec: round1((clients.length * 1000) / intervalMs),
      rest: summarize('REST POST /v1/agent-reports/', pacedRest.latencies.report ?? [], pacedRest.elapsedSeconds),
      mcp: summarize('MCP tools/call report', pacedMcp.latencies['mcp report'] ?? [], pacedMcp.elapsedSeconds),
    };
    const ratio = Math.round((mcp.reqPerSec / rest.reqPerSec) * 100) / 100;
    const result: McpBenchResult = {
      rest, mcp, paced, ratio,
      non2xx: [restRun, mcpRun, pacedRest, pacedMcp].reduce((sum, run) => sum + run.non2xx + run.errors, 0),
      targets: { ratioAtLeast0_5: ratio >= 0.5, mcpP99Under50msPaced: paced.mcp.p99Ms < 50 },
    };
    log(`MCP benchmark: ${clients.length} agents against a rollcall serve process, ${seconds} s per phase, SQLite in ${dir}`);
    const line = (m: EndpointResult) => log(`  ${m.name.padEnd(30)} ${String(m.requests).padStart(7)} req  ${String(m.reqPerSec).padStart(8)} req/s  p50 ${m.p50Ms} ms  p99 ${m.p99Ms} ms`);
    log('  closed loop (throughput):');
    [rest, mcp].forEach(line);
    log(`  ratio MCP / REST: ${ratio}; ${cpuText(restRun.serverCpu)} for REST, ${mcpRun.serverCpu?.processUs} µs for MCP`);
    log(`  open loop (latency), each agent every ${intervalMs} ms, ${paced.offeredReqPerSec} req/s offered:`);
    [paced.rest, paced.mcp].forEach(line);
    log(`  non-2xx, tool errors or errors: ${result.non2xx}`);
    const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
    log(`  targets: ratio ≥ 0.5 ${verdict(result.targets.ratioAtLeast0_5)}; MCP p99 < 50 ms paced ${verdict(result.targets.mcpP99Under50msPaced)}`);
    return result;
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await benchMcp({ print: true });
}
