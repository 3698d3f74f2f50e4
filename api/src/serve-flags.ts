import fs from 'node:fs';

/**
 * What `npm start` runs after `node`: its Node flags, the entry and `serve`. The start script in
 * api/package.json is the one place this is written; the Dockerfile test checks its CMD runs the same, and the
 * benchmarks start the server with it.
 */
export function serveCommand(): { flags: string[]; entry: string; args: string[] } {
  const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  const words = pkg.scripts.start.split(/\s+/).filter(Boolean);
  if (words[0] !== 'node') throw new Error(`the start script should run node: ${pkg.scripts.start}`);
  const flags = words.slice(1).filter((word) => word.startsWith('--'));
  const [entry, ...args] = words.slice(1 + flags.length);
  return { flags, entry, args };
}

/** The Node flags alone (the benchmarks and the Dockerfile test). */
export function serveNodeFlags(): string[] {
  return serveCommand().flags;
}
