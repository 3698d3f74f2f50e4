import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapIfEmpty } from '../src/bootstrap.ts';
import { startTestApp } from './harness.ts';
import type { TestApp } from './harness.ts';
import { runScript } from './doc-blocks.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DOC = fs.readFileSync(path.join(ROOT, 'docs/kudos.md'), 'utf8');

/**
 * docs/kudos.md is followed word for word: its `sh` blocks run, in order, in one bash session against a real app
 * whose organization was created as `npm start` creates the first one, without SMTP_URL (the invitations wait in
 * the outbox, where the page reads them). The two lines that name the reader's server and key are the only ones
 * replaced.
 */
describe('docs/kudos.md', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp();
    key = (await bootstrapIfEmpty(t.db, t.config, t.clock))!.generatedApiKey!;
  });
  afterAll(async () => t.close());

  it('invites and accepts two people, then gives, boosts, lists and ranks kudos, word for word', async () => {
    const blocks = [...DOC.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks.length).toBe(9);
    // The page shows an answer with `tee /dev/stderr`, which cannot open the socket Node gives a child as its
    // stderr: the session's stderr goes through a pipe of its own first, as in a terminal.
    const page = blocks.join('\n').split('\n').filter((line) => !/^export (ROLLCALL|KEY)=/.test(line)).join('\n');
    const { stdout, stderr, code } = await runScript(
      `exec 2> >(cat >&2)\n${page}`,
      { ...process.env, ROLLCALL: t.url, KEY: key, DATABASE_URL: t.config.databaseUrl, DATA_DIR: t.config.dataDir, NODE_ENV: 'test', LOG_LEVEL: 'silent', ROLLCALL_API_KEY: '', ROLLCALL_URL: '', ROLLCALL_API_URL: '', NO_COLOR: '1' },
      { timeoutMs: 150_000 },
    );
    expect(code, `${stderr}\n${stdout}`).toBe(0);
    const expected = [
      '{"detail":"Invitation accepted.","user":"Ana Lima","status":"active"}',
      '{"detail":"Invitation accepted.","user":"Ben Okafor","status":"active"}',
      '"value":"Ownership"',
      '{\n  "boosts_count": 1,\n  "boosted": true\n}',
      '"leaderboard_summary"',
      '"daily_limit":20',
    ];
    let from = 0;
    for (const text of expected) {
      const at = stdout.indexOf(text, from);
      expect(at, `${text} after position ${from} in:\n${stdout}\n${stderr}`).toBeGreaterThanOrEqual(0);
      from = at;
    }
    // The kudos of section 3 went to the team's two members, who had accepted their invitations.
    expect(stderr).toContain('"receivers":[{"uuid"');
    expect((await t.db('users').where({ is_active: true }).whereIn('email', ['ana@example.com', 'ben@example.com'])).length).toBe(2);
  }, 180_000);
});
