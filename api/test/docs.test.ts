import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fencedBlocks } from './doc-blocks.ts';
import { followPage, walkthroughPlace } from './doc-walkthrough.ts';
import { REPO_DIR } from './processes.ts';

const KEY = `rk_${'AgentsDoc0'.repeat(4)}`;
const AGENTS = 'docs/agents.md';

/** Blocks of docs/agents.md a test cannot run, and why; every other `sh` block is `runnable` or the `server` one. */
const NOT_RUN: Record<string, string> = {
  'curl -s -X POST "$ROLLCALL/v1/inbound-email/"': 'needs a mail provider and a raw reply (the inbound tests post one)',
  'curl -s "$ROLLCALL/v1/agent/register/challenge/"': 'needs AGENT_SELF_REGISTRATION=true and a computed answer (registration.test.ts)',
};

describe('docs/agents.md works as written, webhooks included', () => {
  const { work, dataDir, children, cleanUp } = walkthroughPlace('agents');
  afterAll(cleanUp);

  it('marks every shell block: runnable, the server start, or a known exception', () => {
    const shell = fencedBlocks(AGENTS).filter((b) => b.lang === 'sh');
    const unmarked = shell.filter((b) => !b.meta.includes('runnable') && !b.meta.includes('server'));
    expect(unmarked.map((b) => Object.keys(NOT_RUN).find((start) => b.code.startsWith(start)) ?? `${AGENTS}:${b.line}`)).toEqual(Object.keys(NOT_RUN));
    expect(shell.filter((b) => b.meta.includes('server'))).toHaveLength(1);
    expect(shell.filter((b) => b.meta.includes('runnable')).length).toBeGreaterThanOrEqual(12);
  });

  it('runs every runnable block in order against the server the page starts', async () => {
    const after = await followPage(AGENTS, { key: KEY, work, dataDir, children });
    expect(fs.existsSync(path.join(work, 'cert.pem'))).toBe(true);
    const url = after.url;
    expect(after.code, after.output).toBe(0);
    // Step 1's answer as the page shows it: the admin is a co-author, the address nobody's is named as such.
    expect(after.output).toMatch(/"co_authors":\[\{"uuid":"[0-9a-f-]{36}","name":"Admin","full_name":"Admin"\}\],"co_authors_unresolved":\["mia@example\.com"\]/);
    // The receiver printed the push, with the secret the agent registered.
    expect(after.output).toContain('POST /rollcall X-Webhook-Secret: a-long-random-secret');
    expect(after.output).toMatch(/\{"event":"agent\.message","message":\{[^\n]*"content":"Deploy v3\?"/);

    // Step 3's advice: the agent's message to another agent is in the other's queue, never in its own.
    const pending = async (agent: string) =>
      (await (await fetch(`${url}/v1/agent-messages/?agent_name=${agent}&delivered=false`, { headers: { 'x-api-key': KEY } })).json()) as { sender_name: string; content: string }[];
    expect((await pending('review-bot')).map((m) => [m.sender_name, m.content])).toEqual([['deploy-bot', 'v2 is rolled back; please run the checks again']]);
    expect((await pending('deploy-bot')).filter((m) => m.sender_name === 'deploy-bot')).toEqual([]);
    await after.stop();
  }, 120_000);
});

describe('docs/workflows.md works as written, its endpoint a local receiver', () => {
  const PAGE = 'docs/workflows.md';
  const { work, dataDir, children, cleanUp } = walkthroughPlace('workflows');
  afterAll(cleanUp);

  it('runs every shell block in order: the run succeeds at the receiver, and nothing is left in the checkout', async () => {
    const shell = fencedBlocks(PAGE).filter((b) => b.lang === 'sh');
    expect(shell.filter((b) => !b.meta.includes('runnable') && !b.meta.includes('server')).map((b) => `${PAGE}:${b.line}`)).toEqual([]);
    const untracked = () => spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: REPO_DIR, encoding: 'utf8' }).stdout;
    const before = untracked();

    const after = await followPage(PAGE, { key: KEY, work, dataDir, children });
    expect(after.code, after.output).toBe(0);
    // The receiver got the rendered body; the listing, taken once the run was done, says it succeeded.
    expect(after.output).toMatch(/POST \/rollcall webhook-id: msg_[\w-]+\n\{"text": "billing 2\.4\.0 is live", "run": "[0-9a-f-]{36}"\}/);
    expect(after.output).toMatch(/"results":\[\{[^\n]*"status":"succeeded","trigger":"api_trigger"[^\n]*"last_status_code":200/);
    expect(after.output).toContain('{\n  "name": "Deploy notice",\n  "active": false\n}\n204\n');
    expect(untracked()).toBe(before);
    await after.stop();
  }, 120_000);
});

/** Every page a reader of the repository opens: the READMEs, docs/, and the site's content. */
function pages(): string[] {
  const walk = (dir: string, ext: string): string[] =>
    fs.readdirSync(path.join(REPO_DIR, dir), { withFileTypes: true }).flatMap((entry) => {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) return walk(relative, ext);
      return entry.name.endsWith(ext) ? [relative] : [];
    });
  return ['README.md', 'site/README.md', ...walk('docs', '.md'), ...walk('content', '.mdx')];
}

describe('the pages read cleanly', () => {
  it('no doubled comma or semicolon in prose (outside code blocks)', () => {
    const problems: string[] = [];
    for (const file of pages()) {
      let inCode = false;
      fs.readFileSync(path.join(REPO_DIR, file), 'utf8').split('\n').forEach((line, index) => {
        if (/^\s*```/.test(line)) inCode = !inCode;
        else if (!inCode && /,\s*,|;\s*;/.test(line.replace(/`[^`]*`/g, 'code'))) problems.push(`${file}:${index + 1}: ${line.trim()}`);
      });
    }
    expect(problems).toEqual([]);
  });
});

describe('the repository stands alone', () => {
  it('README, docs and content neither link outside the repository nor cite sections a reader cannot open', () => {
    const problems: string[] = [];
    for (const file of pages()) {
      const text = fs.readFileSync(path.join(REPO_DIR, file), 'utf8');
      text.split('\n').forEach((line, index) => {
        const where = `${file}:${index + 1}`;
        if (/\bCONTRACT\b|§\s*\d/.test(line)) problems.push(`${where}: cites the contract: ${line.trim()}`);
        if (/(^|[\s(`'"])(\.\.\/)+shared\/|\/work\/shared/.test(line)) problems.push(`${where}: names a path outside the repository: ${line.trim()}`);
        for (const [, target] of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
          if (/^([a-z]+:|#|\/)/i.test(target)) continue; // web addresses, anchors, the site's own paths
          const resolved = path.resolve(REPO_DIR, path.dirname(file), target.split('#')[0]);
          if (!resolved.startsWith(`${REPO_DIR}${path.sep}`)) problems.push(`${where}: links outside the repository: ${target}`);
          else if (!fs.existsSync(resolved)) problems.push(`${where}: links to a missing file: ${target}`);
        }
      });
    }
    expect(problems).toEqual([]);
  });
});
