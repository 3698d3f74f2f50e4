import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAYERS, importEdges, inFeature, isTest, layerOf, loops, sourceFiles, unitOf } from './import-graph.ts';

/**
 * The layering rules of docs/architecture.md, checked on every `npm test`: a lower layer never imports a higher
 * one, nothing imports in a loop, features depend on each other in one direction, and each rule below that a
 * feature could quietly break.
 */
const SRC = path.resolve(import.meta.dirname, '../src');
const files = sourceFiles(SRC).filter((file) => !isTest(file));
const edges = importEdges(SRC, files);
const text = (file: string) => fs.readFileSync(path.join(SRC, file), 'utf8');
const isRoutes = (file: string) => /(^|\/|-)routes\.ts$/.test(file);

describe('the structure of api/src', () => {
  it('imports only files that exist', () => {
    expect(edges.filter((e) => !fs.existsSync(path.join(SRC, e.to))).map((e) => `${e.from} → ${e.to}`)).toEqual([]);
  });

  it(`never imports from a lower layer into a higher one (${LAYERS.map((l) => l.name).join(' ← ')})`, () => {
    const upward = edges.filter((e) => layerOf(e.to) > layerOf(e.from));
    expect(upward.map((e) => `${e.from} (${LAYERS[layerOf(e.from)].name}) → ${e.to} (${LAYERS[layerOf(e.to)].name})`)).toEqual([]);
  });

  it('has no import loop, between files or between folders', () => {
    expect(loops(edges)).toEqual([]);
    expect(loops(edges.filter((e) => unitOf(e.from) !== unitOf(e.to)).map((e) => ({ from: unitOf(e.from), to: unitOf(e.to) })))).toEqual([]);
  });

  it("lets a feature use another feature's services, repositories, presenters and schemas, never its routes or declaration", () => {
    const reachingIn = edges.filter(
      (e) => inFeature(e.from) && inFeature(e.to) && unitOf(e.from) !== unitOf(e.to) && /(^|\/|-)(routes|feature|openapi)\.ts$/.test(e.to),
    );
    expect(reachingIn.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
    // Only the app reads the feature list.
    expect(edges.filter((e) => e.to === 'features/index.ts' && layerOf(e.from) !== LAYERS.length - 1).map((e) => e.from)).toEqual([]);
  });

  it('keeps the web layer in routes: services, repositories and presenters never see koa or http/', () => {
    const web = (file: string) => isRoutes(file) || /\/(schema|openapi|feature)\.ts$/.test(file);
    const offenders = files
      .filter((file) => inFeature(file) && !web(file))
      .filter((file) => /from '(koa|@koa\/router)'/.test(text(file)) || edges.some((e) => e.from === file && e.to.startsWith('http/')));
    expect(offenders).toEqual([]);
  });

  it('gives routes one shape: no transaction, no group commit and no body built in place', () => {
    const offenders = files
      .filter((file) => inFeature(file) && isRoutes(file))
      .flatMap((file) =>
        text(file)
          .split('\n')
          .map((line, i) => ({ line, at: `${file}:${i + 1}` }))
          .filter(({ line }) => /\.transaction\(|writes\.run\(|ctx\.body\s*=\s*[{[]/.test(line))
          .map(({ at, line }) => `${at} ${line.trim()}`),
      );
    expect(offenders).toEqual([]);
  });

  it('writes deliveries, their attempts and organization events only through outbox/', () => {
    const WRITE = /\(\s*'(deliveries|delivery_attempts|organization_events)'\s*\)[^;]*?\.(insert|update|delete|del|merge|truncate)\(/s;
    const offenders = files.filter((file) => !file.startsWith('outbox/') && !file.startsWith('db/migrations/') && WRITE.test(text(file)));
    expect(offenders).toEqual([]);
  });

  it("is what the README's code map says: every folder and file of api/src has its line", () => {
    const readme = fs.readFileSync(path.resolve(SRC, '../../README.md'), 'utf8');
    const map = readme.slice(readme.indexOf('## How the code is laid out'), readme.indexOf('## Tests and benchmarks'));
    const entries = fs.readdirSync(SRC, { withFileTypes: true }).map((e) => (e.isDirectory() ? `api/src/${e.name}/` : `api/src/${e.name}`));
    expect(entries.filter((entry) => !map.includes(entry))).toEqual([]);
  });

  it('schedules jobs only in jobs/index.ts, where each firing is claimed once across processes (features declare `jobs`)', () => {
    const SCHEDULING = /\bcron\.schedule\(|import\s*\{[^}]*\bschedule\b[^}]*\}\s*from\s*'node-cron'/;
    expect(files.filter((file) => file !== 'jobs/index.ts' && SCHEDULING.test(text(file)))).toEqual([]);
  });

  it('counts budgets only through db/counters.ts (one upsert, leased, exact across processes)', () => {
    const COUNTER_WRITE = /\(\s*'rate_limit_counters'\s*\)[^;]*?\.(insert|update|merge|increment|decrement)\(/s;
    const offenders = files.filter((file) => file !== 'db/counters.ts' && !file.startsWith('db/migrations/') && COUNTER_WRITE.test(text(file)));
    expect(offenders).toEqual([]);
  });

  it('keeps the rollcall client apart from the server: client/ imports only itself and lib/', () => {
    expect(edges.filter((e) => e.from.startsWith('client/') && !e.to.startsWith('client/') && !e.to.startsWith('lib/')).map((e) => `${e.from} → ${e.to}`)).toEqual([]);
  });

  it("reads the caller's role and credential kind only in the policy module", () => {
    const ROLE_CHECK = /actor\.user\.role|actor\.credential\.keyKind/;
    expect(files.filter((file) => file !== 'auth/policy.ts' && ROLE_CHECK.test(text(file)))).toEqual([]);
  });
});
