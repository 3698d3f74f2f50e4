import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { startHttpReceiver } from '../../../test/receivers.ts';
import type { HttpsReceiver } from '../../../test/receivers.ts';
import { seedPeople } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';

const CHAT = '/v1/cli/chat/completions/';

/** Tuesday 2026-03-10 15:00Z: a daily check-in for Mia with a blocker question, answered yesterday with a blocker. */
async function seedDay(t: TestApp, p: People) {
  const member = p.member.user.uuid;
  const daily = (
    await t.request('POST', '/v1/checkins/create/', {
      key: p.adminKey,
      body: {
        name: 'Daily', schedule: { days: [1, 2, 3, 4, 5], timezone: 'UTC' }, participants: { user_uuids: [member] }, allow_past_responses: true,
        questions: [{ question_type: 'text', question: 'What did you do?' }, { question_type: 'text', question: 'Blockers?', is_blocker: true, required: false }],
      },
    })
  ).body;
  const detail = (await t.request('GET', `/v1/checkins/${daily.uuid}/detail/`, { key: p.adminKey })).body;
  const [did, blocker] = detail.questions.map((q: { uuid: string }) => q.uuid);
  const answered = await t.request('POST', `/v1/checkins/${daily.uuid}/responses/`, {
    key: p.member.key,
    body: { response_date: '2026-03-09', responses: [{ uuid: did, response: 'Migrated the billing tables' }, { uuid: blocker, response: 'Waiting for the staging database' }] },
  });
  expect(answered.status).toBe(201);
  return daily;
}

