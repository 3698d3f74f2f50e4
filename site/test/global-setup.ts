/**
 * Builds the real site once, into a temporary folder, before any test file runs. Test files read the folder
 * through `inject('siteDir')`. Set SITE_DIST to test an existing build instead (faster when iterating).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildSite } from './build.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    siteDir: string;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.SITE_DIST) {
    project.provide('siteDir', process.env.SITE_DIST);
    return;
  }
  const tmp = await mkdtemp(join(tmpdir(), 'rollcall-site-'));
  const outDir = join(tmp, 'dist');
  const result = await buildSite({ outDir, cacheDir: join(tmp, 'cache') });
  if (result.code !== 0) throw new Error(`site build failed (exit ${result.code}):\n${result.output}`);
  console.log(`site built in ${result.seconds.toFixed(1)} s into ${outDir}`);
  project.provide('siteDir', outDir);
  return async () => {
    if (!process.env.KEEP_SITE_BUILD) await rm(tmp, { recursive: true, force: true });
  };
}
