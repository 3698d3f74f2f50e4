import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from './harness.ts';
import type { TestApp } from './harness.ts';
import { bootstrapIfEmpty } from '../src/bootstrap.ts';
import { loadParts } from '../src/openapi/catalog.ts';
import { planScopeTable } from '../src/http/plan/openapi.ts';
import { runScript } from './doc-blocks.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DOC = fs.readFileSync(path.join(ROOT, 'docs/plan.md'), 'utf8');

/**
 * docs/plan.md is followed word for word here: its scope table is the one generated from the routes, and the `sh`
 * blocks of its walk-through run, in order, in one bash session against a real app whose organization was
 * created exactly as `npm start` creates the first one. The two lines that name the reader's server and key are
 * the only ones replaced.
 */
describe('docs/plan.md', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp();
    key = (await bootstrapIfEmpty(t.db, t.config, t.clock))!.generatedApiKey!;
  });
  afterAll(async () => t.close());

  it('holds exactly the scope table generated from the routes', async () => {
    const table = /<!-- plan-scopes:start -->\n([\s\S]*?)\n<!-- plan-scopes:end -->/.exec(DOC)?.[1];
    // When a Plan route is added or changed, paste the expected table (shown on failure) into docs/plan.md.
    expect(table).toBe(planScopeTable((await loadParts()).flatMap((part) => part.operations)));
  });

  it('walks through with curl, word for word', async () => {
    const walkthrough = DOC.slice(DOC.indexOf('## A walk through it with curl'), DOC.indexOf('## Objects'));
    const blocks = [...walkthrough.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks.length).toBeGreaterThan(8);
    const script = blocks.join('\n').split('\n').filter((line) => !/^export (ROLLCALL|KEY)=/.test(line)).join('\n');
    const { stdout, stderr, code } = await runScript(
      script,
      { ...process.env, ROLLCALL: t.url, KEY: key, DATABASE_URL: t.config.databaseUrl, NODE_ENV: 'test', LOG_LEVEL: 'silent' },
      { timeoutMs: 120_000 },
    );
    expect(code, stderr).toBe(0);
    const expected = [
      '"plan": "enterprise"', '"enabled": true', '"acts_as_person": true',
      '"name": "Launch"', '"project_name_conflict"',
      '1 Todo (todo) default', '4 Canceled (canceled)',
      '"PLATFORM"', '"duplicate_board_key"',
      '3 In Review', '4 Done', '"states_reorder_invalid"', '"last_done_state"',
      '"dry_run": true', '"state updated"', '"state archived"',
      '"name": "bug"', 'HTTP/1.1 201 Created', 'Idempotency-Replayed: true', '"idempotency_key_payload_mismatch"',
      '"board": null', '[{"name":"bug","board":true},{"name":"needs design","board":false}]',
      '"code": "not_found"', 'PLATFORM',
      '"role": "member"', '"SEC"', '"board_manager_required"', '"manager"', '"docs"', 'mia@example.com',
      '"agent_name": "Release bot (CI)"', '"invalid_agent_attribution"',
      '"code": "insufficient_scope"', '"status": 204', '"tasks": 0',
      '"platform_not_connected"', 'task.assigned',
      '"key": "PLATFORM-1"', '"version": 1', '"not_implemented"', '"title": "Fix the login redirect loop"', '"version": 2', '"code": "version_conflict"', '"current_version": 2',
      '"subtask_depth_exceeded"', 'PLATFORM-2 Reproduce it',
      'blocks PLATFORM-1', 'blocked_by PLATFORM-3', '"relation_cycle"',
      'PLATFORM-3', 'PLATFORM-1', 'PLATFORM-1 PLATFORM-3', 'A task cannot be placed next to itself.', '"rank_neighbor_missing"', '"head": "PLATFORM-1"', '"tail": "PLATFORM-3"',
      '"subtask_cross_board"', 'SEC-1', 'SEC-1',
      'PLATFORM-1 1 relation(s)', 'PLATFORM-1', '"invalid_filter_value"', '"parameter": "include"',
      '"idempotency_key_required"', '{"index":0,"status":200,"priority":3,"error":null}', '{"index":1,"status":400,"priority":null,"error":{"priority":["Ensure this value is less than or equal to 5."]}}',
      '"action":"task.updated","actor":"Admin","agent_name":"Release bot (CI)","changes":[{"field":"due_date","from":null,"to":"2026-12-01"}]',
      '"kind":"markdown"', 'Content-Disposition: attachment; filename="checklist.md"', 'X-Content-Type-Options: nosniff', 'same bytes',
      '"code":"attachment_invalid_type","detected":"application/x-msdownload"',
      '"attachment_not_ready"', '{"status":"uploaded","size":57}', '{"filename":"repro.txt","kind":"text","status":"ready"}', 'Steps to reproduce:',
      '"precondition_required"', '{"name":"Mine","version":2}', '"precondition_failed"',
      '{"object_type":"board","key":"PLATFORM"}', '{"unread":0,"total":0}', '{"emoji":"🚀","count":1}', '"reaction_invalid_emoji"',
      '{"kind":"task.assigned","channel":"email"}', '"platform_not_connected"', '{"kind":"daily","weekdays":[1,2,3,4,5],"time":"09:00","timezone":"Europe/Berlin"}',
      '{"code":"invalid_schedule","extra":{"parameter":"time"}}', 'Daily report: Standup (2026-03-10)', 'PLATFORM · Platform (project Launch)', 'Done: none',
      '{"body":"<@$MIA> can you reproduce this on staging?","mentions":true}', 'Admin mentioned you on PLATFORM-1 Fix the login redirect loop',
      '{"code":"invalid_relation","detail":"Replies are one level deep: answer the comment this reply answers."}', '{"code":"comment_not_author"}',
      '{"emoji":"🙏","count":1}', '{"object_type":"comment","filename":"repro.txt"}',
      'Admin: <@$MIA> can you reproduce this on staging? (replies: 1)', 'mia@example.com: Yes, every time. (replies: 0)',
      '{"board":"PLATFORM","states":6,"tasks":["PLATFORM-2","PLATFORM-1"]}',
      'PLATFORM-4\ntask created PLATFORM-4\ntask moved PLATFORM-4\ntask created PLATFORM-5\ntask deleted (tombstone)\n{"has_more":false}',
      'the copy matches the board', '{"code":"invalid_filter_value","extra":{"parameter":"cursor"}}',
      'task PLATFORM-1 Fix the login redirect loop\nboard PLATFORM Platform\n{"code":"search_query_too_short"}\ntask.deleted by Admin\ntask.created by Admin',
      'Todo: 1 now, 0 completed\nIn Review: 1 now, 0 completed\nDone: 1 now, 1 completed\n2026-12-01 2026-12-01 PLATFORM-1',
    ];
    let from = 0;
    for (const text of expected) {
      const at = stdout.indexOf(text, from);
      expect(at, `${text} after position ${from} in:\n${stdout}`).toBeGreaterThanOrEqual(0);
      from = at;
    }
  }, 180_000);
});
