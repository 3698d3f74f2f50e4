import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';

/** The web app's files as the API serves them (http/web-app.ts), from a built folder laid out as app/build.ts writes it. */
describe('the web app at /app/', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-appdir-'));
  const script = 'console.log("app");'.repeat(50);
  let t: TestApp;
  beforeAll(async () => {
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="app"></div>');
    fs.writeFileSync(path.join(dir, 'assets/app-X1.js'), script);
    fs.writeFileSync(path.join(dir, 'assets/app-X1.js.gz'), gzipSync(script));
    fs.writeFileSync(path.join(dir, 'assets/app-X1.js.br'), brotliCompressSync(script));
    t = await startTestApp({ appDir: dir });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const get = (p: string, headers: Record<string, string> = {}) => fetch(`${t.url}${p}`, { headers, redirect: 'manual' });

  it('answers the one page for every address under /app/, with a strict CSP and no caching', async () => {
    for (const address of ['/app/', '/app/boards/0190c8f4-0000-7000-8000-000000000000/', '/app/anything/else']) {
      const res = await get(address);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('<!doctype html><div id="app"></div>');
      expect(res.headers.get('content-security-policy')).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
      );
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
    const bare = await get('/app');
    expect(bare.status).toBe(302);
    expect(bare.headers.get('location')).toBe('/app/');
  });

  it('sends hashed assets for a year, brotli or gzip as accepted, and 404 for anything else under /app/assets/', async () => {
    const br = await get('/app/assets/app-X1.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    expect(await br.text()).toBe(script);
    const gz = await get('/app/assets/app-X1.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(await gz.text()).toBe(script);
    const plain = await get('/app/assets/app-X1.js', { 'accept-encoding': 'identity' });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await plain.text()).toBe(script);
    for (const missing of ['/app/assets/nope.js', '/app/assets/..%2Findex.html', '/app/assets/']) {
      expect((await get(missing)).status, missing).toBe(404);
    }
  });

  it('says how to build the app when it is not built, and leaves the API alone', async () => {
    const empty = await startTestApp({ appDir: path.join(dir, 'missing') });
    try {
      const res = await fetch(`${empty.url}/app/`);
      expect(res.status).toBe(503);
      expect(await res.text()).toContain('npm run build -w app');
      expect((await fetch(`${empty.url}/v1/openapi.json`)).status).toBe(200);
      expect((await fetch(`${empty.url}/app/`, { method: 'POST' })).status).toBe(404);
    } finally {
      await empty.close();
    }
  });
});
