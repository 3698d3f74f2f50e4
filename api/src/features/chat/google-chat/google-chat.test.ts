import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_DETAIL } from '../../../lib/errors.ts';
import { FORGED_KEY, SERVICE_ACCOUNT, clickEvent, messageEvent } from '../../../../test/google-chat-stand-in.ts';
import { sendDueReports } from '../../checkin-runs/feature.ts';
import { startGoogleChatApp } from './google-chat-fixtures.ts';
import type { GoogleChatApp } from './google-chat-fixtures.ts';

const widgets = (posted: { json: any }) => posted.json.cardsV2[0].card.sections[0].widgets;
const dialogOf = (res: { body: any }) => res.body.actionResponse.dialogAction.dialog.body;

/**
 * Answering a check-in in Google Chat, against a stand-in of Chat (its keys, Google's token endpoint, the Chat
 * API), with events signed by a real RSA key: the prompt card's "Answer" opens a dialog with the questions,
 * "Save" saves through the responses service, the card turns "Answered ✓"; then what is refused.
 */
describe('Google Chat app: answering a check-in in a dialog', () => {
  let app: GoogleChatApp;
  beforeEach(async () => {
    app = await startGoogleChatApp();
  });
  afterEach(async () => app.close());

  const responsesOf = async (key: string) => (await app.t.request('GET', `/v1/checkins/${app.checkin.uuid}/responses/`, { key })).body.results;
  const refusal = (code: string) => ({ detail: AUTH_DETAIL, code });
  const now = () => Math.floor(app.t.clock.now().getTime() / 1000);

  it('sends each person a card; "Answer" opens the dialog; "Save" saves; the card turns "Answered ✓"; the report goes to the space', async () => {
    const { t, chat, p, people, checkin } = app;
    const [q1, q2] = checkin.questions;
    const prompt = await app.promptOf(p.member.user.uuid);
    // Mia's direct-message space was found by e-mail (as the app's service account).
    expect(chat.calls('GET', /spaces:findDirectMessage/).map((c) => new URL(c.url, 'https://x').searchParams.get('name'))).toEqual(expect.arrayContaining([`users/${p.member.user.email}`]));
    const [sent] = app.posted(people.mia.dm);
    expect(sent.json.text).toContain('Time for Daily (2026-03-10).');
    expect(sent.json.cardsV2[0].card.header).toEqual({ title: 'Daily', subtitle: '2026-03-10' });
    expect(widgets(sent)[0]).toEqual({ textParagraph: { text: '1. What did you do?<br>2. Anything blocking you?' } });
    expect(widgets(sent)[1].buttonList.buttons[0]).toEqual({ text: 'Answer', onClick: { action: { function: 'rollcall_answer', interaction: 'OPEN_DIALOG', parameters: [{ key: 'p', value: prompt }] } } });

    // "Answer": the dialog, an input per question.
    const opened = await app.send(clickEvent(people.mia, 'rollcall_answer', { p: prompt }, 'REQUEST_DIALOG'));
    expect(opened.status).toBe(200);
    const dialog = dialogOf(opened);
    expect(dialog.sections[0].widgets.slice(1)).toEqual([
      { textInput: { name: `q.${q1.uuid}`, label: 'What did you do?', type: 'MULTIPLE_LINE' } },
      { textInput: { name: `q.${q2.uuid}`, label: 'Anything blocking you?', type: 'MULTIPLE_LINE' } },
    ]);
    const save = dialog.fixedFooter.primaryButton.onClick.action;
    expect(save.function).toBe('rollcall_save');
    const parameters = Object.fromEntries(save.parameters.map((x: { key: string; value: string }) => [x.key, x.value]));
    expect(parameters).toEqual({ c: checkin.uuid, d: '2026-03-10', p: prompt });

    // "Save": saved before Chat hears back; the dialog closes.
    const saved = await app.send(clickEvent(people.mia, 'rollcall_save', parameters, 'SUBMIT_DIALOG', { [`q.${q1.uuid}`]: ['Shipped the importer'], [`q.${q2.uuid}`]: ['Waiting on the API keys'] }), { example: true });
    expect([saved.status, saved.body]).toEqual([200, { actionResponse: { type: 'DIALOG', dialogAction: { actionStatus: { statusCode: 'OK', userFacingMessage: 'Saved ✓' } } } }]);
    const [answer] = await responsesOf(p.member.key);
    expect(answer).toMatchObject({ response_date: '2026-03-10', has_issue: true, responses: [{ uuid: q1.uuid, response: 'Shipped the importer' }, { uuid: q2.uuid, response: 'Waiting on the API keys' }] });
    // The card is updated in place; "Edit" opens the dialog filled with the answers.
    await t.deps.delivery.runDue();
    const [update] = chat.calls('PATCH', /\/messages\//);
    expect(update.url).toMatch(new RegExp(`^/chat/v1/${people.mia.dm}/messages/M\\d+\\?updateMask=text,cardsV2$`));
    expect(widgets(update)[0]).toEqual({ textParagraph: { text: 'Answered ✓' } });
    const again = await app.send(clickEvent(people.mia, 'rollcall_answer', { p: prompt }, 'REQUEST_DIALOG'));
    expect(dialogOf(again).sections[0].widgets.slice(1).map((w: any) => w.textInput.value)).toEqual(['Shipped the importer', 'Waiting on the API keys']);

    // The report, to the Stand-up space.
    t.clock.set('2026-03-10T16:00:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(1);
    await t.deps.delivery.runDue();
    const [report] = app.posted('spaces/STANDUP');
    expect(report.json.cardsV2[0].card.header).toEqual({ title: 'Daily', subtitle: '2026-03-10 · 1 of 2 answered' });
    expect(widgets(report).map((w: any) => w.textParagraph.text)).toEqual([
      '<b>Mia Member</b> ⛔ <b>blocked</b><br><i>What did you do?</i><br>Shipped the importer<br><i>Anything blocking you?</i><br>Waiting on the API keys',
      '<b>Not answered yet:</b> Otto Member',
    ]);
  });

  it('answers in the direct message, one question at a time', async () => {
    const { t, p, people } = app;
    const res = await app.send(messageEvent(people.otto, 'Reviewed the release notes'));
    expect([res.status, res.body]).toEqual([200, {}]);
    await t.deps.delivery.runDue();
    expect(app.posted(people.otto.dm).at(-1)!.json.text).toBe('2/2 · Anything blocking you?');
    await app.send(messageEvent(people.otto, 'skip'));
    expect((await responsesOf(p.other.key))[0].responses.map((r: { response: string }) => r.response)).toEqual(['Reviewed the release notes']);
  });

  it('refuses, with nothing saved: no token, a forged one, an expired one, another project, a replay, another person\'s prompt, an archived check-in', async () => {
    const { t, p, chat, people, checkin } = app;
    const prompt = await app.promptOf(p.member.user.uuid);
    const save = clickEvent(people.mia, 'rollcall_save', { c: checkin.uuid, d: '2026-03-10', p: prompt }, 'SUBMIT_DIALOG', { [`q.${checkin.questions[0].uuid}`]: ['Done'] });
    const before = await app.answersState();
    const unsigned = await t.request('POST', '/v1/integrations/google-chat/events/', { raw: JSON.stringify(save), headers: { 'content-type': 'application/json' } });
    expect([unsigned.status, unsigned.body]).toEqual([401, refusal('credential_absent')]);
    expect((await app.send(save, { token: chat.token(now(), {}, FORGED_KEY.privateKey) })).body).toEqual(refusal('invalid_credentials'));
    expect((await app.send(save, { token: chat.token(now(), { exp: now() - 301 }) })).body).toEqual(refusal('credential_expired'));
    expect((await app.send(save, { token: chat.token(now(), { aud: '999999999999' }) })).body).toEqual(refusal('invalid_credentials'));
    expect((await app.send(save, { token: chat.token(now(), { iss: 'someone@else.iam.gserviceaccount.com' }) })).body).toEqual(refusal('invalid_credentials'));
    // Another person's prompt: Otto saving through Mia's.
    const forged = await app.send({ ...save, user: { name: people.otto.name, email: people.otto.email, type: 'HUMAN' } });
    expect([forged.status, forged.body]).toEqual([403, { detail: 'This prompt is another person\'s.', code: 'not_your_prompt' }]);
    expect((await app.send(clickEvent(people.otto, 'rollcall_answer', { p: prompt }, 'REQUEST_DIALOG'))).status).toBe(403);
    expect(await app.answersState()).toBe(before);
    // A replay: the same token and body again.
    const token = chat.token(now());
    expect((await app.send(save, { token })).status).toBe(200);
    const after = await app.answersState();
    expect(after).not.toBe(before);
    const replay = await app.send(save, { token });
    expect([replay.status, replay.body]).toEqual([401, refusal('credential_expired')]);
    expect(await app.answersState()).toBe(after);
    // An archived check-in: the dialog says so, nothing saved.
    expect((await t.request('DELETE', `/v1/checkins/${checkin.uuid}/archive/`, { key: p.adminKey })).status).toBe(204);
    const archived = await app.send(clickEvent(people.mia, 'rollcall_save', { c: checkin.uuid, d: '2026-03-10', p: prompt }, 'SUBMIT_DIALOG', { [`q.${checkin.questions[0].uuid}`]: ['Changed'] }));
    expect(archived.body.actionResponse.dialogAction.actionStatus).toEqual({ statusCode: 'INVALID_ARGUMENT', userFacingMessage: 'This check-in can no longer be answered here: it was archived, or you no longer take part in it.' });
    expect(await app.answersState()).toBe(after);
  });

  it('another organization\'s app (another project) cannot answer this one\'s prompts; signed junk answers 400', async () => {
    const { t, chat, p, people, checkin } = app;
    const other = await t.seedOrganization({ name: 'Other' });
    await t.request('PATCH', '/v1/organization/', { key: other.adminKey, body: { platform: { kind: 'google_chat', service_account: SERVICE_ACCOUNT, project_number: '515151515151' } } });
    const prompt = await app.promptOf(p.member.user.uuid);
    const before = await app.answersState();
    const res = await app.send(clickEvent(people.mia, 'rollcall_save', { c: checkin.uuid, d: '2026-03-10', p: prompt }, 'SUBMIT_DIALOG', { [`q.${checkin.questions[0].uuid}`]: ['From elsewhere'] }), { token: chat.token(now(), { aud: '515151515151' }) });
    expect(res.body.actionResponse.dialogAction.actionStatus.statusCode).toBe('INVALID_ARGUMENT');
    expect(await app.answersState()).toBe(before);
    for (const raw of ['[]', '{"oops": ']) expect((await app.send(raw)).status).toBe(400);
    const status = await t.request('GET', '/v1/integrations/', { key: p.adminKey });
    expect(status.body).toMatchObject({ platform: 'google_chat', can_receive: true, request_urls: [{ url: 'https://rollcall.example.com/v1/integrations/google-chat/events/' }] });
  });

  it('refuses a key file that is not one (not JSON, null, a number, an array, no private key): 400, the field map naming it', async () => {
    const { t } = app;
    const other = await t.seedOrganization({ name: 'Key files' });
    for (const service_account of ['not json', 'null', '5', '[]', '{"client_email": "a@b.test"}']) {
      const res = await t.request('PATCH', '/v1/organization/', { key: other.adminKey, body: { platform: { kind: 'google_chat', service_account, project_number: '515151515151' } } });
      expect([service_account, res.status, Object.keys(res.body)]).toEqual([service_account, 400, ['platform.service_account']]);
    }
  });
});
