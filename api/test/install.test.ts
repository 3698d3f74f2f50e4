import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_DIR } from './processes.ts';

/**
 * npm 11 runs a dependency's install script only when `allowScripts` in the root package.json names it, and ends
 * every install with a call to act ("not yet covered by allowScripts … npm install-scripts approve") for each one
 * it does not. Every package of the lock file with an install script is decided here, so a clean install is quiet.
 */
describe('npm install', () => {
  it('decides every install script of the lock file in allowScripts: better-sqlite3 and esbuild run, nothing else does', () => {
    const read = (file: string) => JSON.parse(fs.readFileSync(path.join(REPO_DIR, file), 'utf8'));
    const lock = read('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };
    const allowScripts = (read('package.json') as { allowScripts?: Record<string, boolean> }).allowScripts ?? {};
    const withScripts = [...new Set(Object.entries(lock.packages).filter(([, entry]) => entry.hasInstallScript).map(([at]) => at.replace(/^.*node_modules\//, '')))].sort();
    expect(withScripts.filter((name) => !Object.hasOwn(allowScripts, name))).toEqual([]);
    expect(Object.entries(allowScripts).filter(([, allowed]) => allowed).map(([name]) => name).sort()).toEqual(['better-sqlite3', 'esbuild']);
  });
});
