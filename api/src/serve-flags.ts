import fs from 'node:fs';

/**
 * The Node flags `npm start` runs the server with. The start script in api/package.json is the one place they
 * are written; the Dockerfile test checks its CMD uses the same, and the benchmarks start the server with them.
 */
export function serveNodeFlags(): string[] {
  const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  return pkg.scripts.start.split(/\s+/).filter((arg) => arg.startsWith('--'));
}
