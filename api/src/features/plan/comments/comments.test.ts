import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../../test/harness.ts';
import type { TestApp } from '../../../../test/harness.ts';
import { encodeForm, form, PNG } from '../../../../test/files.ts';
import { startHttpsReceiver, TEST_CA } from '../../../../test/receivers.ts';
import { countRows, createBoard, planClient, seedPlanOrg } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';

describe('Plan comments on tasks (spec comment_body_too_long, invalid_relation, comment_not_author, reaction_*)', () => {
  let t: TestApp;
  let rx: Awaited<ReturnType<typeof startHttpsReceiver>>;
  let acme: PlanOrg;
  let call: PlanCall;
  let task: { uuid: string; key: string };
  let comments: string;
  let boardUuid: string;
  beforeAll(async () => {
    rx = await startHttpsReceiver(() => ({ status: 200, body: { ok: true, ts: '1.2', channel: 'C1', channels: [{ id: 'C1', name: 'eng' }], response_metadata: { next_cursor: '' } } }));
    t = await startTestApp({}, { SLACK_API_URL: `${rx.url}/api`, ALLOW_PRIVATE_WEBHOOKS: 'true' }, { ca: TEST_CA });
  });
  afterAll(async () => {
    await t.close();
    await rx.close();
  });
  beforeEach(async () => {
    acme = await seedPlanOrg(t, { name: `Acme ${Math.random()}` });
    call = planClient(t);
    rx.received.length = 0;
    const { board } = await createBoard(t, acme.adminKey, { key: `P${Math.random().toString(36).slice(2, 7).toUpperCase()}` });
    boardUuid = board.uuid;
    task = (await call('POST', `/v1/plan/boards/${board.uuid}/tasks/`, acme.member.key, { title: 'Fix the login loop' })).body;
    comments = `/v1/plan/tasks/${task.key}/comments/`;
  });

  const inbox = async (key: string) => (await call('GET', '/v1/plan/inbox/', key)).body.results as { kind: string; data: Record<string, unknown>; title: string }[];

  it('keeps a comment of up to 10,000 characters, edited and deleted by its author only', async () => {
    const created = await call('POST', comments, acme.member.key, { body: 'Reproduced on staging.' }, { 'x-service-agent-name': 'Triage bot' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      uuid: created.body.uuid, id: created.body.uuid, task: task.uuid, parent: null, body: 'Reproduced on staging.',
      author: { uuid: acme.member.user.uuid, id: acme.member.user.uuid, full_name: 'Mia Member', name: 'Mia Member' }, agent_name: 'Triage bot', mentions: [], reply_count: 0,
      created_at: '2026-03-10T15:00:00.000Z', updated_at: '2026-03-10T15:00:00.000Z', edited_at: null,
    });
    const long = 'é'.repeat(10_000);
    expect((await call('POST', comments, acme.member.key, { body: long })).status).toBe(201);
    const tooLong = await call('POST', comments, acme.member.key, { body: `${long}!` });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({ detail: expect.stringContaining('10000'), code: 'comment_body_too_long', extra: { max_length: 10_000 } });
    expect((await call('POST', comments, acme.member.key, { body: '   ' })).body).toEqual({ body: ['Must not be blank.'] });

    const path = `${comments}${created.body.uuid}/`;
    const notAuthor = await call('PATCH', path, acme.other.key, { body: 'Mine now' });
    expect(notAuthor.status).toBe(403);
    expect(notAuthor.body).toEqual({ detail: 'Only the author of a comment can edit it.', code: 'comment_not_author' });
    expect((await call('DELETE', path, acme.adminKey)).body).toEqual({ detail: 'Only the author of a comment can delete it.', code: 'comment_not_author' });
    t.clock.advance(60_000);
    const edited = await call('PATCH', path, acme.member.key, { body: 'Reproduced on staging and production.' });
    expect(edited.body).toMatchObject({ body: 'Reproduced on staging and production.', edited_at: '2026-03-10T15:01:00.000Z' });
    expect((await call('PATCH', path, acme.member.key, { body: `${long}!` })).body.code).toBe('comment_body_too_long');
    expect((await call('GET', path, acme.other.key)).body).toEqual(edited.body);
    expect((await call('GET', comments, acme.other.key)).body).toMatchObject({ count: 2, results: [{ uuid: created.body.uuid }, { body: long }] });

    expect((await call('DELETE', `${path}?dry_run=true`, acme.member.key)).body).toMatchObject({ dry_run: true, status: 204 });
    expect((await call('DELETE', path, acme.member.key)).status).toBe(204);
    expect((await call('GET', path, acme.member.key)).status).toBe(404);
    // Every write is on the task's board stream, for the delta feed and the task's activity.
    const logged = await t.db('plan_changes').where({ object_kind: 'comment', task_uuid: task.uuid }).orderBy('seq').select('change_kind');
    expect(logged.map((c) => c.change_kind)).toEqual(['created', 'created', 'updated', 'deleted']);
  });

  it('answers replies one level deep, to a comment of the same task (invalid_relation); a deleted comment takes its replies', async () => {
    const top = (await call('POST', comments, acme.member.key, { body: 'Which browser?' })).body;
    const reply = await call('POST', comments, acme.other.key, { body: 'Firefox.', parent: top.uuid });
    expect(reply.body).toMatchObject({ parent: top.uuid, reply_count: 0 });
    expect((await call('GET', `${comments}${top.uuid}/`, acme.member.key)).body.reply_count).toBe(1);
    const deeper = await call('POST', comments, acme.member.key, { body: 'Which version?', parent: reply.body.uuid });
    expect(deeper.status).toBe(400);
    expect(deeper.body).toEqual({ detail: expect.stringContaining('one level deep'), code: 'invalid_relation', extra: { parameter: 'parent' } });
    const otherTask = (await call('POST', '/v1/plan/tasks/', acme.member.key, { board: boardUuid, title: 'Another' })).body;
    const elsewhere = await call('POST', `/v1/plan/tasks/${otherTask.key}/comments/`, acme.member.key, { body: 'Same here', parent: top.uuid });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toEqual({ detail: expect.stringContaining('same task'), code: 'invalid_relation', extra: { parameter: 'parent' } });
    // A comment of another task is absent under this one.
    expect((await call('GET', `/v1/plan/tasks/${otherTask.key}/comments/${top.uuid}/`, acme.member.key)).status).toBe(404);

    const removed = await call('DELETE', `${comments}${top.uuid}/`, acme.member.key);
    expect(removed.status).toBe(204);
    expect(await countRows(t, 'plan_comments', (q) => q.where({ task_uuid: task.uuid }))).toBe(0);
  });

  it('notifies the people a comment mentions, the author it answers and the task\'s followers, once each, and a routed channel', async () => {
    await call('PATCH', '/v1/organization/', acme.adminKey, { platform: { kind: 'slack', bot_token: 'xoxb-test-token' } });
    expect((await call('POST', '/v1/plan/notifications/routes/', acme.adminKey, { kind: 'task.mentioned', channel: 'C1' })).status).toBe(201);
    // Otto follows the task; Mia created it; the guest cannot be mentioned; an unknown uuid is text.
    await call('PUT', `/v1/plan/tasks/${task.key}/subscription/`, acme.other.key, { subscribed: true });
    const body = `<@${acme.other.user.uuid}> <@${acme.guest.user.uuid}> <@0190c8f4-0000-7000-8000-000000000000> can you look?`;
    const top = await call('POST', comments, acme.adminKey, { body });
    expect(top.body.mentions).toEqual([acme.other.user.uuid]);
    expect((await inbox(acme.other.key)).map((n) => n.kind)).toEqual(['task.mentioned']);
    expect((await inbox(acme.member.key)).map((n) => n.kind)).toEqual(['task.commented']);
    expect((await inbox(acme.member.key))[0]).toMatchObject({ data: { comment: top.body.uuid, task: task.uuid }, title: `${task.key} Fix the login loop` });
    await t.deps.delivery.runDue();
    const posts = rx.received.filter((r) => r.url === '/api/chat.postMessage');
    expect(posts).toHaveLength(1);
    expect(JSON.stringify(posts[0].body)).toContain('mentioned you');

    // A reply tells the author it answers (not again as a follower); the replier hears nothing.
    await call('POST', comments, acme.other.key, { body: 'On it.', parent: top.body.uuid });
    expect((await inbox(acme.adminKey)).map((n) => n.kind)).toEqual(['task.comment_replied']);
    expect((await inbox(acme.member.key)).map((n) => n.kind)).toEqual(['task.commented', 'task.commented']);
    // An edit tells only the people it newly mentions.
    await call('PATCH', `${comments}${top.body.uuid}/`, acme.adminKey, { body: `${body} <@${acme.member.user.uuid}>` });
    expect((await inbox(acme.member.key)).map((n) => n.kind).sort()).toEqual(['task.commented', 'task.commented', 'task.mentioned']);
    expect((await inbox(acme.other.key))).toHaveLength(1);
  });

  it('takes reactions (reaction_invalid_emoji, reaction_limit_reached) and files from its author only (comment_not_author)', async () => {
    const comment = (await call('POST', comments, acme.member.key, { body: 'Screenshot attached.' })).body;
    const reactions = `${comments}${comment.uuid}/reactions/`;
    expect((await call('POST', reactions, acme.other.key, { emoji: '👍' })).status).toBe(201);
    expect((await call('POST', reactions, acme.other.key, { emoji: 'ok' })).body.code).toBe('reaction_invalid_emoji');
    const emojis = ['😀', '😃', '😄', '😁', '😆', '😅', '😂', '🤣', '😊', '😇', '🙂', '🙃', '😉', '😌', '😍', '🥰', '😘', '😗', '😙'];
    for (const emoji of emojis) expect((await call('POST', reactions, acme.member.key, { emoji })).status).toBe(201);
    const over = await call('POST', reactions, acme.member.key, { emoji: '🚀' });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ detail: expect.any(String), code: 'reaction_limit_reached', extra: { limit: 20 } });
    expect((await call('GET', reactions, acme.member.key)).body.count).toBe(20);
    expect((await call('DELETE', `${reactions}${encodeURIComponent('👍')}/?dry_run=true`, acme.other.key)).body).toMatchObject({ dry_run: true, status: 204 });
    expect((await call('DELETE', `${reactions}${encodeURIComponent('👍')}/`, acme.other.key)).status).toBe(204);

    const files = `${comments}${comment.uuid}/attachments/`;
    const upload = async (key: string) => {
      const { raw, contentType } = await encodeForm(form({ name: 'shot.png', type: 'image/png', bytes: PNG }));
      return t.request('POST', files, { key, raw, headers: { 'content-type': contentType } });
    };
    const refused = await upload(acme.other.key);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'Only the author of a comment can attach files to it.', code: 'comment_not_author' });
    const file = await upload(acme.member.key);
    expect(file.status).toBe(201);
    expect(file.body).toMatchObject({ object_type: 'comment', object_uuid: comment.uuid, kind: 'png', status: 'ready' });
    expect((await call('DELETE', `${files}${file.body.uuid}/`, acme.other.key)).body.code).toBe('attachment_delete_forbidden');
    expect((await call('GET', files, acme.other.key)).body).toMatchObject({ count: 1, results: [{ uuid: file.body.uuid }] });
    expect((await call('GET', `${files}${file.body.uuid}/`, acme.other.key)).body).toEqual(file.body);
    expect((await t.request('GET', `${files}${file.body.uuid}/content/`, { key: acme.other.key })).headers.get('content-type')).toBe('image/png');
    expect((await call('DELETE', `${files}${file.body.uuid}/?dry_run=true`, acme.member.key)).body).toMatchObject({ dry_run: true, status: 204 });
    const second = await upload(acme.member.key);
    expect((await call('DELETE', `${files}${second.body.uuid}/`, acme.member.key)).status).toBe(204);

    // Deleting the task removes its comments, their reactions and files.
    const removed = await call('DELETE', `/v1/plan/tasks/${task.key}/?dry_run=true`, acme.adminKey);
    expect(removed.body.result).toMatchObject({ removed_comments: 1, removed_attachments: 0 });
    expect((await call('DELETE', `/v1/plan/tasks/${task.key}/`, acme.adminKey)).status).toBe(204);
    expect(await countRows(t, 'plan_comments', (q) => q.where({ uuid: comment.uuid }))).toBe(0);
    expect(await countRows(t, 'plan_reactions', (q) => q.where({ object_uuid: comment.uuid }))).toBe(0);
    expect(await countRows(t, 'plan_attachments', (q) => q.where({ object_uuid: comment.uuid }))).toBe(0);
    expect(await countRows(t, 'plan_file_trash')).toBeGreaterThan(0);
  });
});
