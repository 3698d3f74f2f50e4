import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_DIR, cleanEnv } from './processes.ts';

/**
 * The fenced code blocks of a Markdown or MDX page, so tests can run what a page tells people to run. A block
 * whose info string carries the word `runnable` (```` ```sh runnable ````) is one a test runs as written;
 * renderers ignore the word.
 */
export interface DocBlock {
  lang: string;
  meta: string[];
  code: string;
  /** 1-based line of the opening fence, for failure messages. */
  line: number;
}

export function fencedBlocks(file: string): DocBlock[] {
  const lines = fs.readFileSync(path.resolve(REPO_DIR, file), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})(\S*)\s*(.*)$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith(open[1]) && l.trim() === open[1]);
    if (end === -1) throw new Error(`${file}:${i + 1}: unclosed code fence`);
    blocks.push({ lang: open[2], meta: open[3].split(/\s+/).filter(Boolean), code: lines.slice(i + 1, end).join('\n'), line: i + 1 });
    i = end;
  }
  return blocks;
}

export const runnableBlocks = (file: string) => fencedBlocks(file).filter((b) => b.meta.includes('runnable'));

/** Runs one block with bash (-e: the first failing command fails the block) in the repository, as a reader would. */
export function runBlock(block: DocBlock, env: Record<string, string>, cwd = REPO_DIR) {
  const result = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', block.code], { cwd, env: cleanEnv(env), encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Runs a page's blocks joined as one bash session (-e, pipefail), without blocking this process: a walk-through
 * that calls the test app served by this very process needs its event loop free. `env` is the whole environment.
 */
export function runScript(script: string, env: NodeJS.ProcessEnv, options: { timeoutMs?: number; cwd?: string } = {}): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((resolve) => {
    execFile('bash', ['-euo', 'pipefail', '-c', script], { cwd: options.cwd ?? REPO_DIR, env, timeout: options.timeoutMs ?? 60_000, maxBuffer: 10 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ stdout, stderr, code: err ? Number((err as { code?: number }).code ?? 1) : 0 }),
    );
  });
}
