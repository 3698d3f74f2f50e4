/**
 * `npm run examples -w api [-- --all] [-- <test files>]`: the OpenAPI document's examples, from the tests.
 *
 * Runs the API suite on SQLite with ROLLCALL_RECORD_EXCHANGES set (test/exchanges.ts records every successful
 * exchange made through the harness's `request`), then writes one file per operation to api/src/openapi/examples/
 * named by its operationId. For each operation it takes the exchange a test marked with `{ example: true }`, else
 * the first one, in test-file order, whose answer is not empty. An example already there is kept while its shape
 * (keys and types) is still what the tests show, so unrelated changes do not rewrite it; `--all` rewrites every
 * one. Examples of operations that no longer exist are removed. Operations no test reaches are listed. Every
 * example is written in documentation values (src/openapi/example-values.ts: example.com hosts, lower-case
 * addresses).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { EXAMPLES_DIR, loadExamples, loadParts } from '../src/openapi/catalog.ts';
import { documentationValues } from '../src/openapi/example-values.ts';
import { operationId, operationName } from '../src/http/openapi/document.ts';
import type { Operation, OperationExample } from '../src/http/openapi/types.ts';
import type { RecordedExchange } from '../test/exchanges.ts';

const API_DIR = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const rewriteAll = args.includes('--all');
const testFiles = args.filter((arg) => !arg.startsWith('--'));

/** Tests whose requests are deliberately strange make poor examples. */
const NOT_EXAMPLES = ['test/robustness.test.ts'];

function record(): RecordedExchange[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-exchanges-'));
  const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  const run = spawnSync(process.execPath, [vitest, 'run', '--project', 'sqlite', ...testFiles], {
    cwd: API_DIR,
    env: { ...process.env, ROLLCALL_RECORD_EXCHANGES: dir },
    stdio: 'inherit',
  });
  if (run.status !== 0) process.stderr.write('\nSome tests failed: the examples come from the exchanges that were recorded.\n');
  const exchanges = fs
    .readdirSync(dir)
    .flatMap((file) => fs.readFileSync(path.join(dir, file), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as RecordedExchange);
  fs.rmSync(dir, { recursive: true, force: true });
  return exchanges.sort((a, b) => (a.file === b.file ? a.sequence - b.sequence : a.file < b.file ? -1 : 1));
}

const isEmpty = (body: unknown): boolean =>
  body === '' || body === null || (Array.isArray(body) && body.length === 0) ||
  (typeof body === 'object' && body !== null && Array.isArray((body as { results?: unknown }).results) && (body as { results: unknown[] }).results.length === 0);

/**
 * An example shows a shape, not a data set: lists cut to two items, and so are maps of many entries (an object
 * of more than 20 keys, such as the paths of the OpenAPI document); strings in JSON cut to 300 characters, a
 * whole text body (raw MIME, HTML) to 1,500.
 */
function trim(value: unknown, depth = 0): unknown {
  const limit = depth === 0 ? 1500 : 300;
  if (typeof value === 'string') return value.length > limit ? `${value.slice(0, limit)}…` : value;
  if (Array.isArray(value)) return value.slice(0, 2).map((item) => trim(item, depth + 1));
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    return Object.fromEntries((entries.length > 20 ? entries.slice(0, 2) : entries).map(([k, v]) => [k, trim(v, depth + 1)]));
  }
  return value;
}

/** Keys and types, recursively: what a reader of the example learns. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? [shape(value[0])] : [];
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, shape(v)]));
  return value === null ? 'null' : typeof value;
}
const sameShape = (a: OperationExample, b: OperationExample) =>
  JSON.stringify([shape(a.request?.body), a.response.status, shape(a.response.body)]) === JSON.stringify([shape(b.request?.body), b.response.status, shape(b.response.body)]);

const takesBody = (op: Operation) => Boolean(op.body || op.rawBody);

/** An operation shows an example when it takes a body or answers one; an alias shows its original's. */
const needsExample = (op: Operation) =>
  !op.alias && (takesBody(op) || Object.entries(op.responses).some(([status, schema]) => Number(status) < 400 && schema !== null));

function choose(op: Operation, exchanges: RecordedExchange[]): OperationExample | null {
  const takesBody = Boolean(op.body || op.rawBody);
  const candidates = exchanges.filter(
    (e) =>
      e.method === op.method.toUpperCase() &&
      e.route === op.path &&
      !NOT_EXAMPLES.includes(e.file) &&
      Object.hasOwn(op.responses, e.response.status) &&
      (!takesBody || e.request !== undefined),
  );
  const best = candidates.find((e) => e.chosen) ?? candidates.find((e) => !isEmpty(e.response.body)) ?? candidates[0];
  if (!best) return null;
  return {
    operation: operationName(op),
    source: `${best.file} › ${best.test}`,
    ...(takesBody && best.request ? { request: { content_type: best.request.content_type, body: documentationValues(trim(best.request.body)) } } : {}),
    response: { status: best.response.status, content_type: best.response.content_type, body: documentationValues(trim(best.response.body)) },
  };
}

/** An example kept as it is, in documentation values (one recorded before they were normalised is rewritten once). */
function keep(id: string, existing: OperationExample): void {
  const tidy = documentationValues(existing);
  if (JSON.stringify(tidy) === JSON.stringify(existing)) {
    counts.kept++;
    return;
  }
  fs.writeFileSync(path.join(EXAMPLES_DIR, `${id}.json`), `${JSON.stringify(tidy, null, 2)}\n`);
  counts.written++;
}

const operations = (await loadParts()).flatMap((part) => part.operations);
const exchanges = record();
const current = loadExamples();
const ids = new Set<string>();
const counts = { written: 0, kept: 0, removed: 0 };
const unreached: string[] = [];
fs.mkdirSync(EXAMPLES_DIR, { recursive: true });
for (const op of operations) {
  const id = operationId(op);
  ids.add(id);
  const found = choose(op, exchanges);
  const existing = Object.hasOwn(current, id) ? current[id] : null;
  if (!found) {
    if (existing) keep(id, existing);
    else if (needsExample(op)) unreached.push(operationName(op));
    continue;
  }
  if (existing && !rewriteAll && sameShape(existing, found)) {
    keep(id, existing);
    continue;
  }
  fs.writeFileSync(path.join(EXAMPLES_DIR, `${id}.json`), `${JSON.stringify(found, null, 2)}\n`);
  counts.written++;
}
// An example whose operation is gone from every openapi.ts.
for (const id of Object.keys(current)) {
  if (!ids.has(id)) {
    fs.rmSync(path.join(EXAMPLES_DIR, `${id}.json`));
    counts.removed++;
  }
}
process.stdout.write(`\nOpenAPI examples: ${counts.written} written, ${counts.kept} kept, ${counts.removed} removed (${path.relative(process.cwd(), EXAMPLES_DIR)}).\n`);
if (unreached.length) {
  process.stdout.write(`No test reaches these operations through the harness's request() with a 2xx answer:\n${unreached.map((n) => `  ${n}`).join('\n')}\n`);
  process.exitCode = 1;
}
