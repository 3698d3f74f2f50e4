/**
 * `npm run bench`: every API benchmark in one run, each comparing against a baseline measured in the same run
 * and printing ratios. BENCH_SECONDS sets the /v1/me/ load phases; BENCH_ONLY=me,checkins,history,insights,deliveries,agents,kudos,plan,tasks,sync,
 * backlog,scale-out,mcp,slack picks some (history: only the check-ins' history read with 10× the rows) (scale-out runs when TEST_DATABASE_URL names a PostgreSQL server). Each benchmark also runs alone: `node api/bench/<name>.ts`.
 */
import os from 'node:os';
import { benchMe, printMe } from './me.ts';
import { benchCheckins } from './checkins.ts';
import type { CheckinLoopResult } from './checkin-loop.ts';
import type { DeliveriesBenchResult } from './deliveries.ts';
import { inFreshProcess } from './fresh-process.ts';
import { benchAgents } from './agents.ts';
import { benchKudos } from './kudos.ts';
import { benchPlan } from './plan.ts';
import { benchTasks } from './tasks.ts';
import { benchSync } from './sync.ts';
import { benchBacklog } from './backlog.ts';
import { benchScaleOut } from './scale-out.ts';
import { benchMcp } from './mcp.ts';
import { benchSlack } from './slack.ts';
import { benchInsights } from './insights.ts';

const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const wanted = (name: string) => !only || only.includes(name);

console.log(`Rollcall API benchmarks: node ${process.version}, ${os.cpus().length} cores`);
if (wanted('me')) printMe(await benchMe());
if (wanted('checkins')) {
  console.log('\n== check-ins ==');
  await benchCheckins({ log: (line) => console.log(line) });
  console.log('-- the check-in loop: asking 10,000 people at once, then 10,000 web answers --');
  // Measures its own process's memory: a process of its own, as the deliveries phase (fresh-process.ts).
  await inFreshProcess<CheckinLoopResult>(new URL('./checkin-loop.ts', import.meta.url), 'benchCheckinLoop', { print: true });
}
if (wanted('history') && !wanted('checkins')) {
  console.log('\n== check-in history read ==');
  await benchCheckins({ log: (line) => console.log(line), historyOnly: true });
}
if (wanted('insights')) {
  console.log('\n== insights ==');
  await benchInsights({ print: true });
}
if (wanted('deliveries')) {
  console.log('\n== deliveries ==');
  await inFreshProcess<DeliveriesBenchResult>(new URL('./deliveries.ts', import.meta.url), 'benchDeliveries', { print: true });
}
if (wanted('agents')) {
  console.log('\n== agents ==');
  await benchAgents({ print: true });
}
if (wanted('mcp')) {
  console.log('\n== mcp ==');
  await benchMcp({ print: true });
}
if (wanted('slack')) {
  console.log('\n== slack ==');
  await benchSlack({ print: true });
}
if (wanted('kudos')) {
  console.log('\n== kudos ==');
  await benchKudos({ print: true });
}
if (wanted('plan')) {
  console.log('\n== plan ==');
  await benchPlan({ print: true });
}
if (wanted('tasks')) {
  console.log('\n== tasks ==');
  await benchTasks({ print: true });
}
if (wanted('sync')) {
  console.log('\n== sync ==');
  await benchSync({ print: true });
}
if (wanted('backlog')) {
  console.log('\n== delivery backlog ==');
  await benchBacklog({ print: true });
}
if (wanted('scale-out')) {
  console.log('\n== scale-out ==');
  await benchScaleOut({ print: true });
}
