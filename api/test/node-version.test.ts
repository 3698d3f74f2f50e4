import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { minimumVersion, satisfies, supportedRange, unsupportedNodeMessage } from '../bin/node-version.js';
import { BIN, REPO_DIR } from './processes.ts';

/** A Node older than the minimum on this machine (Debian's, /usr/bin/node), to run the real entry points on. */
function olderNode(): string | null {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    const version = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout?.trim();
    if (version && !satisfies(version, supportedRange())) return candidate;
  }
  return null;
}

describe('the Node.js versions Rollcall runs on, stated once', () => {
  const range: string = supportedRange();

  it('is the range engines.node states, the lowest that runs the API and its dependencies', () => {
    expect(range).toBe('^22.19.0 || >=23.8.0');
    expect(minimumVersion(range)).toBe('22.19');
    // 22.18 strips types but undici 8 declares 22.19; 23.0–23.5 strip types only behind a flag, and undici needs
    // the zlib zstd functions of 23.8 (checked on node@23.5.0, 23.6.0, 23.7.0 and 23.8.0).
    for (const version of ['20.19.5', '22.12.0', '22.18.0', '23.5.0', '23.7.0']) expect(satisfies(version, range), version).toBe(false);
    for (const version of ['22.19.0', '22.22.3', '23.8.0', '24.0.0', '26.1.0']) expect(satisfies(version, range), version).toBe(true);
    expect(satisfies(process.versions.node, range)).toBe(true);
    expect(unsupportedNodeMessage('22.12.0', range)).toBe(
      'rollcall: Node.js 22.19 or later is needed (^22.19.0 || >=23.8.0); this is 22.12.0. ' +
        'Install Node.js 24 LTS from https://nodejs.org/ or run `nvm install` in the repository (it reads .nvmrc).',
    );
  });

  it('says the same everywhere a person reads it', () => {
    const read = (file: string) => fs.readFileSync(path.join(REPO_DIR, file), 'utf8');
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { engines?: { node?: string } }> };
    expect(lock.packages[''].engines?.node).toBe(range);
    expect(read('.nvmrc').trim()).toBe('24');
    expect(read('README.md')).toContain('Node.js 22.19 or later');
    const pages = { en: 'Node.js 22.19 or later', es: 'Node.js 22.19 o posterior', pt: 'Node.js 22.19 ou posterior' };
    for (const [language, phrase] of Object.entries(pages)) {
      expect(read(`content/help/${language}/install-and-first-start.mdx`), language).toContain(phrase);
    }
    for (const file of ['README.md', 'docs/architecture.md', '.ci/run', 'content/help/en/install-and-first-start.mdx']) {
      expect(read(file), file).not.toMatch(/22\.12|Node\.js ≥/);
    }
    expect(read('.ci/run')).toContain('node api/bin/node-version.js');
  });

  it.skipIf(!olderNode())('an older Node gets one line from `rollcall` and `npm start`, not a stack trace', () => {
    const node = olderNode()!;
    const direct = spawnSync(node, [BIN, 'serve'], { encoding: 'utf8' });
    expect(direct.status).toBe(1);
    expect(direct.stderr).toMatch(/^rollcall: Node\.js 22\.19 or later is needed \(\^22\.19\.0 \|\| >=23\.8\.0\); this is [\d.]+\. Install Node\.js 24 LTS[^\n]*\n$/);
    // npm start runs `node` from PATH: the older one first.
    const env = { PATH: `${path.dirname(node)}:${process.env.PATH}`, HOME: process.env.HOME ?? '/tmp' };
    const started = spawnSync('npm', ['start', '--silent'], { cwd: REPO_DIR, env, encoding: 'utf8', timeout: 30_000 });
    expect(started.status).not.toBe(0);
    expect(started.stderr).toContain('rollcall: Node.js 22.19 or later is needed');
    expect(started.stderr).not.toMatch(/ERR_UNKNOWN_FILE_EXTENSION|    at /);
  });

  it.skipIf(!olderNode())('an older Node gets the same line first from `npm test` and `npm run typecheck`, before any tool of theirs runs', () => {
    const node = olderNode()!;
    const env = { PATH: `${path.dirname(node)}:${process.env.PATH}`, HOME: process.env.HOME ?? '/tmp' };
    for (const script of [['test'], ['run', 'typecheck']]) {
      const run = spawnSync('npm', script, { cwd: REPO_DIR, env, encoding: 'utf8', timeout: 60_000 });
      expect(run.status, script.join(' ')).not.toBe(0);
      // Astro, vitest and tsc would each say it their own way ("Node.js v20… is not supported by Astro!"), or not at all.
      expect(run.stderr, script.join(' ')).toMatch(/^rollcall: Node\.js 22\.19 or later is needed \(\^22\.19\.0 \|\| >=23\.8\.0\); this is [\d.]+\. Install Node\.js 24 LTS[^\n]*\n/);
      expect(`${run.stdout}${run.stderr}`).not.toMatch(/Astro|astro sync|tsc -p|vitest/);
    }
  });
});
