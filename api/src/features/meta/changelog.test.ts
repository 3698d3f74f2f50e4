import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { VERSION } from '../../lib/version.ts';
import { CHANGELOG } from './changelog.ts';

describe('the API changelog (spec "Versioning" 6)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  it('names every endpoint group the API serves', () => {
    const text = JSON.stringify(CHANGELOG);
    const groups = [...new Set(t.routes.filter((r) => r.path.startsWith('/v1/')).map((r) => r.path.split('/').slice(0, 3).join('/').replace(/\/?$/, '/')))];
    expect(groups.length).toBeGreaterThan(20);
    expect(groups.filter((group) => !text.includes(group.replace(/\.json\/$/, '.json')))).toEqual([]);
  });

  it('lists releases newest first, the newest being the server\'s version', async () => {
    expect(CHANGELOG[0].version).toBe(VERSION);
    const ordinal = (version: string) => version.split('.').reduce((sum, part) => sum * 1000 + Number(part), 0);
    const versions = CHANGELOG.map((entry) => ordinal(entry.version));
    expect(versions).toEqual([...versions].sort((a, b) => b - a));
    const res = await t.request('GET', '/v1/changelog/');
    expect(res.body.results.map((entry: { version: string }) => entry.version)).toEqual(CHANGELOG.map((entry) => entry.version));
  });
});
