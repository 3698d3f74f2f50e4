/** The preview server: _headers rules, per-language 404s, directory redirects, no escaping the folder. */
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHeaders, headersFor, startServer, type RunningServer } from '../server/serve.ts';

let root: string;
let server: RunningServer;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'rollcall-serve-'));
  await mkdir(join(root, 'es/blog'), { recursive: true });
  await mkdir(join(root, 'api'));
  await writeFile(join(root, 'index.html'), 'root');
  await writeFile(join(root, '404.html'), 'global 404');
  await writeFile(join(root, 'es/404.html'), 'es 404');
  await writeFile(join(root, 'es/blog/index.html'), 'blog es');
  await writeFile(join(root, 'api/posts.json'), '[]');
  await writeFile(join(root, '_headers'), '# comment\n/api/*\n  Cache-Control: public, max-age=3600\n/api/:file\n  X-Test: yes\n');
  server = await startServer({ dir: root, port: 0 });
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

describe('parseHeaders', () => {
  it('reads splats and placeholders', () => {
    const rules = parseHeaders('/a/*\n  X-A: 1\n/b/:id/c\n  X-B: 2\n');
    expect(headersFor(rules, '/a/x/y')).toEqual({ 'x-a': '1' });
    expect(headersFor(rules, '/b/7/c')).toEqual({ 'x-b': '2' });
    expect(headersFor(rules, '/b/7/8/c')).toEqual({});
  });
});

describe('startServer', () => {
  it('applies _headers', async () => {
    const res = await fetch(`${server.url}/api/posts.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(res.headers.get('x-test')).toBe('yes');
    expect(res.headers.get('content-type')).toContain('application/json');
  });
  it('serves the 404 page of the language, with status 404', async () => {
    const res = await fetch(`${server.url}/es/nada/`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('es 404');
    const other = await fetch(`${server.url}/nothing`);
    expect(other.status).toBe(404);
    expect(await other.text()).toBe('global 404');
  });
  it('redirects directories to their trailing-slash address', async () => {
    const res = await fetch(`${server.url}/es/blog?x=1`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/es/blog/?x=1');
  });
  it('answers 304 to a matching If-None-Match', async () => {
    const first = await fetch(`${server.url}/es/blog/`);
    const again = await fetch(`${server.url}/es/blog/`, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });
  it('never serves files outside the folder or the _headers file', async () => {
    expect((await fetch(`${server.url}/..%2f..%2fetc%2fpasswd`)).status).toBe(404);
    expect((await fetch(`${server.url}/_headers`)).status).toBe(404);
  });
});
