import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MM_TEAM, dmChannel } from '../../../../test/mattermost-stand-in.ts';
import { sendDueReminders, sendDueReports } from '../../checkin-runs/feature.ts';
import { PUBLIC_URL, startMattermostApp } from './mattermost-fixtures.ts';
import type { MattermostApp } from './mattermost-fixtures.ts';

/**
 * Answering a check-in in Mattermost, against a stand-in of its REST API: the prompt's direct message carries an
 * "Answer" button (its context signed by Rollcall) that opens an interactive dialog; the submission saves through
 * the responses service; the message turns "Answered ✓"; `/rollcall` opens the dialog too; the report goes to
 * the channel. The answer is then the API's and the report's.
 */
describe('Mattermost: answering a check-in in a dialog', () => {
  let app: MattermostApp;
  beforeEach(async () => {
    app = await startMattermostApp();
  });
  afterEach(async () => app.close());

  const responsesOf = async (key: string) => (await app.t.request('GET', `/v1/checkins/${app.checkin.uuid}/responses/`, { key })).body.results;

  it('asks by direct message with an "Answer" button; the dialog saves through the responses service; the message turns "Answered ✓"; the report goes to the channel', async () => {
    const { t, mm, p, ids, checkin } = app;
    const [q1, q2] = checkin.questions;
    const prompt = await app.promptOf(p.member.user.uuid);
    const [dm] = app.postsTo(ids.mia);
    expect(dm.message).toBe('**Daily** — 2026-03-10\n1. What did you do?\n2. Anything blocking you?');
    const button = dm.props.attachments[0].actions[0];
    expect(button).toMatchObject({ id: 'rollcallanswer', name: 'Answer', type: 'button', style: 'primary', integration: { url: `${PUBLIC_URL}/v1/integrations/mattermost/actions/` } });
    expect(button.integration.context).toEqual({ o: p.org.uuid, v: `p:${prompt}`, s: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(dm.props.attachments[0].text).toMatch(/^\[Answer on the web\]\(https:\/\/rollcall\.example\.com\/checkins\/answer\/[0-9A-Za-z]{43}\)$/);

    // "Answer": the dialog opens with the click's trigger, one element per question, our state signed.
    const click = await app.click(ids.mia, button.integration.context, { trigger: 'trigger1' });
    expect([click.status, click.body]).toEqual([200, {}]);
    const opened = app.lastDialog();
    expect(opened.trigger_id).toBe('trigger1');
    expect(opened.url).toBe(`${PUBLIC_URL}/v1/integrations/mattermost/dialogs/`);
    expect(opened.dialog.title).toBe('Daily');
    expect(opened.dialog.elements).toEqual([
      { display_name: '1. What did you do?', name: `q.${q1.uuid}`, optional: false, help_text: 'What did you do?', type: 'textarea', max_length: 3000 },
      { display_name: '2. Anything blocking yo…', name: `q.${q2.uuid}`, optional: true, help_text: 'Anything blocking you?', type: 'textarea', max_length: 3000 },
    ]);
    expect(JSON.parse(opened.dialog.state)).toMatchObject({ o: p.org.uuid, c: checkin.uuid, d: '2026-03-10', p: prompt, t: null });

    // Submitting saves, in the request, before Mattermost hears back.
    const submitted = await app.submit(ids.mia, opened.dialog.state, { [`q.${q1.uuid}`]: 'Shipped the importer', [`q.${q2.uuid}`]: 'Waiting on the API keys' }, { example: true });
    expect([submitted.status, submitted.body]).toEqual([200, {}]);
    const [saved] = await responsesOf(p.member.key);
    expect(saved).toMatchObject({
      response_date: '2026-03-10', response_completed: true, has_issue: true,
      responses: [{ uuid: q1.uuid, response: 'Shipped the importer' }, { uuid: q2.uuid, response: 'Waiting on the API keys' }],
    });

    // The direct message becomes "Answered ✓" with "Edit" (the same post, patched).
    await t.deps.delivery.runDue();
    const [patch] = mm.calls('PUT', '/posts/:id/patch');
    expect(patch.json.message).toBe('**Daily** — 2026-03-10\nAnswered ✓');
    expect(patch.json.props.attachments[0].actions[0]).toMatchObject({ name: 'Edit', integration: { context: { v: `p:${prompt}` } } });

    // "Edit" opens the dialog filled with the day's answers.
    expect((await app.click(ids.mia, button.integration.context)).status).toBe(200);
    expect(app.lastDialog().dialog.elements.map((e) => e.default)).toEqual(['Shipped the importer', 'Waiting on the API keys']);

    // The report, in the channel: a part per person, the blocker marked, who has not answered.
    t.clock.set('2026-03-10T16:00:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(1);
    await t.deps.delivery.runDue();
    const report = mm.calls('POST', '/posts').map((c) => c.json).find((j) => j.channel_id === 'townsquare0000000000000000')!;
    expect(report.message).toBe(
      '### Daily — 2026-03-10\n\n1 of 2 answered\n\n#### Mia Member ⛔ **blocked**\n*What did you do?*\n> Shipped the importer\n*Anything blocking you?*\n> Waiting on the API keys\n\n**Not answered yet:** Otto Member',
    );
  });

  it('/rollcall opens the next check-in in the dialog; status, kudos and help answer ephemerally', async () => {
    const { ids, p, checkin } = app;
    const opened = await app.command(ids.otto, '', { example: true });
    expect([opened.status, opened.body]).toEqual([200, { response_type: 'ephemeral', text: 'Opening Daily for 2026-03-10.' }]);
    const dialog = app.lastDialog();
    expect(JSON.parse(dialog.dialog.state)).toMatchObject({ c: checkin.uuid, p: await app.promptOf(p.other.user.uuid) });
    const status = await app.command(ids.otto, 'status');
    expect(status.body).toEqual({ response_type: 'ephemeral', text: '- **Daily** (2026-03-10): waiting for your answers' });
    expect((await app.command(ids.otto, 'help')).body.text).toContain('**/rollcall status**');
    // Kudos: the people by their Mattermost usernames (matched by e-mail), through the kudos service.
    const kudos = await app.command(ids.otto, 'kudos @mia Thanks for the review!');
    expect(kudos.body).toEqual({ response_type: 'ephemeral', text: '🎉 Kudos sent to Mia Member.' });
    const [given] = (await app.t.request('GET', '/v1/kudos/', { key: p.member.key })).body.results;
    expect(given).toMatchObject({ content: 'Thanks for the review!', giver: { uuid: p.other.user.uuid }, receivers: [{ uuid: p.member.user.uuid }] });
    expect((await app.command(ids.otto, 'kudos @nobody thanks')).body.text).toBe('Rollcall does not know @nobody: kudos go to people of your organization.');
    // The command tied the connection to its team.
    expect((await app.t.request('GET', '/v1/integrations/', { key: p.adminKey })).body).toMatchObject({
      platform: 'mattermost', label: 'Mattermost', can_receive: true, problem: null, workspace: MM_TEAM,
      request_urls: [
        { name: 'Slash Commands › /rollcall › Request URL', url: `${PUBLIC_URL}/v1/integrations/mattermost/commands/` },
        { name: 'Buttons (set by Rollcall in each message; nothing to paste)', url: `${PUBLIC_URL}/v1/integrations/mattermost/actions/` },
        { name: 'Dialogs (set by Rollcall; nothing to paste)', url: `${PUBLIC_URL}/v1/integrations/mattermost/dialogs/` },
      ],
    });
  });

  it('validation problems come back into the dialog (errors), nothing saved; yes/no and numbers', async () => {
    await app.close();
    app = await startMattermostApp({ questions: [{ question_type: 'numeric', question: 'Hours worked?' }, { question_type: 'boolean', question: 'Blocked?', is_blocker: true }] });
    const { ids, p, checkin } = app;
    const [hours, blocked] = checkin.questions;
    await app.click(ids.mia, app.buttonOf(ids.mia).integration.context);
    const { dialog } = app.lastDialog();
    expect(dialog.elements.map((e) => [e.type, e.subtype ?? null, e.options ?? null])).toEqual([
      ['text', 'number', null],
      ['radio', null, [{ text: 'Yes', value: 'yes' }, { text: 'No', value: 'no' }]],
    ]);
    const bad = await app.submit(ids.mia, dialog.state, { [`q.${hours.uuid}`]: 'many', [`q.${blocked.uuid}`]: 'no' });
    expect([bad.status, bad.body]).toEqual([200, { errors: { [`q.${hours.uuid}`]: 'A numeric answer is a number.' } }]);
    expect(await responsesOf(p.member.key)).toEqual([]);
    // A refused submission keeps the dialog open: the same state is taken again, corrected.
    await app.click(ids.mia, app.buttonOf(ids.mia).integration.context);
    const good = await app.submit(ids.mia, app.lastDialog().dialog.state, { [`q.${hours.uuid}`]: '7.5', [`q.${blocked.uuid}`]: 'no' });
    expect(good.body).toEqual({});
    expect((await responsesOf(p.member.key))[0].responses.map((r: { response: unknown }) => r.response)).toEqual([7.5, false]);
  });

  it('reminds by direct message, with the same "Answer" button', async () => {
    await app.close();
    app = await startMattermostApp({ config: { reminders_max_count: 1, reminders_frequency_time: 60 } });
    const { t, p, ids } = app;
    t.clock.set('2026-03-10T09:00:00.000Z');
    expect(await sendDueReminders(t.deps)).toBe(2);
    await t.deps.delivery.runDue();
    const reminder = app.postsTo(ids.mia).at(-1)!;
    expect(reminder.message).toMatch(/^⏰ A reminder: \*\*Daily\*\* — 2026-03-10\n/);
    expect(reminder.props.attachments[0].actions[0].integration.context.v).toBe(`p:${await app.promptOf(p.member.user.uuid)}`);
    expect(dmChannel(ids.mia)).toBe(reminder.channel_id);
  });

  it('lists the channels reports can go to; a test prompt goes the whole way round and saves nothing', async () => {
    const { t, p, mm } = app;
    const channels = await t.request('GET', '/v1/report-channels/', { key: p.adminKey });
    expect(channels.body).toEqual({ channels: [{ id: 'townsquare0000000000000000', name: 'Acme › Town Square', platform: 'mattermost', type: 'public' }], total: 1 });
    const admin = mm.addUser(p.admin.email);
    const sent = await t.request('POST', '/v1/integrations/test-prompt/', { key: p.adminKey });
    expect(sent.status).toBe(202);
    await t.deps.delivery.runDue();
    const button = app.buttonOf(admin);
    expect(button.integration.context.v).toBe(`t:${sent.body.bot_message_id}`);
    await app.click(admin, button.integration.context);
    const before = await app.answersState();
    expect((await app.submit(admin, app.lastDialog().dialog.state, { 'q.test': 'Fine' })).body).toEqual({});
    await t.deps.delivery.runDue();
    expect(mm.calls('PUT', '/posts/:id/patch').at(-1)!.json.message).toBe('**Rollcall test prompt** — 2026-03-10\nAnswered ✓');
    expect(JSON.parse(await app.answersState()).responses).toEqual(JSON.parse(before).responses);
  });
});
