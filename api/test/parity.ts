import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../src/lib/config.ts';
import { startTestApp } from './harness.ts';
import type { TestApp, TestResponse } from './harness.ts';
import { tableNames } from './database.ts';
import { callTool, connectMcp } from './mcp-client.ts';

/**
 * Credential parity (spec "Versioning" 5: an API key and a CLI Bearer token of the same user get the same
 * fields, pagination, error codes and rate-limit scopes; a difference is a defect).
 *
 * Two apps start from one copy each of the same seeded database, so the same user, with the same API key and
 * CLI token, exists in both. `compare` sends one request to the first app with the key and to the second with the
 * token, so a write changes each copy the same way, and reports every difference in status, body (ids of objects
 * the request created aside, and secrets), pagination links and rate-limit headers.
 */
export interface ParityRequest {
  method: string;
  path: string;
  body?: unknown;
  /** Sent as it is instead of `body` (a multipart upload), with its Content-Type in `headers`. */
  raw?: Buffer;
  /** Request headers both sides send (an Idempotency-Key, If-Match, a multipart Content-Type). */
  headers?: Record<string, string>;
  /** Body paths (`results.*.last_used_at`) where the two answers may differ, each for a reason given beside it. */
  differs?: string[];
}

export interface ParityWorld {
  key: string;
  token: string;
  ids: Record<string, string>;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** API keys, CLI tokens, exchange tokens, generated signing secrets, invitation and answer links: new secrets differ by nature. */
const SECRETS = /\b(rk_[0-9A-Za-z]{40}|rct_[0-9A-Za-z]{48}|rxt_[0-9A-Za-z]{48}|whsec_[0-9A-Za-z+/=]{20,})|(token=|\/checkins\/answer\/)[0-9A-Za-z]{40,43}/g;
const HEADERS = ['ratelimit-policy', 'ratelimit', 'retry-after', 'x-daily-limit', 'x-daily-remaining'];

/** Drops `path` (dot-separated, `*` for every key or item) from a parsed body. */
function drop(value: unknown, path: string[]): void {
  if (value === null || typeof value !== 'object' || path.length === 0) return;
  const [head, ...rest] = path;
  const target = value as Record<string, unknown>;
  const keys = head === '*' ? Object.keys(target) : [head];
  for (const key of keys) {
    if (!Object.hasOwn(target, key)) continue;
    if (rest.length === 0) delete target[key];
    else drop(target[key], rest);
  }
}

export async function startParityPair(overrides: Partial<Config>, seed: (t: TestApp) => Promise<ParityWorld>) {
  const seeding = await startTestApp(overrides);
  const world = await seed(seeding);
  const time = seeding.clock.now();
  // Files the seed stored (attachments) live beside the database: each app gets its own copy of them too.
  const files = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-parity-files-'));
  fs.cpSync(seeding.config.dataDir, files, { recursive: true, filter: (source) => !/\.(db|sqlite)(-wal|-shm)?$/.test(source) });
  const [first, second, third] = await seeding.closeIntoCopies(3);
  const byKey = await startTestApp(overrides, {}, {}, { database: first });
  const byToken = await startTestApp(overrides, {}, {}, { database: second });
  const byCookie = await startTestApp(overrides, {}, {}, { database: third });
  const apps = [byKey, byToken, byCookie];
  for (const app of apps) fs.cpSync(files, app.config.dataDir, { recursive: true, force: false });
  fs.rmSync(files, { recursive: true, force: true });
  for (const app of apps) app.clock.set(new Date(time.getTime() + 1000));
  const session = { cookie: `rollcall_session=${world.token}`, origin: new URL(byCookie.config.publicUrl ?? byCookie.url).origin };

  // Every uuid the seeded database holds is the same object in both apps; any other uuid is new.
  const seeded = new Set<string>();
  for (const table of await tableNames(byKey.db)) {
    if (table.startsWith('knex_') || table === 'sqlite_sequence') continue;
    for (const match of JSON.stringify(await byKey.db(table).select('*')).matchAll(UUID)) seeded.add(match[0].toLowerCase());
  }
  const fresh = [new Map<string, string>(), new Map<string, string>(), new Map<string, string>()];
  const statuses: string[] = [];

  /** The body as text with the app's own address, new ids (numbered in order of appearance) and secrets put aside. */
  function normalized(res: Pick<TestResponse, 'body' | 'text'>, app: TestApp, side: 0 | 1 | 2, differs: string[]): string {
    if (res.body === undefined) return res.text;
    const body = structuredClone(res.body);
    for (const path of differs) drop(body, path.split('.'));
    return JSON.stringify(body)
      .split(app.url)
      .join('<base>')
      .replace(SECRETS, (_, secret, prefix) => (prefix ? `${prefix}<secret>` : '<secret>'))
      .replace(UUID, (id) => {
        const lower = id.toLowerCase();
        if (seeded.has(lower)) return lower;
        if (!fresh[side].has(lower)) fresh[side].set(lower, `<new ${fresh[side].size + 1}>`);
        return fresh[side].get(lower)!;
      });
  }

  /** Sends `req` as the key to one app, as the token to the second and as the session cookie to the third; the differences, described (none: []). */
  async function compare(req: ParityRequest): Promise<string[]> {
    const options = (credential: { key: string } | { token: string } | { cookie: true }) => {
      const sent = req.raw ? { raw: req.raw } : req.method === 'GET' ? {} : { body: req.body ?? {} };
      if ('cookie' in credential) return { ...sent, headers: { ...req.headers, ...session } };
      return { ...credential, ...sent, headers: req.headers };
    };
    const a = await byKey.request(req.method, req.path, options({ key: world.key }));
    const b = await byToken.request(req.method, req.path, options({ token: world.token }));
    const c = await byCookie.request(req.method, req.path, options({ cookie: true }));
    const line = `${req.method} ${req.path}`;
    statuses.push(`${a.status} ${line}${a.status >= 400 ? ` ${a.text.slice(0, 160)}` : ''}`);
    const found: string[] = [];
    if (a.status !== b.status) found.push(`${line}: status ${a.status} with the key, ${b.status} with the token (${a.text.slice(0, 120)} | ${b.text.slice(0, 120)})`);
    const [bodyA, bodyB] = [normalized(a, byKey, 0, req.differs ?? []), normalized(b, byToken, 1, req.differs ?? [])];
    if (bodyA !== bodyB) found.push(`${line}: bodies differ\n  key:   ${bodyA.slice(0, 600)}\n  token: ${bodyB.slice(0, 600)}`);
    for (const header of HEADERS) {
      if (a.headers.get(header) !== b.headers.get(header)) found.push(`${line}: ${header} ${a.headers.get(header)} with the key, ${b.headers.get(header)} with the token`);
    }
    // The session cookie is the token: it answers as the Bearer header, status, body and headers alike.
    if (c.status !== b.status) found.push(`${line}: status ${b.status} with the token, ${c.status} with the session cookie (${c.text.slice(0, 120)})`);
    const bodyC = normalized(c, byCookie, 2, req.differs ?? []);
    if (bodyC !== bodyB) found.push(`${line}: bodies differ\n  token:  ${bodyB.slice(0, 600)}\n  cookie: ${bodyC.slice(0, 600)}`);
    for (const header of HEADERS) {
      if (c.headers.get(header) !== b.headers.get(header)) found.push(`${line}: ${header} ${b.headers.get(header)} with the token, ${c.headers.get(header)} with the session cookie`);
    }
    return found;
  }

  // The same comparison over MCP: the SDK's client on each app's /mcp, one with the key and one with the token.
  let mcp: [Client, Client] | undefined;
  /** Calls tool `name` with `args` as the key on one app and as the token on the other; the differences in its result, described. */
  async function compareTool(name: string, args: Record<string, unknown>, differs: string[] = []): Promise<{ found: string[]; result: CallToolResult }> {
    mcp ??= [await connectMcp(byKey, { 'X-API-KEY': world.key }), await connectMcp(byToken, { Authorization: `Bearer ${world.token}` })];
    const [a, b] = [await callTool(mcp[0], name, args), await callTool(mcp[1], name, args)];
    const line = `tool ${name}`;
    statuses.push(`${a.isError ? 'error' : 'ok'} ${line}${a.isError ? ` ${JSON.stringify(a.structuredContent).slice(0, 160)}` : ''}`);
    const found: string[] = [];
    if (Boolean(a.isError) !== Boolean(b.isError)) found.push(`${line}: isError ${Boolean(a.isError)} with the key, ${Boolean(b.isError)} with the token`);
    const asText = (r: CallToolResult) => ({ body: r.structuredContent, text: JSON.stringify(r.content) });
    const [bodyA, bodyB] = [normalized(asText(a), byKey, 0, differs), normalized(asText(b), byToken, 1, differs)];
    if (bodyA !== bodyB) found.push(`${line}: structured results differ\n  key:   ${bodyA.slice(0, 600)}\n  token: ${bodyB.slice(0, 600)}`);
    const [textA, textB] = [normalized({ body: a.content, text: '' }, byKey, 0, []), normalized({ body: b.content, text: '' }, byToken, 1, [])];
    if (textA !== textB) found.push(`${line}: text summaries differ\n  key:   ${textA}\n  token: ${textB}`);
    return { found, result: a };
  }

  return {
    byKey,
    byToken,
    byCookie,
    world,
    compare,
    compareTool,
    /** Each request's status with the key, in order: what the comparison covered. */
    statuses,
    close: async () => {
      for (const client of mcp ?? []) await client.close();
      for (const app of apps) await app.close();
    },
  };
}
