/**
 * Runs `astro build` in a child process (a fresh process per build: Astro keeps module state), so tests and
 * the benchmark can build with their own CONTENT_DIR, OUT_DIR and CACHE_DIR.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SITE_ROOT = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const ASTRO_BIN = join(dirname(require.resolve('astro/package.json')), 'bin/astro.mjs');

export interface BuildOptions {
  outDir: string;
  cacheDir: string;
  contentDir?: string;
  /** Project root; defaults to site/. The benchmark points it at bench/plain. */
  root?: string;
  env?: Record<string, string>;
}

export interface BuildResult {
  code: number;
  /** stdout and stderr interleaved, ANSI colours removed. */
  output: string;
  seconds: number;
}

export function buildSite(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ASTRO_BIN, 'build', '--root', options.root ?? SITE_ROOT], {
      cwd: options.root ?? SITE_ROOT,
      env: {
        ...process.env,
        ASTRO_TELEMETRY_DISABLED: '1',
        NO_COLOR: '1',
        FORCE_COLOR: '0',
        OUT_DIR: options.outDir,
        CACHE_DIR: options.cacheDir,
        ...(options.contentDir ? { CONTENT_DIR: options.contentDir } : {}),
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code: code ?? 1, output: output.replace(/\x1b\[[0-9;]*m/g, ''), seconds: (performance.now() - started) / 1000 }),
    );
  });
}
