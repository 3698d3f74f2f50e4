/**
 * `npm run bench`: every API benchmark in one run, each comparing against a baseline measured in the same run
 * and printing ratios. BENCH_SECONDS shortens or lengthens each load phase; BENCH_ONLY=me,checkins,… picks some.
 */
import { benchMe, printMe } from './me.ts';

const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const wanted = (name: string) => !only || only.includes(name);

console.log(`Rollcall API benchmarks: node ${process.version}, ${(await import('node:os')).cpus().length} cores`);
if (wanted('me')) printMe(await benchMe());

// Feature benchmarks register here as their issues land; each exports a function and runs alone too.
const features: [string, string, string][] = [
  ['checkins', './checkins.ts', 'benchCheckins'],
  ['deliveries', './deliveries.ts', 'benchDeliveries'],
  ['agents', './agents.ts', 'benchAgents'],
];
for (const [name, file, exported] of features) {
  if (!wanted(name)) continue;
  const module = (await import(file).catch(() => null)) as Record<string, (() => Promise<unknown>) | undefined> | null;
  if (!module?.[exported]) continue;
  console.log(`\n== ${name} ==`);
  await module[exported]!();
}
