import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';

describe('SITE_DIR: the API container serves the built site beside the API', () => {
  let t: TestApp;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-site-'));
  beforeAll(async () => {
    // A miniature build output: the real one comes from `npm run build -w site` and is tested there.
    fs.mkdirSync(path.join(dir, 'api'));
    fs.mkdirSync(path.join(dir, 'en'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Rollcall</title>');
    fs.writeFileSync(path.join(dir, 'en/404.html'), '<!doctype html><title>Not found</title>');
    fs.writeFileSync(path.join(dir, 'api/posts.json'), '[]');
    fs.writeFileSync(path.join(dir, '_headers'), '/api/*.json\n  Cache-Control: public, max-age=3600\n');
    t = await startTestApp({ siteDir: dir });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves pages and the indexes with the _headers rules, and leaves the API alone', async () => {
    const index = await fetch(`${t.url}/`);
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('<title>Rollcall</title>');
    const posts = await fetch(`${t.url}/api/posts.json`);
    expect(posts.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(await posts.json()).toEqual([]);
    const missing = await fetch(`${t.url}/en/nothing/`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Not found');
    expect((await t.request('GET', '/v1/me/')).body.code).toBe('credential_absent');
    expect((await t.request('GET', '/healthz')).body).toEqual({ status: 'ok' });
  });
});
