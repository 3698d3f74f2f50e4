import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activity } from '../../../../test/teams-stand-in.ts';
import { sendDueReports } from '../../checkin-runs/feature.ts';
import { STANDUP, startTeamsApp } from './teams-fixtures.ts';
import type { TeamsApp } from './teams-fixtures.ts';

const card = (posted: { json: any }) => posted.json.attachments[0].content;

/**
 * Answering a check-in in Microsoft Teams, against a stand-in of the Bot Framework (its OpenID keys, the token
 * endpoint, the Bot Connector), with activities signed by a real RSA key: the prompt is an Adaptive Card with an
 * input per question, "Save" saves through the responses service, the card turns "Answered ✓"; the answer is then
 * the API's, the web page's and the report's.
 */
describe('Microsoft Teams bot: answering a check-in in an Adaptive Card', () => {
  let app: TeamsApp;
  beforeEach(async () => {
    app = await startTeamsApp();
  });
  afterEach(async () => app.close());

  const responsesOf = async (key: string) => (await app.t.request('GET', `/v1/checkins/${app.checkin.uuid}/responses/`, { key })).body.results;

  it('sends each person a card with one input per question; "Save" saves; the card turns "Answered ✓"; the report goes to the channel', async () => {
    const { t, teams, p, people, checkin } = app;
    const [q1, q2] = checkin.questions;
    const prompt = await app.promptOf(p.member.user.uuid);
    // Mia was found by e-mail in the team's roster, and her personal chat with the bot opened (proactively).
    expect(teams.calls('GET', /\/members\//).map((c) => decodeURIComponent(c.url.split('/members/')[1]))).toEqual(expect.arrayContaining([p.member.user.email]));
    const created = teams.calls('POST', /^\/connector\/v3\/conversations$/).find((c) => c.json.members[0].id === people.mia.aadObjectId)!;
    expect(created.json).toMatchObject({ isGroup: false, bot: { id: `28:6f1f0e2a-4b7c-4c1e-9a55-0d3c2b1a0f99` }, tenantId: '0d3a6c2e-1111-4a4a-8b8b-2c2c2c2c2c2c' });
    expect(created.headers.authorization).toBe('Bearer teams-connector-token');
    const [sent] = app.posted(`a:personal-${people.mia.aadObjectId}`);
    expect(sent.json.summary).toContain('Time for Daily (2026-03-10).');
    const prompted = card(sent);
    expect(prompted.body[0]).toMatchObject({ type: 'TextBlock', text: '**Daily** — 2026-03-10' });
    expect(prompted.body.slice(1, 3)).toEqual([
      { type: 'Input.Text', id: `q.${q1.uuid}`, label: 'What did you do?', isRequired: true, errorMessage: 'An answer is required.', isMultiline: true, maxLength: 3000 },
      { type: 'Input.Text', id: `q.${q2.uuid}`, label: 'Anything blocking you?', isRequired: false, isMultiline: true, maxLength: 3000 },
    ]);
    expect(prompted.actions[0]).toEqual({ type: 'Action.Submit', title: 'Save', style: 'positive', data: { rollcall: 'rollcall_answer', p: prompt } });
    expect(prompted.actions[1].url).toMatch(/^https:\/\/rollcall\.example\.com\/checkins\/answer\/[0-9A-Za-z]{43}$/);

    // "Save": Teams posts the inputs with the card's data; saved before Teams hears back.
    const saved = await app.submit(people.mia, { ...prompted.actions[0].data, [`q.${q1.uuid}`]: 'Shipped the importer', [`q.${q2.uuid}`]: 'Waiting on the API keys' }, { example: true });
    expect([saved.status, saved.body]).toEqual([200, {}]);
    const [answer] = await responsesOf(p.member.key);
    expect(answer).toMatchObject({
      response_date: '2026-03-10', response_completed: true, has_issue: true,
      responses: [{ uuid: q1.uuid, index: 0, question: 'What did you do?', response: 'Shipped the importer' }, { uuid: q2.uuid, index: 1, question: 'Anything blocking you?', response: 'Waiting on the API keys' }],
    });
    const link = await t.request('POST', `/v1/checkins/${checkin.uuid}/answer-link/`, { key: p.member.key });
    expect(await (await fetch(link.body.url.replace('https://rollcall.example.com', t.url))).text()).toContain('Shipped the importer');
    // The card is updated in place: "Answered ✓", the inputs behind "Change my answers".
    await t.deps.delivery.runDue();
    const [update] = teams.calls('PUT', /\/activities\//);
    expect(update.url).toBe(`/connector/v3/conversations/${encodeURIComponent(`a:personal-${people.mia.aadObjectId}`)}/activities/${update.json.id}`);
    expect(card(update).body[1]).toMatchObject({ text: 'Answered ✓' });
    expect(card(update).actions[0]).toMatchObject({ type: 'Action.ShowCard', title: 'Change my answers' });

    // The report: to the Stand-up channel, a part per person, the blocker marked, who has not answered.
    t.clock.set('2026-03-10T16:00:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(1);
    await t.deps.delivery.runDue();
    const [report] = app.posted(STANDUP);
    expect(card(report).body.map((b: { text: string }) => b.text)).toEqual([
      '**Daily** — 2026-03-10', '1 of 2 answered', '**Mia Member** ⛔ blocked', '_What did you do?_', 'Shipped the importer', '_Anything blocking you?_', 'Waiting on the API keys', '**Not answered yet:** Otto Member',
    ]);
  });

  it('inputs by question type; a problem with the answers is sent back to the person, and nothing is saved', async () => {
    await app.close();
    app = await startTeamsApp({ questions: [{ question_type: 'numeric', question: 'Hours worked?' }, { question_type: 'boolean', question: 'Blocked?', is_blocker: true }] });
    const { t, p, people, checkin } = app;
    const [hours, blocked] = checkin.questions;
    const prompt = await app.promptOf(p.member.user.uuid);
    const inputs = card(app.posted(`a:personal-${people.mia.aadObjectId}`)[0]).body.slice(1, 3);
    expect(inputs).toEqual([
      { type: 'Input.Number', id: `q.${hours.uuid}`, label: 'Hours worked? (a number)', isRequired: true, errorMessage: 'An answer is required.' },
      { type: 'Input.ChoiceSet', id: `q.${blocked.uuid}`, label: 'Blocked? (yes or no)', isRequired: true, errorMessage: 'An answer is required.', style: 'expanded', choices: [{ title: 'Yes', value: 'yes' }, { title: 'No', value: 'no' }] },
    ]);
    const res = await app.submit(people.mia, { rollcall: 'rollcall_answer', p: prompt, [`q.${hours.uuid}`]: 'many', [`q.${blocked.uuid}`]: 'no' });
    expect(res.status).toBe(200);
    expect(await responsesOf(p.member.key)).toEqual([]);
    await t.deps.delivery.runDue();
    const told = app.posted(`a:personal-${people.mia.aadObjectId}`).at(-1)!;
    expect(told.json.attachments[0].content.body[0].text).toBe('Not saved: Daily (2026-03-10)\n• Hours worked?: A numeric answer is a number.');
    const good = await app.submit(people.mia, { rollcall: 'rollcall_answer', p: prompt, [`q.${hours.uuid}`]: '7.5', [`q.${blocked.uuid}`]: 'no' });
    expect(good.status).toBe(200);
    expect((await responsesOf(p.member.key))[0].responses.map((r: { response: unknown }) => r.response)).toEqual([7.5, false]);
  });

  it('"Change my answers" holds the saved answers, of every type; saving it unchanged keeps them; an answer from the web fills it too', async () => {
    await app.close();
    app = await startTeamsApp({
      questions: [
        { question_type: 'text', question: 'What did you do?' }, { question_type: 'numeric', question: 'Hours worked?' },
        { question_type: 'boolean', question: 'Blocked?', is_blocker: true }, { question_type: 'multiple_choice', question: 'Areas?', options: ['api', 'web', 'docs'], multiple: true },
        { question_type: 'text', question: 'Notes?', required: false },
      ],
    });
    const { t, p, people, checkin } = app;
    const [text, hours, blocked, areas, notes] = checkin.questions.map((q) => `q.${q.uuid}`);
    const prompted = card(app.posted(`a:personal-${people.mia.aadObjectId}`)[0]);
    const [api, , docs] = prompted.body.find((b: { id: string }) => b.id === areas).choices.map((c: { value: string }) => c.value);
    const data = prompted.actions[0].data;
    expect((await app.submit(people.mia, { ...data, [text]: 'Shipped the importer', [hours]: '7.5', [blocked]: 'yes', [areas]: `${api},${docs}`, [notes]: '' })).status).toBe(200);
    await t.deps.delivery.runDue();
    const inputs = () => {
      const shown = card(app.teams.calls('PUT', /\/activities\//).at(-1)!).actions[0];
      expect(shown).toMatchObject({ type: 'Action.ShowCard', title: 'Change my answers' });
      return Object.fromEntries(shown.card.body.map((input: { id: string; value?: unknown }) => [input.id, input.value]));
    };
    expect(inputs()).toEqual({ [text]: 'Shipped the importer', [hours]: 7.5, [blocked]: 'yes', [areas]: `${api},${docs}`, [notes]: undefined });
    // Saved again as shown (Teams posts the inputs' values as they are): the same answers.
    const before = (await t.request('GET', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.member.key })).body.results[0].responses;
    expect((await app.submit(people.mia, { ...data, [text]: 'Shipped the importer', [hours]: '7.5', [blocked]: 'yes', [areas]: `${api},${docs}` })).status).toBe(200);
    expect((await t.request('GET', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.member.key })).body.results[0].responses).toEqual(before);
    // Changed on the web answer page: the card shows the web's answers.
    const link = (await t.request('POST', `/v1/checkins/${checkin.uuid}/answer-link/`, { key: p.member.key })).body.url.replace('https://rollcall.example.com', t.url);
    const opened = await fetch(link);
    const formKey = /name="form_key" value="([0-9a-f]+)"/.exec(await opened.text())![1];
    const changed = await fetch(link, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: opened.headers.get('set-cookie')!.split(';')[0] },
      body: new URLSearchParams([['form_key', formKey], [text, 'Fixed the build'], [hours, '3'], [blocked, 'no'], [areas, docs]]).toString(),
    });
    expect(changed.status).toBe(200);
    await t.deps.delivery.runDue();
    expect(inputs()).toEqual({ [text]: 'Fixed the build', [hours]: 3, [blocked]: 'no', [areas]: docs, [notes]: undefined });
  });

  it('answers in the chat, one question at a time, as in Slack', async () => {
    const { t, p, people, checkin } = app;
    const say = async (text: string) => {
      const res = await app.send(activity(app.teams, people.otto, { text }));
      expect(res.status).toBe(200);
      await t.deps.delivery.runDue();
      return app.posted(`a:personal-${people.otto.aadObjectId}`).at(-1)!.json.attachments[0].content.body[0].text as string;
    };
    expect(await say('Reviewed the release notes')).toBe('2/2 · Anything blocking you?');
    expect(await say('skip')).toContain('Saved ✓ Daily for 2026-03-10.');
    const [saved] = await responsesOf(p.other.key);
    expect(saved.responses).toEqual([{ uuid: checkin.questions[0].uuid, index: 0, question: 'What did you do?', response: 'Reviewed the release notes' }]);
  });

  it('GET /v1/integrations/ shows the messaging endpoint to paste; a test prompt goes the whole way round and saves nothing', async () => {
    const { t, p, people } = app;
    const status = await t.request('GET', '/v1/integrations/', { key: p.adminKey });
    expect(status.body).toMatchObject({
      platform: 'microsoft_teams', can_receive: true, problem: null, workspace: '0d3a6c2e-1111-4a4a-8b8b-2c2c2c2c2c2c',
      request_urls: [{ name: 'Azure Bot › Configuration › Messaging endpoint', url: 'https://rollcall.example.com/v1/integrations/teams/messages/' }],
    });
    // The report channels are the team's.
    const channels = await t.request('GET', '/v1/report-channels/', { key: p.adminKey });
    expect(channels.body.channels.map((c: { name: string }) => c.name)).toEqual(['General', 'Stand-up']);
    // Mia is an admin for this test: the test prompt goes to the caller.
    await t.db('users').where({ uuid: p.member.user.uuid }).update({ role: 'admin' });
    const sent = await t.request('POST', '/v1/integrations/test-prompt/', { key: p.member.key });
    expect(sent.status).toBe(202);
    await t.deps.delivery.runDue();
    const test = app.posted(`a:personal-${people.mia.aadObjectId}`).at(-1)!;
    const data = test.json.attachments[0].content.actions[0].data;
    expect(data).toEqual({ rollcall: 'rollcall_answer', t: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const before = await app.answersState();
    expect((await app.submit(people.mia, { ...data, 'q.test': 'Fine' })).status).toBe(200);
    await t.deps.delivery.runDue();
    expect(app.teams.calls('PUT', /\/activities\//).at(-1)!.json.attachments[0].content.body[2].text).toBe('A test prompt: nothing was saved.');
    expect(await app.answersState()).toBe(before);
  });
});
