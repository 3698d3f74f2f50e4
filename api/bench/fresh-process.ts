/**
 * A benchmark phase that measures the memory of its own process (`process.memoryUsage()`, the deliveries and
 * the check-in loop phases: the app runs in it) runs in a fresh process, so that one phase never counts what an
 * earlier one left behind: `inFreshProcess(new URL('./deliveries.ts', import.meta.url), 'benchDeliveries',
 * options)`. The process runs with the Node flags `npm start` gives the server (`serveNodeFlags()`), and with
 * every module already in Node's compile cache, as a server started after `rollcall precompile` is: a first
 * process loads the phase's modules and fills the cache, a second one runs the phase.
 *
 * The phase prints as it would in the runner (stdout and stderr are shared) and its result comes back over IPC.
 */
import { fork } from 'node:child_process';
import module from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { serveNodeFlags } from '../src/serve-flags.ts';

type Message = { result?: unknown; error?: string };

function runChild(file: URL, exportName: string, mode: 'load' | 'run', options: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL(import.meta.url), [mode, file.href, exportName], { execArgv: serveNodeFlags(), stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let answer: Message | null = null;
    child.on('message', (m: Message) => (answer = m));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (answer?.error) reject(new Error(`${exportName} failed in its process: ${answer.error}`));
      else if (code !== 0 || !answer) reject(new Error(`${exportName}: its process exited with ${code}`));
      else resolve(answer.result);
    });
    if (mode === 'run') child.send({ options });
  });
}

export async function inFreshProcess<T>(file: URL, exportName: string, options: unknown = {}): Promise<T> {
  await runChild(file, exportName, 'load', null);
  return (await runChild(file, exportName, 'run', options)) as T;
}

// The child: `fresh-process.ts <load|run> <module URL> <export>`; the options arrive over IPC.
if (process.send && process.argv[2] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const [mode, href, exportName] = process.argv.slice(2);
  const reply = (message: Message) => process.send!(message, () => process.exit(0));
  try {
    module.enableCompileCache?.();
    const phase = (await import(href)) as Record<string, (options: unknown) => Promise<unknown>>;
    if (typeof phase[exportName] !== 'function') throw new Error(`${href} exports no ${exportName}`);
    if (mode === 'load') {
      module.flushCompileCache?.();
      reply({ result: null });
    } else {
      const options = await new Promise<unknown>((resolve) => process.once('message', (m: { options: unknown }) => resolve(m.options)));
      reply({ result: await phase[exportName](options) });
    }
  } catch (err) {
    reply({ error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
}
