import fs from 'node:fs';
import path from 'node:path';

/**
 * The API's import graph, read from the source text: every relative import is written with its `.ts`
 * extension (Node runs the files as they are), so a scan that resolves relative paths sees every edge, type
 * imports and dynamic imports included. Used by layers.test.ts (npm test) and, run directly, prints a report:
 * `node api/test/import-graph.ts [srcDir]`.
 */

/** The layers, lowest first: a file may import its own layer and the ones below it, never one above. */
export const LAYERS = [
  { name: 'lib', folders: ['lib'] },
  { name: 'db', folders: ['db'] },
  { name: 'auth/outbox', folders: ['auth', 'outbox'] },
  { name: 'outbound/inbound', folders: ['outbound', 'inbound'] },
  { name: 'http', folders: ['http'] },
  { name: 'features', folders: ['features'] },
  { name: 'app', folders: [] },
] as const;

export interface Edge {
  from: string;
  to: string;
  /** `import type …` or `export type … from`: erased at run time, but still a dependency of the design. */
  typeOnly: boolean;
}

const STATIC = /^[ \t]*(import|export)\s+(type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

export const isTest = (file: string) => file.endsWith('.test.ts');

export function sourceFiles(srcDir: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) found.push(path.relative(srcDir, full).split(path.sep).join('/'));
    }
  };
  walk(srcDir);
  return found.sort();
}

/** Every relative import of every file under srcDir (paths relative to srcDir, `/`-separated). */
export function importEdges(srcDir: string, files = sourceFiles(srcDir)): Edge[] {
  const edges: Edge[] = [];
  for (const file of files) {
    const text = fs.readFileSync(path.join(srcDir, file), 'utf8');
    const add = (specifier: string, typeOnly: boolean) => {
      if (!specifier.startsWith('.')) return;
      const to = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      if (to.startsWith('../')) return; // outside the source tree (the site's static server)
      edges.push({ from: file, to, typeOnly });
    };
    for (const m of text.matchAll(STATIC)) add(m[3], m[2] !== undefined);
    for (const m of text.matchAll(DYNAMIC)) {
      // Skip examples in comments (`openapi: () => import('./openapi.ts')` in a doc comment).
      const line = text.slice(text.lastIndexOf('\n', m.index) + 1, text.indexOf('\n', m.index)).trim();
      if (!/^(\*|\/\/|\/\*)/.test(line)) add(m[1], false);
    }
  }
  return edges;
}

/**
 * The unit a file belongs to: each folder under features/ (`features/agents`, and for a sub-API each resource,
 * `features/plan/tasks`), each top-level folder (`http`), and each top-level file on its own.
 */
export function unitOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'features') return parts.length > 2 ? parts.slice(0, -1).join('/') : file;
  return parts.length > 1 ? parts[0] : file;
}

/** A file inside a feature's folder (not the feature list, features/index.ts). */
export const inFeature = (file: string) => file.startsWith('features/') && file.split('/').length > 2;

export function layerOf(file: string): number {
  const top = file.split('/')[0];
  const index = LAYERS.findIndex((layer) => (layer.folders as readonly string[]).includes(top));
  return index === -1 ? LAYERS.length - 1 : index;
}

/** Strongly connected components with more than one member (or a self-loop): the import loops. */
export function loops(edges: { from: string; to: string }[]): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    if (!graph.has(from)) graph.set(from, new Set());
    if (!graph.has(to)) graph.set(to, new Set());
    graph.get(from)!.add(to);
  }
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indices.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)!) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, indices.get(w)!));
      }
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)!.has(v)) found.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!indices.has(v)) visit(v);
  return found;
}

/** The counts the report prints (and the structure issue's note quotes, before and after). */
export function summary(srcDir: string) {
  const edges = importEdges(srcDir).filter((e) => !isTest(e.from));
  const upward = edges.filter((e) => layerOf(e.to) > layerOf(e.from));
  const betweenFeatures = edges.filter((e) => inFeature(e.from) && inFeature(e.to) && unitOf(e.from) !== unitOf(e.to));
  const unitEdges = edges.filter((e) => unitOf(e.from) !== unitOf(e.to)).map((e) => ({ from: unitOf(e.from), to: unitOf(e.to) }));
  const count = (list: { from: string; to: string }[]) => {
    const counts = new Map<string, number>();
    for (const e of list) counts.set(`${e.from} -> ${e.to}`, (counts.get(`${e.from} -> ${e.to}`) ?? 0) + 1);
    return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  };
  return {
    files: new Set(edges.map((e) => e.from)).size,
    imports: edges.length,
    upward,
    upwardByUnit: count(upward.map((e) => ({ from: unitOf(e.from), to: unitOf(e.to) }))),
    betweenFeatures: count(betweenFeatures.map((e) => ({ from: unitOf(e.from), to: unitOf(e.to) }))),
    betweenFeatureFiles: betweenFeatures.length,
    fileLoops: loops(edges),
    unitLoops: loops(unitEdges),
    featureLoops: loops(betweenFeatures.map((e) => ({ from: unitOf(e.from), to: unitOf(e.to) }))),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const srcDir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../src'));
  const s = summary(srcDir);
  console.log(`${s.files} source files, ${s.imports} relative imports (tests left out)`);
  console.log(`\nimports against the layers (a lower layer importing a higher one): ${s.upward.length}, in ${s.upwardByUnit.length} folder pairs`);
  for (const [pair, n] of s.upwardByUnit) console.log(`  ${String(n).padStart(3)}  ${pair}`);
  console.log(`\nimports between feature folders: ${s.betweenFeatureFiles}, in ${s.betweenFeatures.length} folder pairs`);
  for (const [pair, n] of s.betweenFeatures) console.log(`  ${String(n).padStart(3)}  ${pair}`);
  console.log(`\nfile import loops: ${s.fileLoops.length}`);
  for (const loop of s.fileLoops) console.log(`  ${loop.join(' ↔ ')}`);
  console.log(`\nfolder loops (features/<area> and top-level folders): ${s.unitLoops.length}`);
  for (const loop of s.unitLoops) console.log(`  ${loop.join(' ↔ ')}`);
  console.log(`\nloops between feature folders: ${s.featureLoops.length}`);
  for (const loop of s.featureLoops) console.log(`  ${loop.join(' ↔ ')}`);
}
