import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APPLICATION_ID, REPORT_CHANNEL, dmChannel, interactionBody } from '../../../../test/discord-stand-in.ts';
import { sendDueReminders, sendDueReports } from '../../checkin-runs/feature.ts';
import { MIA, OTTO, PUBLIC_URL, startDiscordApp } from './discord-fixtures.ts';
import type { DiscordApp } from './discord-fixtures.ts';

/**
 * Answering a check-in in Discord, against a stand-in of its REST API, with interactions signed by a real Ed25519
 * key pair: the prompt's direct message carries an "Answer" button whose modal saves through the responses
 * service; the message turns "Answered ✓"; `/rollcall` answers, lists, gives kudos; the report goes to a channel.
 */
describe('Discord: answering a check-in in a modal', () => {
  let app: DiscordApp;
  beforeEach(async () => {
    app = await startDiscordApp();
  });
  afterEach(async () => app.close());

  const responsesOf = async (key: string) => (await app.t.request('GET', `/v1/checkins/${app.checkin.uuid}/responses/`, { key })).body.results;

  it('answers Discord\'s PING with a PONG', async () => {
    const res = await app.send(interactionBody(1, MIA, null), { example: true });
    expect([res.status, res.body]).toEqual([200, { type: 1 }]);
  });

  it('asks by direct message with "Answer"; the modal saves through the responses service; the message turns "Answered ✓"; the report goes to the channel', async () => {
    const { t, discord, p, checkin } = app;
    const [q1, q2] = checkin.questions;
    const prompt = await app.promptOf(p.member.user.uuid);
    expect(discord.calls('POST', '/users/@me/channels').map((c) => c.json.recipient_id).sort()).toEqual([MIA, OTTO]);
    const [dm] = app.messagesTo(MIA);
    expect(dm.content).toBe('**Daily** — 2026-03-10\n1. What did you do?\n2. Anything blocking you?');
    expect(dm.allowed_mentions).toEqual({ parse: [] });
    expect(dm.components[0].components[0]).toEqual({ type: 2, style: 1, label: 'Answer', custom_id: `rc:a:p:${prompt}` });
    expect(dm.components[0].components[1]).toMatchObject({ type: 2, style: 5, label: 'Answer on the web', url: expect.stringMatching(/^https:\/\/rollcall\.example\.com\/checkins\/answer\/[0-9A-Za-z]{43}$/) });

    // "Answer": the interaction's answer is the modal, one input per question.
    const opened = await app.click(MIA, `rc:a:p:${prompt}`, { example: true });
    expect(opened.status).toBe(200);
    expect(opened.body).toEqual({
      type: 9,
      data: {
        custom_id: `rc:m:${checkin.uuid}.2026-03-10.${prompt}:1`,
        title: 'Daily',
        components: [
          { type: 1, components: [{ type: 4, custom_id: `q.${q1.uuid}`, label: '1. What did you do?', style: 2, required: true, max_length: 4000 }] },
          { type: 1, components: [{ type: 4, custom_id: `q.${q2.uuid}`, label: '2. Anything blocking you?', style: 2, required: false, max_length: 4000 }] },
        ],
      },
    });

    // Submitting saves, in the request, before Discord hears back.
    const submitted = await app.submit(MIA, opened.body.data.custom_id, { [`q.${q1.uuid}`]: 'Shipped the importer', [`q.${q2.uuid}`]: 'Waiting on the API keys' }, { example: true });
    expect([submitted.status, submitted.body.type, submitted.body.data.flags]).toEqual([200, 4, 64]);
    expect(submitted.body.data.content).toBe('Saved ✓ Your answers to **Daily** for 2026-03-10. You can change them until the report goes out.');
    const [saved] = await responsesOf(p.member.key);
    expect(saved).toMatchObject({
      response_date: '2026-03-10', response_completed: true, has_issue: true,
      responses: [{ uuid: q1.uuid, response: 'Shipped the importer' }, { uuid: q2.uuid, response: 'Waiting on the API keys' }],
    });

    // The direct message becomes "Answered ✓" with "Edit" (the same message, edited).
    await t.deps.delivery.runDue();
    const [edit] = discord.calls('PATCH', '/channels/:id/messages/:id');
    expect(edit.url).toContain(`/channels/${dmChannel(MIA)}/messages/`);
    expect(edit.json.content).toBe('**Daily** — 2026-03-10\nAnswered ✓\n-# You can change your answers until the report goes out.');
    expect(edit.json.components[0].components[0]).toEqual({ type: 2, style: 2, label: 'Edit', custom_id: `rc:a:p:${prompt}` });

    // "Edit" opens the modal filled with the day's answers.
    const again = await app.click(MIA, `rc:a:p:${prompt}`);
    expect(again.body.data.components.map((row: any) => row.components[0].value)).toEqual(['Shipped the importer', 'Waiting on the API keys']);

    // The report, in the channel.
    t.clock.set('2026-03-10T16:00:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(1);
    await t.deps.delivery.runDue();
    const report = discord.calls('POST', '/channels/:id/messages').find((c) => c.url.includes(`/channels/${REPORT_CHANNEL}/`))!;
    expect(report.json.content).toBe(
      '## Daily — 2026-03-10\n1 of 2 answered\n\n### Mia Member ⛔ **blocked**\n**What did you do?**\n> Shipped the importer\n**Anything blocking you?**\n> Waiting on the API keys\n\n**Not answered yet:** Otto Member',
    );
  });

  it('a check-in of more than 5 questions goes over several modals; the parts wait server-side until the last saves them all', async () => {
    await app.close();
    const questions = Array.from({ length: 7 }, (_, i) => ({ question_type: i === 5 ? 'numeric' : 'text', question: `Question ${i + 1}?`, required: i === 0 }));
    app = await startDiscordApp({ questions });
    const { p, checkin } = app;
    const ids = checkin.questions.map((q) => `q.${q.uuid}`);
    const opened = await app.click(MIA, app.buttonOf(MIA));
    expect(opened.body.data.title).toBe('Daily (1/2)');
    expect(opened.body.data.components.map((row: any) => row.components[0].custom_id)).toEqual(ids.slice(0, 5));
    const first = await app.submit(MIA, opened.body.data.custom_id, Object.fromEntries(ids.slice(0, 5).map((id, i) => [id, `Answer ${i + 1}`])));
    expect(first.body.data.content).toBe('Kept ✓ Part 1 of 2: your answers wait here until the last part is sent.');
    const next = first.body.data.components[0].components[0];
    expect(next).toMatchObject({ type: 2, label: 'Continue (2/2)' });
    expect(await responsesOf(p.member.key)).toEqual([]);

    const second = await app.click(MIA, next.custom_id);
    expect(second.body.data.title).toBe('Daily (2/2)');
    expect(second.body.data.components.map((row: any) => row.components[0].custom_id)).toEqual(ids.slice(5));
    expect(second.body.data.components[0].components[0]).toMatchObject({ style: 1, placeholder: 'A number' });
    // A number that is not one: nothing saved, the parts kept, a button back to the part to fix.
    const bad = await app.submit(MIA, second.body.data.custom_id, { [ids[5]]: 'many', [ids[6]]: 'Last' });
    expect(bad.body.data.content).toBe('Not saved yet:\n- 6. Question 6?: A numeric answer is a number.');
    expect(bad.body.data.components[0].components[0].label).toBe('Fix my answers (2/2)');
    expect(await responsesOf(p.member.key)).toEqual([]);
    const fix = await app.click(MIA, bad.body.data.components[0].components[0].custom_id);
    expect(fix.body.data.components.map((row: any) => row.components[0].value)).toEqual(['many', 'Last']);
    const done = await app.submit(MIA, fix.body.data.custom_id, { [ids[5]]: '7.5', [ids[6]]: 'Last' });
    expect(done.body.data.content).toMatch(/^Saved ✓/);
    const [saved] = await responsesOf(p.member.key);
    expect(saved.responses.map((r: { response: unknown }) => r.response)).toEqual(['Answer 1', 'Answer 2', 'Answer 3', 'Answer 4', 'Answer 5', 7.5, 'Last']);
    expect(await app.t.db('chat_answer_drafts').first()).toBeUndefined();
  }, 120_000);

  it('a required question left blank is refused by the same rules as the web page', async () => {
    const [q1] = app.checkin.questions;
    const opened = await app.click(MIA, app.buttonOf(MIA));
    const res = await app.submit(MIA, opened.body.data.custom_id, { [`q.${q1.uuid}`]: '  ' });
    expect(res.body.data.content).toBe('Not saved yet:\n- 1. What did you do?: This question needs an answer.');
    expect(await responsesOf(app.p.member.key)).toEqual([]);
  });

  it('/rollcall answer opens the next check-in; status, kudos and help answer ephemerally', async () => {
    const { p, checkin } = app;
    const opened = await app.command(OTTO, 'answer', [], { example: true });
    expect([opened.status, opened.body.type]).toEqual([200, 9]);
    expect(opened.body.data.custom_id).toBe(`rc:m:${checkin.uuid}.2026-03-10.${await app.promptOf(p.other.user.uuid)}:1`);
    const status = await app.command(OTTO, 'status');
    expect(status.body).toEqual({ type: 4, data: { content: '- **Daily** (2026-03-10): waiting for your answers', flags: 64, allowed_mentions: { parse: [] } } });
    expect((await app.command(OTTO, 'help')).body.data.content).toContain('**/rollcall link**');
    const kudos = await app.command(OTTO, 'kudos', [{ type: 6, name: 'to', value: MIA }, { type: 3, name: 'message', value: 'Thanks for the review!' }]);
    expect(kudos.body.data.content).toBe('🎉 Kudos sent to Mia Member.');
    const [given] = (await app.t.request('GET', '/v1/kudos/', { key: p.member.key })).body.results;
    expect(given).toMatchObject({ content: 'Thanks for the review!', giver: { uuid: p.other.user.uuid }, receivers: [{ uuid: p.member.user.uuid }] });
    const stranger = '1200000000000000099';
    const unknown = await app.command(OTTO, 'kudos', [{ type: 6, name: 'to', value: stranger }, { type: 3, name: 'message', value: 'thanks' }], { resolved: { users: { [stranger]: { id: stranger, username: 'stranger' } } } });
    expect(unknown.body.data.content).toBe('@stranger has not linked a Discord account to Rollcall (`/rollcall link`): kudos go to people of your organization.');
    expect((await app.t.request('GET', '/v1/integrations/', { key: p.adminKey })).body).toMatchObject({
      platform: 'discord', label: 'Discord', can_receive: true, problem: null, workspace: APPLICATION_ID,
      request_urls: [{ name: 'General Information › Interactions Endpoint URL', url: `${PUBLIC_URL}/v1/integrations/discord/interactions/` }],
    });
  });

  it('reminds by direct message, with the same "Answer" button', async () => {
    await app.close();
    app = await startDiscordApp({ config: { reminders_max_count: 1, reminders_frequency_time: 60 } });
    const { t, p } = app;
    t.clock.set('2026-03-10T09:00:00.000Z');
    expect(await sendDueReminders(t.deps)).toBe(2);
    await t.deps.delivery.runDue();
    const reminder = app.messagesTo(MIA).at(-1)!;
    expect(reminder.content).toMatch(/^⏰ A reminder: \*\*Daily\*\* — 2026-03-10\n/);
    expect(reminder.components[0].components[0].custom_id).toBe(`rc:a:p:${await app.promptOf(p.member.user.uuid)}`);
  }, 120_000);

  it('lists the channels reports can go to; a test prompt goes the whole way round and saves nothing', async () => {
    const { t, p, discord } = app;
    const channels = await t.request('GET', '/v1/report-channels/', { key: p.adminKey });
    expect(channels.body).toEqual({ channels: [{ id: REPORT_CHANNEL, name: 'Acme › #standup', platform: 'discord', type: 'public' }], total: 1 });
    const admin = '1200000000000000003';
    await app.link(admin, p.adminKey);
    const sent = await t.request('POST', '/v1/integrations/test-prompt/', { key: p.adminKey });
    expect(sent.status).toBe(202);
    await t.deps.delivery.runDue();
    const button = app.buttonOf(admin);
    expect(button).toBe(`rc:a:t:${sent.body.bot_message_id}`);
    const opened = await app.click(admin, button);
    expect(opened.body.data.custom_id).toBe(`rc:m:t:${sent.body.bot_message_id}`);
    const before = await app.answersState();
    expect((await app.submit(admin, opened.body.data.custom_id, { 'q.test': 'Fine' })).body.data.content).toBe('Test answer received ✓ Nothing was saved.');
    await t.deps.delivery.runDue();
    expect(discord.calls('PATCH', '/channels/:id/messages/:id').at(-1)!.json.content).toBe('**Rollcall test prompt** — 2026-03-10\nAnswered ✓\n-# A test prompt: nothing was saved.');
    expect(JSON.parse(await app.answersState()).responses).toEqual(JSON.parse(before).responses);
  });
});