describe('the command-line assistant (POST /v1/cli/chat/completions/, CONTRACT §8)', () => {
  let t: TestApp;
  let p: People;
  let token: string;
  let model: HttpsReceiver | null = null;
  beforeEach(async () => {
    t = await startTestApp();
    p = await seedPeople(t);
    token = await t.seedToken(p.org.uuid, p.member.user.uuid);
  });
  afterEach(async () => {
    await t.close();
    await model?.close();
    model = null;
  });

  it('answers from the caller\'s own data without a language model, and keeps the topic for a follow-up in the session', async () => {
    await seedDay(t, p);
    const pending = await t.request('POST', CHAT, { token, body: { message: 'What is pending for me?' } });
    expect(pending.status).toBe(200);
    expect(pending.body).toEqual({
      status: 'completed',
      async: false,
      correlation_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      classification: 'pending_checkins',
      message: { role: 'assistant', content: 'You have 1 check-in waiting for an answer today:\n- Daily (2 questions)' },
      actions: [{ type: 'command', command: 'rollcall update', description: 'Send a stand-up update into today\'s check-ins' }],
      session_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      answered_by: 'built_in',
    });

    const session = { session_id: pending.body.session_id };
    const blockers = await t.request('POST', CHAT, { token, body: { message: 'Was I blocked today?', ...session } });
    expect(blockers.body).toMatchObject({ classification: 'blockers', session_id: session.session_id, message: { content: 'You reported no blockers today.' } });
    // A follow-up with no topic of its own keeps the previous one.
    const followUp = await t.request('POST', CHAT, { token, body: { message: 'and yesterday?', ...session } });
    expect(followUp.body).toMatchObject({ classification: 'blockers', message: { content: 'Blockers you reported yesterday:\n- 2026-03-09, Daily: Waiting for the staging database' } });
    const answers = await t.request('POST', CHAT, { token, body: { message: 'What did I do yesterday?', ...session } });
    expect(answers.body.message.content).toBe(
      'Your check-in answers yesterday:\n- 2026-03-09, Daily: What did you do? Migrated the billing tables\n- 2026-03-09, Daily: Blockers? Waiting for the staging database',
    );
    // Without the session, the same follow-up has nothing to follow.
    const alone = await t.request('POST', CHAT, { token, body: { message: 'and yesterday?' } });
    expect(alone.body.classification).toBe('unknown');
    expect(alone.body.session_id).not.toBe(session.session_id);

    const turns = await t.db('assistant_turns').where({ session_uuid: session.session_id });
    expect(turns).toHaveLength(8);
  });

  it('tells the caller about the kudos they received and gave, never naming an anonymous giver', async () => {
    await t.request('POST', '/v1/kudos/', { key: p.other.key, body: { content: 'Thanks for the review', receivers: [p.member.user.uuid] } });
    await t.request('POST', '/v1/kudos/', { key: p.adminKey, body: { content: 'Calm under pressure', receivers: [p.member.user.uuid], is_anonymous: true } });
    await t.request('POST', '/v1/kudos/', { key: p.member.key, body: { content: 'Great pairing', receivers: [p.other.user.uuid], is_anonymous: true } });
    const kudos = await t.request('POST', CHAT, { token, body: { message: 'Did I get any kudos this week?' } });
    expect(kudos.body).toMatchObject({ classification: 'kudos' });
    expect(kudos.body.message.content).toBe(
      '3 kudos this week:\n- 2026-03-10, you to Otto Member: Great pairing\n- 2026-03-10, from someone, anonymously: Calm under pressure\n- 2026-03-10, from Otto Member: Thanks for the review',
    );
    expect((await t.request('POST', CHAT, { token, body: { message: 'and yesterday?', session_id: kudos.body.session_id } })).body.message.content).toBe('No kudos given or received yesterday.');
  });

  it('says plainly what it cannot do: other questions, changes, tasks and kudos', async () => {
    const unknown = await t.request('POST', CHAT, { token, body: { message: 'What is the capital of France?' } });
    expect(unknown.body.classification).toBe('unknown');
    expect(unknown.body.message.content).toMatch(/^I cannot answer that: without a language model \(the server's LLM_BASE_URL is not set\) I only know your own data\. I can tell you, from your own data:\n- /);
    expect(unknown.body.actions).toEqual([]);
    const change = await t.request('POST', CHAT, { token, body: { message: 'Give kudos to Otto for the release' } });
    expect(change.body).toMatchObject({ classification: 'change_request', message: { content: expect.stringContaining('I cannot make changes from the chat.') } });
    expect((await t.request('POST', CHAT, { token, body: { message: 'Which tasks are due this week?' } })).body.message.content).toBe(
      'Plan tasks are not on this server yet, so I cannot see your tasks.',
    );
    // The commands a client says it has filter the suggestions.
    const filtered = await t.request('POST', CHAT, { token, body: { message: 'help', available_commands: ['status', { name: 'checkin list' }] } });
    expect(filtered.body.actions).toEqual([]);
    const kept = await t.request('POST', CHAT, { token, body: { message: 'help', available_commands: [{ name: 'update' }] } });
    expect(kept.body.actions).toHaveLength(1);
  });

  it('forwards to LLM_BASE_URL with the caller\'s context and the earlier turns, through the outbound HTTP client', async () => {
    await t.close();
    model = await startHttpReceiver((req) => ({
      status: 200,
      body: { id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: `Answer ${req.json.messages.length}` }, finish_reason: 'stop' }] },
    }));
    t = await startTestApp({}, { LLM_BASE_URL: `${model.url}/v1`, LLM_API_KEY: 'sk-local-secret', LLM_MODEL: 'llama-local' });
    p = await seedPeople(t);
    token = await t.seedToken(p.org.uuid, p.member.user.uuid);
    await seedDay(t, p);

    const first = await t.request('POST', CHAT, { token, body: { message: 'What should I focus on?' } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ answered_by: 'language_model', message: { role: 'assistant', content: 'Answer 2' } });
    const [sent] = model.received;
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-local-secret');
    expect(sent.json.model).toBe('llama-local');
    const [system, user] = sent.json.messages;
    expect(system.role).toBe('system');
    expect(system.content).toContain('You are the Rollcall assistant in the command-line client of Mia Member (mia@acme.test), member at Acme.');
    expect(system.content).toContain('Today is 2026-03-10 (UTC).');
    expect(system.content).toContain('## Check-ins waiting for an answer today\n- Daily (2 questions)');
    expect(system.content).toContain('## Blockers the caller reported (the last 7 days, 2026-03-04 to 2026-03-10)\n- 2026-03-09, Daily: Waiting for the staging database');
    expect(system.content).toContain('## Tasks\nPlan tasks are not on this server yet');
    expect(user).toEqual({ role: 'user', content: 'What should I focus on?' });

    await t.request('POST', CHAT, { token, body: { message: 'Why?', session_id: first.body.session_id } });
    expect(model.received[1].json.messages.slice(1)).toEqual([
      { role: 'user', content: 'What should I focus on?' },
      { role: 'assistant', content: 'Answer 2' },
      { role: 'user', content: 'Why?' },
    ]);
    // History the client kept stands in for a session.
    await t.request('POST', CHAT, { token, body: { messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello' }, { role: 'user', content: 'Again?' }] } });
    expect(model.received[2].json.messages.slice(1).map((m: { content: string }) => m.content)).toEqual(['Hi', 'Hello', 'Again?']);
    expect(t.logs.join('\n')).not.toContain('sk-local-secret');

    // The model failing: the built-in assistant answers, and says why.
    model.setResponder(() => ({ status: 503, body: { error: 'overloaded' } }));
    const fallback = await t.request('POST', CHAT, { token, body: { message: 'What is pending?' } });
    expect(fallback.body).toMatchObject({
      answered_by: 'built_in',
      classification: 'pending_checkins',
      message: { content: 'The language model did not answer (the model answered HTTP 503), so here is what I can tell from your own data.\n\nYou have 1 check-in waiting for an answer today:\n- Daily (2 questions)' },
    });
  });

  it('takes 30 questions a minute per credential (429 throttled with Retry-After), then the next minute', async () => {
    t.clock.set('2026-03-10T15:00:00.000Z');
    for (let i = 0; i < 30; i++) expect((await t.request('POST', CHAT, { token, body: { message: 'hi' } })).status).toBe(200);
    const refused = await t.request('POST', CHAT, { token, body: { message: 'hi' } });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail: 'Request was throttled. Expected available in 60 seconds.', code: 'throttled', extra: { retry_after: 60 } });
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('ratelimit-policy')).toBe('"chat";q=30;w=60');
    // Another credential of the same person has its own 30.
    expect((await t.request('POST', CHAT, { key: p.member.key, body: { message: 'hi' } })).status).toBe(200);
    t.clock.advance(60_000);
    expect((await t.request('POST', CHAT, { token, body: { message: 'hi' } })).status).toBe(200);
  });

  it('keeps each person\'s sessions to themselves and validates the question', async () => {
    const mine = await t.request('POST', CHAT, { token, body: { message: 'hi' } });
    const other = await t.request('POST', CHAT, { key: p.other.key, body: { message: 'and yesterday?', session_id: mine.body.session_id } });
    expect(other.body.session_id).not.toBe(mine.body.session_id);
    expect(other.body.classification).toBe('unknown');
    const reset = await t.request('POST', CHAT, { token, body: { message: 'hi', session_id: mine.body.session_id, reset_thread: true } });
    expect(reset.body.session_id).not.toBe(mine.body.session_id);

    const empty = await t.request('POST', CHAT, { token, body: { message: ' ' } });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ message: ['Send message, or messages ending with a user turn.'] });
    expect((await t.request('POST', CHAT, { token, body: { messages: [{ role: 'assistant', content: 'x' }] } })).body).toEqual({ message: ['Send message, or messages ending with a user turn.'] });
    const agent = await t.seedUser(p.org.uuid, { kind: 'agent' });
    expect((await t.request('POST', CHAT, { key: agent.key, body: { message: 'hi' } })).body.code).toBe('insufficient_scope');
  });
});
