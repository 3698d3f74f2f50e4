import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';

const API_DIR = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** `rollcall serve` in a child process with `env` (beside PATH), resolved once it logs that it listens. */
export async function serveProcess(env: Record<string, string>, nodeArgs: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...nodeArgs, 'src/cli.ts', 'serve'], { cwd: API_DIR, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.includes('"msg":"listening"') && l.endsWith('}'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line).url);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`server exited (${code}):\n${output}`)));
  });
  return { child, url };
}
