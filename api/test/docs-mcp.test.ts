import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from './harness.ts';
import type { TestApp } from './harness.ts';
import { bootstrapIfEmpty } from '../src/bootstrap.ts';
import { runScript, runnableBlocks } from './doc-blocks.ts';

/**
 * docs/mcp.md's first agent session runs word for word: its `sh runnable` blocks, in order, in one bash session
 * against a real app whose organization was created as `npm start` creates the first one. The line naming the
 * reader's server and key is the only one replaced.
 */
describe('docs/mcp.md', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp();
    key = (await bootstrapIfEmpty(t.db, t.config, t.clock))!.generatedApiKey!;
  });
  afterAll(async () => t.close());

  it('runs an agent\'s first session with curl, word for word', async () => {
    const blocks = runnableBlocks('docs/mcp.md');
    expect(blocks.length).toBe(5);
    const script = blocks.map((b) => b.code).join('\n').split('\n').filter((line) => !/^export ROLLCALL=/.test(line)).join('\n');
    const { stdout, stderr, code } = await runScript(script, { ...process.env, ROLLCALL: t.url, KEY: key });
    expect(code, stderr).toBe(0);
    // The move changes the task (version 1 to 2), and the rename carries the version the move answered.
    const expected = ['PLAT-1', '"name": "rollcall"', 'report', 'move_task', 'recorded for Deploy Bot', 'PLAT-1', 'Moved PLAT-1: Rotate the signing keys (version 2)', 'Comment', 'Updated PLAT-1: Rotate the signing keys (staging first) (version 3)', '{"isError":true,"code":"version_conflict"}'];
    let at = 0;
    for (const text of expected) {
      const found = stdout.indexOf(text, at);
      expect(found, `${text} after position ${at} in:\n${stdout}`).toBeGreaterThanOrEqual(0);
      at = found + text.length;
    }
    // The task is where the page says it moved it.
    const task = await t.request('GET', '/v1/plan/tasks/PLAT-1/', { key });
    const states = await t.request('GET', `/v1/plan/boards/${task.body.board}/states/`, { key });
    const column = states.body.results.find((state: { uuid: string; name: string }) => state.uuid === task.body.state);
    expect({ state: column?.name, title: task.body.title, version: task.body.version }).toEqual({ state: 'In Progress', title: 'Rotate the signing keys (staging first)', version: 3 });
  });
});
