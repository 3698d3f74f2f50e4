import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { fencedBlocks } from './doc-blocks.ts';
import type { DocBlock } from './doc-blocks.ts';
import fs from 'node:fs';
import { REPO_DIR, cleanEnv, exitOf, freePort, outputOf, tempDir, waitFor } from './processes.ts';

/**
 * Follows a docs page that starts its own server, as a reader would: its `runnable` blocks before the one `server`
 * block run first (making the receiver's certificate), then the page's own start line (`VARIABLE=value … npm
 * start`, in the repository), then every runnable block after it, in one shell, with curl failing on 4xx and 5xx.
 * What a reader keeps or fills in is replaced: the receiver's directory (`/tmp/rollcall-receiver`) by `work`, its
 * port (8443) by a free one, the server's address and the `rk_...` key. The caller ends `children` (process groups).
 */
export async function followPage(page: string, options: { key: string; work: string; dataDir: string; children: ChildProcessWithoutNullStreams[] }) {
  const { key, work, dataDir, children } = options;
  const blocks = fencedBlocks(page);
  const serverIndex = blocks.findIndex((b) => b.meta.includes('server'));
  const receiverPort = await freePort();
  let serverUrl = '';
  const placeholders = (code: string) =>
    code
      .replaceAll('/tmp/rollcall-receiver', work)
      .replaceAll('8443', String(receiverPort))
      .replaceAll('http://localhost:8080', serverUrl)
      .replaceAll('rk_...', key);
  const run = async (part: DocBlock[]) => {
    const code = part.map((b) => `# ${page}:${b.line}\n${placeholders(b.code)}`).join('\n');
    const script = `set -e -o pipefail\ncurl() { command curl --fail-with-body --show-error "$@"; }\n${code}\n`;
    const child = spawn('bash', ['-c', script], { cwd: REPO_DIR, env: cleanEnv({}), detached: true });
    children.push(child);
    outputOf(child); // collect from the first byte
    return { code: await exitOf(child), output: outputOf(child).text };
  };

  const before = await run(blocks.slice(0, serverIndex).filter((b) => b.meta.includes('runnable')));
  if (before.code !== 0) throw new Error(`${page}: the blocks before the server failed:\n${before.output}`);
  const [, assignments] = /^((?:[A-Z_]+=\S+ )+)npm start$/.exec(placeholders(blocks[serverIndex].code).trim()) ?? [];
  if (!assignments) throw new Error(`${page}:${blocks[serverIndex].line}: the server block is not VARIABLE=value … npm start`);
  const env = Object.fromEntries(assignments.trim().split(/\s+/).map((pair) => pair.split('=', 2) as [string, string]));
  const server = spawn('npm', ['start', '--silent'], { cwd: REPO_DIR, env: cleanEnv({ ...env, DATA_DIR: dataDir, BOOTSTRAP_API_KEY: key }), detached: true });
  children.push(server);
  const [, url] = await waitFor(server, /ready at (http:\/\/[\d.:]+)/, 60_000);
  serverUrl = url;
  const after = await run(blocks.slice(serverIndex + 1).filter((b) => b.meta.includes('runnable')));
  return {
    ...after,
    url,
    async stop() {
      process.kill(-server.pid!, 'SIGTERM');
      await exitOf(server);
    },
  };
}

/** A page's receiver directory, data directory and processes, and the clean-up for afterAll. */
export function walkthroughPlace(name: string) {
  const work = tempDir(`rollcall-${name}-doc-`);
  const dataDir = tempDir(`rollcall-${name}-data-`);
  const children: ChildProcessWithoutNullStreams[] = [];
  const cleanUp = () => {
    // The page starts a receiver in the background: end the whole group of every shell it ran in.
    for (const child of children) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { work, dataDir, children, cleanUp };
}
