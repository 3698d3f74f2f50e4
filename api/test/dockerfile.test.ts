import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../src/serve-flags.ts';
import { freePort } from './processes.ts';

/**
 * No Docker engine runs on our machines, so this test keeps the Dockerfile honest by replaying it: each stage
 * gets a directory standing for its WORKDIR, COPY steps copy from the repository (or an earlier stage), npm RUN
 * and node RUN steps run for real (with the ENV so far, /app standing for the stage's directory), and the final
 * CMD must start a server whose /healthz answers and whose HEALTHCHECK passes.
 * Steps that only touch the OS image (apt-get, chown of /data) are listed and skipped.
 */
const REPO = path.resolve(import.meta.dirname, '../..');

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  base: string;
  name: string;
  steps: Instruction[];
}

function parseDockerfile(text: string): Stage[] {
  const lines = text.replace(/\\\n\s*/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, op, args] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    if (!op) continue;
    if (op.toUpperCase() === 'FROM') {
      const [, base, name] = /^(\S+)(?:\s+AS\s+(\S+))?/i.exec(args)!;
      stages.push({ base, name: name ?? String(stages.length), steps: [] });
    } else {
      stages.at(-1)!.steps.push({ op: op.toUpperCase(), args });
    }
  }
  return stages;
}

const execForm = (args: string): string[] => JSON.parse(args.replace(/^.*?(\[.*\])\s*$/, '$1')) as string[];

