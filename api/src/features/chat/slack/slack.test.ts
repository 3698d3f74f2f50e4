import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clickPayload, eventBody, imMessage, interactionBody, submitPayload, textValue } from '../../../../test/slack-stand-in.ts';
import { sendDueReminders, sendDueReports } from '../../checkin-runs/feature.ts';
import { pruneConversations } from '../../checkin-runs/chat-conversation.ts';
import { startSlackApp } from './slack-fixtures.ts';
import type { SlackApp } from './slack-fixtures.ts';

/**
 * Answering a check-in in Slack, against a stand-in of Slack's Web API, with requests signed as Slack signs them:
 * the prompt's "Answer" button opens a modal, submitting saves through the responses service, the message turns
 * "Answered ✓"; or the person answers in the conversation, one question at a time. The answer is then the API's,
 * the web page's and the report's.
 */
describe('Slack: answering a check-in in a modal or in the conversation', () => {
  let app: SlackApp;
  beforeEach(async () => {
    app = await startSlackApp();
  });
  afterEach(async () => app.close());

  const responsesOf = async (key: string) => (await app.t.request('GET', `/v1/checkins/${app.checkin.uuid}/responses/`, { key })).body.results;

  it('asks by direct message with an "Answer" button; the modal saves through the responses service; the message turns "Answered ✓"', async () => {
    const { t, slack, p, ids, checkin } = app;
    const [q1, q2] = checkin.questions;
    const prompt = await app.promptOf(p.member.user.uuid);
    // The prompt's direct message: the questions, "Answer" (the prompt), a link to the web page.
    const dm = slack.calls('chat.postMessage').find((c) => c.json.channel === `D${ids.mia}`)!;
    expect(dm.json.text).toContain('Time for Daily (2026-03-10).');
    expect(dm.json.blocks[0]).toEqual({ type: 'section', text: { type: 'mrkdwn', text: '*Daily* — 2026-03-10' } });
    expect(dm.json.blocks[1].text.text).toBe('1. What did you do?\n2. Anything blocking you?');
    expect(dm.json.blocks[2].elements[0]).toEqual({ type: 'button', action_id: 'rollcall_answer', text: { type: 'plain_text', text: 'Answer', emoji: true }, value: `p:${prompt}`, style: 'primary' });
    expect(dm.json.blocks[2].elements[1].url).toMatch(/^https:\/\/rollcall\.example\.com\/checkins\/answer\/[0-9A-Za-z]{43}$/);

    // "Answer": the modal opens (views.open with the click's trigger), one multi-line input per question.
    const click = await app.send('interactions', interactionBody(clickPayload(ids.mia, `p:${prompt}`, { trigger: 'trigger.1' })));
    expect([click.status, click.text]).toEqual([200, '']);
    const opened = app.lastModal();
    expect(opened.trigger_id).toBe('trigger.1');
    expect(opened.view.title).toEqual({ type: 'plain_text', text: 'Daily', emoji: true });
    expect(opened.view.blocks.slice(1)).toEqual([
      { type: 'input', block_id: `q.${q1.uuid}`, optional: false, label: { type: 'plain_text', text: 'What did you do?', emoji: true }, element: { type: 'plain_text_input', action_id: 'value', multiline: true, max_length: 3000 } },
      { type: 'input', block_id: `q.${q2.uuid}`, optional: true, label: { type: 'plain_text', text: 'Anything blocking you?', emoji: true }, element: { type: 'plain_text_input', action_id: 'value', multiline: true, max_length: 3000 } },
    ]);
    expect(JSON.parse(opened.view.private_metadata)).toEqual({ c: checkin.uuid, d: '2026-03-10', p: prompt });

    // Submitting saves, in the request, before Slack hears back.
    const submitted = await app.send('interactions', interactionBody(submitPayload(ids.mia, opened.view, { [`q.${q1.uuid}`]: textValue('Shipped the importer'), [`q.${q2.uuid}`]: textValue('Waiting on the API keys') })), { example: true });
    expect([submitted.status, submitted.body]).toEqual([200, { response_action: 'clear' }]);
    const [saved] = await responsesOf(p.member.key);
    expect(saved).toMatchObject({
      response_date: '2026-03-10', response_completed: true, has_issue: true,
      responses: [{ uuid: q1.uuid, index: 0, question: 'What did you do?', response: 'Shipped the importer' }, { uuid: q2.uuid, index: 1, question: 'Anything blocking you?', response: 'Waiting on the API keys' }],
    });
    // The same answer on the web page (a fresh link, as `rollcall checkins today` gives).
    const link = await t.request('POST', `/v1/checkins/${checkin.uuid}/answer-link/`, { key: p.member.key });
    const page = await fetch(link.body.url.replace('https://rollcall.example.com', t.url));
    expect(await page.text()).toContain('Shipped the importer');

    // The direct message becomes "Answered ✓" with "Edit" (chat.update of the same message).
    await t.deps.delivery.runDue();
    const [update] = slack.calls('chat.update');
    expect(update.json).toMatchObject({ channel: `D${ids.mia}`, ts: expect.any(String), text: 'Daily (2026-03-10): answered ✓' });
    expect(update.json.blocks[0].text.text).toBe('*Daily* — 2026-03-10\nAnswered ✓');
    expect(update.json.blocks[1].elements[0]).toMatchObject({ action_id: 'rollcall_answer', value: `p:${prompt}`, text: { text: 'Edit' } });

    // "Edit" opens the modal filled with the day's answers.
    await app.send('interactions', interactionBody(clickPayload(ids.mia, `p:${prompt}`)));
    expect(app.lastModal().view.blocks.slice(1).map((b) => b.element.initial_value)).toEqual(['Shipped the importer', 'Waiting on the API keys']);

    // The report: a section per person, the blocker marked, who has not answered.
    t.clock.set('2026-03-10T16:00:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(1);
    await t.deps.delivery.runDue();
    const report = slack.calls('chat.postMessage').find((c) => c.json.channel === 'C1')!.json;
    expect(report.blocks).toEqual([
      { type: 'header', text: { type: 'plain_text', text: 'Daily — 2026-03-10', emoji: true } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: '1 of 2 answered' }] },
      { type: 'divider' },
      { type: 'section', text: { type: 'mrkdwn', text: '*Mia Member*  :no_entry: *blocked*\n_What did you do?_\n>Shipped the importer\n_Anything blocking you?_\n>Waiting on the API keys' } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: '*Not answered yet:* Otto Member' }] },
    ]);
    expect(report.text).toContain('Mia Member (blocked)');
  });

  it('validation problems come back into the modal (response_action: errors), nothing saved', async () => {
    await app.close();
    app = await startSlackApp({ questions: [{ question_type: 'numeric', question: 'Hours worked?' }, { question_type: 'boolean', question: 'Blocked?', is_blocker: true }] });
    const { ids, p, checkin } = app;
    const [hours, blocked] = checkin.questions;
    const prompt = await app.promptOf(p.member.user.uuid);
    await app.send('interactions', interactionBody(clickPayload(ids.mia, `p:${prompt}`)));
    const opened = app.lastModal();
    expect(opened.view.blocks.slice(1).map((b) => b.element)).toEqual([
      { type: 'number_input', action_id: 'value', is_decimal_allowed: true },
      { type: 'radio_buttons', action_id: 'value', options: [{ text: { type: 'plain_text', text: 'Yes', emoji: true }, value: 'yes' }, { text: { type: 'plain_text', text: 'No', emoji: true }, value: 'no' }] },
    ]);
    const bad = await app.send('interactions', interactionBody(submitPayload(ids.mia, opened.view, { [`q.${hours.uuid}`]: { type: 'number_input', value: 'many' }, [`q.${blocked.uuid}`]: { type: 'radio_buttons', selected_option: { value: 'no' } } })));
    expect([bad.status, bad.body]).toEqual([200, { response_action: 'errors', errors: { [`q.${hours.uuid}`]: 'A numeric answer is a number.' } }]);
    expect(await responsesOf(p.member.key)).toEqual([]);
    const good = await app.send('interactions', interactionBody(submitPayload(ids.mia, opened.view, { [`q.${hours.uuid}`]: { type: 'number_input', value: '7.5' }, [`q.${blocked.uuid}`]: { type: 'radio_buttons', selected_option: { value: 'no' } } })));
    expect(good.body).toEqual({ response_action: 'clear' });
    expect((await responsesOf(p.member.key))[0].responses.map((r: { response: unknown }) => r.response)).toEqual([7.5, false]);
  });

  it('answers in the conversation, one question at a time: a reply per question, `skip`, then `edit` starts again', async () => {
    const { t, slack, p, ids, checkin } = app;
    const [q1, q2] = checkin.questions;
    const say = async (text: string) => {
      const res = await app.send('events', eventBody(imMessage(ids.otto, text)));
      expect([res.status, res.text]).toEqual([200, '']);
      await t.deps.delivery.runDue();
      return slack.calls('chat.postMessage').filter((c) => c.json.channel === `D${ids.otto}`).at(-1)!.json.text as string;
    };
    expect(await say('Reviewed the release notes')).toBe('2/2 · Anything blocking you?');
    expect(await responsesOf(p.other.key)).toEqual([]);
    expect(await say('skip')).toBe('Saved ✓ Daily for 2026-03-10. Reply `edit` to change your answers until the report goes out.');
    const [first] = await responsesOf(p.other.key);
    expect(first.responses).toEqual([{ uuid: q1.uuid, index: 0, question: 'What did you do?', response: 'Reviewed the release notes' }]);
    // The prompt's message turned "Answered ✓" too.
    await t.deps.delivery.runDue();
    expect(slack.calls('chat.update').map((c) => c.json.channel)).toContain(`D${ids.otto}`);

    expect(await say('hello again')).toBe('You have answered Daily for 2026-03-10 ✓. Reply `edit` to change your answers.');
    expect(await say('edit')).toBe('Changing Daily for 2026-03-10.\n1/2 · What did you do?\nNow: Reviewed the release notes (`skip` keeps it)');
    expect(await say('skip')).toBe('2/2 · Anything blocking you?');
    expect(await say('The staging database')).toContain('Saved ✓');
    const [second] = await responsesOf(p.other.key);
    expect(second.responses.map((r: { response: string }) => r.response)).toEqual(['Reviewed the release notes', 'The staging database']);
    expect(second.has_issue).toBe(true);
  });

  it('a conversation left half-way is saved as far as it got when the report goes out, and the report shows it', async () => {
    const { t, slack, ids } = app;
    await app.send('events', eventBody(imMessage(ids.mia, 'Fixed the login bug')));
    expect(await t.db('checkin_responses')).toEqual([]);
    t.clock.set('2026-03-10T16:00:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(1);
    await t.deps.delivery.runDue();
    const report = slack.calls('chat.postMessage').find((c) => c.json.channel === 'C1')!.json;
    expect(report.blocks[3].text.text).toBe('*Mia Member*\n_What did you do?_\n>Fixed the login bug');
    expect(await t.db('checkin_chat_conversations')).toEqual([]);
    // After the report, the answer can no longer change here.
    await app.send('events', eventBody(imMessage(ids.mia, 'edit')));
    await t.deps.delivery.runDue();
    expect(slack.calls('chat.postMessage').filter((c) => c.json.channel === `D${ids.mia}`).at(-1)!.json.text).toBe('There is nothing to answer right now. `/rollcall status` shows your check-ins of today.');
  });

  it('a blank required answer in the modal is refused on its own question; the App Home says pending while an agent\'s lines alone answer in part (issue 34)', async () => {
    const { ids, p, checkin } = app;
    const [q1, q2] = checkin.questions;
    const prompt = await app.promptOf(p.member.user.uuid);
    await app.send('interactions', interactionBody(clickPayload(ids.mia, `p:${prompt}`)));
    const opened = app.lastModal();
    const blank = await app.send('interactions', interactionBody(submitPayload(ids.mia, opened.view, { [`q.${q1.uuid}`]: textValue('  \n '), [`q.${q2.uuid}`]: textValue('None') })));
    expect([blank.status, blank.body]).toEqual([200, { response_action: 'errors', errors: { [`q.${q1.uuid}`]: 'This question needs an answer.' } }]);
    expect(await responsesOf(p.member.key)).toEqual([]);
    // An agent's co-authored lines for a check-in whose required questions they leave empty: still pending.
    await app.close();
    app = await startSlackApp({ questions: [{ question_type: 'text', question: 'What did you do?' }, { question_type: 'text', question: 'What will you do?' }] });
    const merged = await app.t.request('POST', '/v1/agent-reports/', { key: app.p.adminKey, body: { agent_name: 'deploy-bot', content: 'Deployed v2', structured: { completed: ['Deployed v2'] }, co_authors: [app.p.member.user.email] } });
    expect(merged.status).toBe(201);
    const home = await app.send('events', eventBody({ type: 'app_home_opened', user: app.ids.mia, channel: `D${app.ids.mia}`, tab: 'home' }));
    expect(home.status).toBe(200);
    await app.t.deps.delivery.runDue();
    expect((await app.t.db('checkin_responses')).map((r: { response_completed: unknown }) => Boolean(r.response_completed))).toEqual([false]);
    expect(app.slack.calls('views.publish').at(-1)!.json.view.blocks[1].text.text).toBe('*Daily* — 2026-03-10\nWaiting for your answers');
  });

  it('a conversation stopped before a required question is kept when the report goes out, marked not finished and not counted (issue 34)', async () => {
    await app.close();
    app = await startSlackApp({ questions: [{ question_type: 'text', question: 'What did you do?' }, { question_type: 'text', question: 'What will you do?' }] });
    const { t, slack, ids } = app;
    await app.send('events', eventBody(imMessage(ids.mia, 'Fixed the login bug')));
    t.clock.set('2026-03-10T16:00:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(1);
    await t.deps.delivery.runDue();
    const report = slack.calls('chat.postMessage').find((c) => c.json.channel === 'C1')!.json;
    expect(report.blocks[1].elements[0].text).toBe('0 of 2 answered');
    expect(report.blocks[3].text.text).toBe('*Mia Member*  _(not finished)_\n_What did you do?_\n>Fixed the login bug');
    expect((await t.db('checkin_responses')).map((r: { response_completed: unknown }) => Boolean(r.response_completed))).toEqual([false]);
    expect(await t.db('checkin_chat_conversations')).toEqual([]);
  });

  it('a conversation nobody finishes and no team report saves is dropped after two days', async () => {
    const { t, ids } = app;
    await app.send('events', eventBody(imMessage(ids.otto, 'Half an answer')));
    expect(await pruneConversations(t.db, t.clock.now())).toBe(0);
    t.clock.advance(2 * 86_400_000 + 60_000);
    expect(await pruneConversations(t.db, t.clock.now())).toBe(1);
    expect(await t.db('checkin_chat_conversations')).toEqual([]);
  });

  it('reminds by direct message, with the same "Answer" button', async () => {
    await app.close();
    app = await startSlackApp({ askNow: false });
    const { t, slack, p, ids, checkin } = app;
    await t.request('PATCH', `/v1/checkins/${checkin.uuid}/config/`, { key: p.adminKey, body: { reminders_max_count: 1, reminders_frequency_time: 60 } });
    await app.ask();
    const prompt = await app.promptOf(p.member.user.uuid);
    t.clock.set('2026-03-10T09:00:00.000Z');
    expect(await sendDueReminders(t.deps)).toBe(2);
    await t.deps.delivery.runDue();
    const reminder = slack.calls('chat.postMessage').filter((c) => c.json.channel === `D${ids.mia}`).at(-1)!.json;
    expect(reminder.blocks[0].text.text).toBe('⏰ A reminder: *Daily* — 2026-03-10');
    expect(reminder.blocks[2].elements[0].value).toBe(`p:${prompt}`);
  });

  it('the App Home lists today\'s check-ins and their state (views.publish)', async () => {
    const { t, slack, ids } = app;
    const opened = await app.send('events', eventBody({ type: 'app_home_opened', user: ids.mia, channel: `D${ids.mia}`, tab: 'home' }));
    expect(opened.status).toBe(200);
    await t.deps.delivery.runDue();
    const [published] = slack.calls('views.publish');
    expect(published.json.user_id).toBe(ids.mia);
    expect(published.json.view.type).toBe('home');
    expect(published.json.view.blocks[1]).toMatchObject({ type: 'section', text: { text: '*Daily* — 2026-03-10\nWaiting for your answers' }, accessory: { action_id: 'rollcall_answer', value: `p:${await app.promptOf(app.p.member.user.uuid)}` } });
  });
});
