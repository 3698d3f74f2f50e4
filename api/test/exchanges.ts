import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { RouteInfo } from '../src/app.ts';

/**
 * The tests' real exchanges, recorded for the OpenAPI examples. `npm run examples -w api` runs the suite with
 * ROLLCALL_RECORD_EXCHANGES naming a directory; each test process appends the successful exchanges it makes
 * through the harness's `request` there, one JSON line each. Nothing is recorded otherwise.
 */
const DIR = process.env.ROLLCALL_RECORD_EXCHANGES || null;
const API_DIR = path.resolve(import.meta.dirname, '..');
let sequence = 0;

export interface Body {
  content_type: string;
  body: unknown;
}

export interface RecordedExchange {
  /** Test file, relative to api/, and the test's full name. */
  file: string;
  test: string;
  /** Order within the test process (and so within the file). */
  sequence: number;
  /** The route as the router declares it: `GET /v1/teams/:uuid/`. */
  method: string;
  route: string;
  /** The test asked for this exchange to be its operation's example (`request(…, { example: true })`). */
  chosen: boolean;
  request?: Body;
  response: Body & { status: number };
}

const matchers = new WeakMap<RouteInfo[], { method: string; path: string; pattern: RegExp; params: number }[]>();

/** The declared route a request reached: literal segments win over parameters, as in the routers. */
export function routeOf(routes: RouteInfo[], method: string, pathname: string): RouteInfo | null {
  let compiled = matchers.get(routes);
  if (!compiled) {
    compiled = routes.map((r) => ({
      ...r,
      pattern: new RegExp(`^${r.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, '[^/]+')}$`),
      params: (r.path.match(/:\w+/g) ?? []).length,
    }));
    matchers.set(routes, compiled);
  }
  const candidates = [pathname, pathname.endsWith('/') ? pathname : `${pathname}/`];
  const found = compiled.filter((r) => r.method === method && candidates.some((p) => r.pattern.test(p))).sort((a, b) => a.params - b.params)[0];
  return found ? { method: found.method, path: found.path } : null;
}

const TEXTUAL = /^(application\/(json|javascript|xml)|text\/|message\/)/;

export function recordExchange(routes: RouteInfo[], method: string, url: string, request: Body | undefined, response: Body & { status: number }, chosen: boolean): void {
  if (!DIR || response.status < 200 || response.status >= 300) return;
  const route = routeOf(routes, method, new URL(url, 'http://x').pathname);
  if (!route) return;
  const state = expect.getState();
  const exchange: RecordedExchange = {
    file: path.relative(API_DIR, state.testPath ?? 'unknown'),
    test: state.currentTestName ?? '',
    sequence: sequence++,
    method: route.method,
    route: route.path,
    chosen,
    ...(request ? { request } : {}),
    response: { ...response, body: TEXTUAL.test(response.content_type) ? response.body : null },
  };
  fs.appendFileSync(path.join(DIR, `${process.pid}.jsonl`), `${JSON.stringify(exchange)}\n`);
}