describe('Dockerfile (replayed without a Docker engine)', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-docker-'));
  const stages = parseDockerfile(fs.readFileSync(path.join(REPO, 'Dockerfile'), 'utf8'));
  const final = stages.at(-1)!;
  const stepsOf = (op: string) => final.steps.filter((s) => s.op === op);
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('is multi-stage on the official Node 24 slim image, non-root, with /data, an init, a curl-free HEALTHCHECK and rollcall serve', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage.base).toMatch(/^node:24(\.\d+)*-[\w-]*slim$/);
    const user = stepsOf('USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)$/);
    expect(stepsOf('VOLUME').map((s) => s.args).join(' ')).toContain('/data');
    const healthcheck = stepsOf('HEALTHCHECK')[0]?.args ?? '';
    expect(healthcheck).toMatch(/CMD \[/);
    expect(healthcheck).not.toMatch(/curl|wget/);
    expect(execForm(stepsOf('ENTRYPOINT')[0].args)[0]).toMatch(/tini|dumb-init/);
    // The server runs as `npm start` (and the benchmarks) run it: same Node flags, entry and arguments.
    const start = serveCommand();
    expect(execForm(stepsOf('CMD').at(-1)!.args)).toEqual(['node', ...start.flags, `api/${start.entry}`, ...start.args]);
    const install = stages.flatMap((s) => s.steps).find((s) => s.op === 'RUN' && /npm ci/.test(s.args));
    expect(install?.args).toContain('--omit=dev');
  });

  it('lays out the image, starts its CMD, answers /healthz and passes its HEALTHCHECK', async () => {
    const skipped: string[] = [];
    const env: Record<string, string> = {};
    for (const stage of stages) {
      const dir = path.join(root, stage.name);
      fs.mkdirSync(dir, { recursive: true });
      for (const { op, args } of stage.steps) {
        if (op === 'WORKDIR' || op === 'EXPOSE' || op === 'VOLUME' || op === 'USER' || op === 'HEALTHCHECK' || op === 'ENTRYPOINT' || op === 'CMD') continue;
        if (op === 'ENV') {
          for (const [, key, value] of args.matchAll(/(\w+)=(\S+)/g)) env[key] = value.replace(/^\/app(?=\/|$)/, dir);
          continue;
        }
        if (op === 'COPY') {
          const from = /--from=(\S+)/.exec(args)?.[1];
          const parts = args.replace(/--\S+/g, '').trim().split(/\s+/);
          const dest = path.join(dir, parts.pop()!.replace(/^\/app\/?/, ''));
          for (const src of parts) {
            const source = from ? path.join(root, from, src.replace(/^\/app\/?/, '')) : path.join(REPO, src);
            const target = parts.length > 1 || dest.endsWith('/') ? path.join(dest, path.basename(src)) : dest;
            fs.mkdirSync(path.dirname(target), { recursive: true });
            fs.cpSync(source, target, { recursive: true, verbatimSymlinks: true });
          }
          continue;
        }
        if (op === 'RUN' && /^npm /.test(args)) {
          const result = spawnSync('sh', ['-c', args], { cwd: dir, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'error' } });
          expect(result.status, `${args}\n${result.stderr}`).toBe(0);
          continue;
        }
        if (op === 'RUN' && /^node /.test(args)) {
          const [, ...nodeArgs] = args.split(/\s+/);
          const result = spawnSync(process.execPath, nodeArgs, { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env } });
          expect(result.status, `${args}\n${result.stderr}`).toBe(0);
          continue;
        }
        skipped.push(`${op} ${args}`);
      }
    }
    expect(skipped.every((s) => /apt-get|mkdir -p \/data/.test(s))).toBe(true);

    const app = path.join(root, final.name);
    // Production dependencies only: the test and build tools stay out of the image.
    expect(fs.existsSync(path.join(app, 'node_modules/koa'))).toBe(true);
    expect(fs.existsSync(path.join(app, 'node_modules/vitest'))).toBe(false);
    expect(fs.existsSync(path.join(app, 'node_modules/typescript'))).toBe(false);
    expect(fs.existsSync(path.join(app, 'node_modules/astro'))).toBe(false);
    // `rollcall precompile` filled Node's compile cache inside the image, with the server's modules.
    expect(env.NODE_COMPILE_CACHE.startsWith(app)).toBe(true);
    expect(fs.readdirSync(env.NODE_COMPILE_CACHE, { recursive: true }).length).toBeGreaterThan(200);

    const port = await freePort();
    const runEnv: NodeJS.ProcessEnv = { ...process.env, ...env, DATA_DIR: path.join(root, 'data'), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
    delete runEnv.BOOTSTRAP_API_KEY;
    // As `docker run -e TRUST_PROXY=…` names the TLS proxy in front; here the test is that proxy, on loopback.
    runEnv.TRUST_PROXY = 'loopback';
    const [command, ...cmdArgs] = execForm(stepsOf('CMD').at(-1)!.args);
    const server = spawn(command === 'node' ? process.execPath : command, cmdArgs, { cwd: app, env: runEnv });
    let output = '';
    server.stdout.on('data', (c) => (output += c));
    server.stderr.on('data', (c) => (output += c));
    try {
      let healthy = false;
      for (let i = 0; i < 100 && !healthy; i++) {
        healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
        if (!healthy) await new Promise((r) => setTimeout(r, 100));
      }
      expect(healthy, output).toBe(true);

      const [hcCommand, ...hcArgs] = execForm(stepsOf('HEALTHCHECK')[0].args);
      const probe = spawnSync(hcCommand === 'node' ? process.execPath : hcCommand, hcArgs, { cwd: app, env: runEnv });
      expect(probe.status).toBe(0);

      // NODE_ENV=production turns REQUIRE_HTTPS on: the API answers behind a TLS proxy (TRUST_PROXY).
      const key = /rk_[0-9A-Za-z]{40}/.exec(output)?.[0];
      expect(key, output).toBeDefined();
      const plain = await fetch(`http://127.0.0.1:${port}/v1/me/`, { headers: { 'x-api-key': key! } });
      expect(plain.status).toBe(403);
      const proxied = await fetch(`http://127.0.0.1:${port}/v1/me/`, { headers: { 'x-api-key': key!, 'x-forwarded-proto': 'https' } });
      expect(proxied.status).toBe(200);
      // The web app built in its own stage is served at /app/, with its CSP; its build tools are not in the image.
      const page = await fetch(`http://127.0.0.1:${port}/app/`, { headers: { 'x-forwarded-proto': 'https' } });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      const script = /src="(\/app\/assets\/[^"]+\.js)"/.exec(await page.text())?.[1];
      expect((await fetch(`http://127.0.0.1:${port}${script}`, { headers: { 'x-forwarded-proto': 'https' } })).status).toBe(200);
      expect(fs.existsSync(path.join(app, 'node_modules/preact'))).toBe(false);
    } finally {
      server.kill('SIGTERM');
      await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once('exit', resolve)));
    }
    expect(server.exitCode).toBe(0);
    const stopped = spawnSync(process.execPath, execForm(stepsOf('HEALTHCHECK')[0].args).slice(1), { cwd: app, env: runEnv });
    expect(stopped.status).toBe(1);
  // Two npm ci runs (the API's production dependencies with the SQLite driver's native build, and the web app's stage),
  // then a precompile and a start: minutes on a 2-core machine, more while other test files share it.
  }, 600_000);
});
