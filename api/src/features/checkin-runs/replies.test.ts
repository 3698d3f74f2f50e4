import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendDuePrompts } from './feature.ts';
import { splitAnswers } from './email-replies.ts';
import { visibleText } from '../../inbound/message-text.ts';
import { MAX_INBOUND_BYTES } from '../../inbound/parse.ts';
import { createCheckin, linkIn, replyMime, startLoopApp } from './loop-fixtures.ts';
import type { LoopApp } from './loop-fixtures.ts';

describe('Answering a check-in by replying to its e-mail', () => {
  let app: LoopApp;
  let checkin: Awaited<ReturnType<typeof createCheckin>>;
  let prompt: { replyTo: string; messageId: string };
  beforeEach(async () => {
    app = await startLoopApp();
    const { t, p, sink } = app;
    t.clock.set('2026-03-10T07:00:00.000Z');
    checkin = await createCheckin(t, p, { questions: [{ question_type: 'text', question: 'Done?' }, { question_type: 'text', question: 'Next?', required: false }] });
    t.clock.set('2026-03-10T08:00:00.000Z');
    await sendDuePrompts(t.deps);
    await t.deps.delivery.runDue();
    const mail = sink.messages.find((m) => m.envelopeTo[0] === p.member.user.email)!;
    prompt = { replyTo: mail.replyTo!.value[0].address!, messageId: mail.messageId! };
    sink.messages.length = 0;
  });
  afterEach(async () => app.close());

  const deliver = async (mime: string) => {
    const res = await app.t.request('POST', '/v1/inbound-email/', { raw: mime, headers: { 'content-type': 'message/rfc822', 'x-inbound-secret': 'inbound-secret' } });
    expect(res.status).toBe(202);
    return res.body as { routed: boolean; route: string | null };
  };
  const answers = async () => {
    const res = await app.t.request('GET', `/v1/checkins/${checkin.uuid}/responses/`, { key: app.p.adminKey });
    return res.body.results.map((r: { user: { full_name: string }; responses: { response: string }[] }) => [r.user.full_name, r.responses.map((a) => a.response)]);
  };
  const mia = () => app.p.member.user.email;

  it('reads a plain reply, one paragraph per question, without the quoted prompt or the signature', async () => {
    const text = 'Shipped the importer\nand its tests\n\nThe exporter\n\n-- \nMia\n\nOn Tue, Mar 10, 2026 at 9:00 AM Rollcall <no-reply@localhost> wrote:\n> Time for Daily (2026-03-10).\n>\n> 1. Done?\n';
    expect(await deliver(replyMime({ from: mia(), to: prompt.replyTo, text }))).toEqual(expect.objectContaining({ routed: true, route: 'checkin-replies' }));
    expect(await answers()).toEqual([['Mia Member', ['Shipped the importer\nand its tests', 'The exporter']]]);
  });

  it('reads numbered lines, an HTML-only reply, and a reply matched by In-Reply-To alone', async () => {
    await deliver(replyMime({ from: mia(), to: prompt.replyTo, text: '1. Importer\n2. Exporter\n' }));
    expect(await answers()).toEqual([['Mia Member', ['Importer', 'Exporter']]]);
    await deliver(replyMime({ from: mia(), to: prompt.replyTo, html: '<div>Importer v2</div><div><br></div><div>Exporter v2</div><blockquote>1. Done?</blockquote>' }));
    expect(await answers()).toEqual([['Mia Member', ['Importer v2', 'Exporter v2']]]);
    // Sent to the From address instead of the reply address: the Message-ID it answers finds the prompt.
    await deliver(replyMime({ from: `Mia <${mia()}>`, to: 'rollcall@inbox.localhost', inReplyTo: prompt.messageId, text: '1. v3\n2. w3' }));
    expect(await answers()).toEqual([['Mia Member', ['v3', 'w3']]]);
  });

  it('records no reply that leaves a required question unanswered: the person gets an e-mail naming it, and replying to that answers', async () => {
    const next = checkin.questions[1].uuid;
    expect((await app.t.request('PATCH', `/v1/checkins/${checkin.uuid}/questions/${next}/`, { key: app.p.adminKey, body: { required: true } })).status).toBe(200);
    const noteFor = async (text: string) => {
      app.sink.messages.length = 0;
      await deliver(replyMime({ from: mia(), to: prompt.replyTo, text }));
      await app.t.deps.delivery.runDue();
      expect(app.sink.messages.map((m) => [m.envelopeTo[0], m.subject])).toEqual([[mia(), 'Not recorded: your reply to Daily for 2026-03-10']]);
      return app.sink.messages[0];
    };
    // One paragraph for two required questions, a numbered reply whose second answer is blank, and an empty reply.
    const notes = [await noteFor('Shipped the importer'), await noteFor('1. Shipped the importer\n2.   \n'), await noteFor('> 1. Done?\n')];
    expect(await answers()).toEqual([]);
    expect(await app.t.db('checkin_responses')).toEqual([]);
    expect(notes[0].text).toBe([
      'We did not record your reply to Daily for 2026-03-10: these required questions have no answer in it.',
      '', '2. Next?',
      '', 'It was read as the answer to the first question.',
      '', 'Reply to this e-mail with all your answers, one paragraph per question in order (or numbered lines 1. 2. 3.), or answer on the web:',
      '', linkIn(app.t, notes[0].text).replace(app.t.url, 'http://rollcall.example.com'),
      '', 'Your reply:', '> Shipped the importer', '',
    ].join('\n'));
    expect(notes[1].text).not.toContain('It was read as');
    expect(notes[2].text).toContain('1. Done?\n2. Next?\n\nWe found no answer in it.');
    // The note has a reply address of its own that finds the same prompt, and a link that works.
    expect((await fetch(linkIn(app.t, notes[0].text))).status).toBe(200);
    await deliver(replyMime({ from: mia(), to: notes[0].replyTo!.value[0].address!, text: '1. Shipped the importer\n2. The exporter' }));
    expect(await answers()).toEqual([['Mia Member', ['Shipped the importer', 'The exporter']]]);
    // A later reply that blanks a required answer changes nothing.
    await deliver(replyMime({ from: mia(), to: prompt.replyTo, inReplyTo: prompt.messageId, text: '1. \n2. Only this' }));
    expect(await answers()).toEqual([['Mia Member', ['Shipped the importer', 'The exporter']]]);
  });

  it('saves a reply that does not split into one answer per question whole as the first answer, and says so by e-mail with a web link', async () => {
    await deliver(replyMime({ from: mia(), to: prompt.replyTo, text: 'One\n\nTwo\n\nThree' }));
    expect(await answers()).toEqual([['Mia Member', ['One\n\nTwo\n\nThree']]]);
    await app.t.deps.delivery.runDue();
    expect(app.sink.messages.map((m) => [m.envelopeTo[0], m.subject])).toEqual([[mia(), 'How we read your reply: Daily for 2026-03-10']]);
    expect(app.sink.messages[0].text).toContain('did not split into 2 answers (we found 3)');
    expect(app.sink.messages[0].text).toMatch(/\/checkins\/answer\/[0-9A-Za-z]{43}/);
  });

  it('never takes a reply by its sender alone: a forged sender, an unknown reply address and an unknown Message-ID save nothing', async () => {
    // Otto writes to Mia's reply address: not Mia's answer, and not Otto's.
    expect(await deliver(replyMime({ from: app.p.other.user.email, to: prompt.replyTo, text: '1. Forged\n2. Forged' }))).toMatchObject({ routed: true });
    // Mia's address as From, without a reply address or a known Message-ID.
    expect(await deliver(replyMime({ from: mia(), to: 'rollcall@inbox.localhost', text: '1. Forged\n2. Forged' }))).toMatchObject({ routed: false });
    expect(await deliver(replyMime({ from: mia(), to: `checkin-${'0'.repeat(32)}@inbox.localhost`, text: '1. x\n2. y' }))).toMatchObject({ routed: true });
    expect(await deliver(replyMime({ from: mia(), to: 'rollcall@inbox.localhost', inReplyTo: '<checkin.000000000000000000000000@inbox.localhost>', text: '1. x\n2. y' }))).toMatchObject({ routed: false });
    expect(await answers()).toEqual([]);
  });

  it('refuses a reply over MAX_INBOUND_BYTES to a valid reply address by its size, before parsing it (413); takes the largest, saved whole', async () => {
    const line = 'Shipped the importer and its tests, and fixed the exporter.\r\n';
    const head = replyMime({ from: mia(), to: prompt.replyTo, text: '' });
    const sized = (bytes: number) => head + line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes - Buffer.byteLength(head));
    const tooLarge = await app.t.request('POST', '/v1/inbound-email/', { raw: sized(MAX_INBOUND_BYTES + 1), headers: { 'content-type': 'message/rfc822', 'x-inbound-secret': 'inbound-secret' } });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.code).toBe('payload_too_large');
    expect(await answers()).toEqual([]);
    expect(await deliver(sized(MAX_INBOUND_BYTES))).toMatchObject({ routed: true, route: 'checkin-replies' });
    // One paragraph for two questions: saved whole as the first answer, cut to its 10,000 characters.
    const [[who, [first]]] = await answers();
    expect(who).toBe('Mia Member');
    expect(first).toHaveLength(10_000);
    expect(first.startsWith('Shipped the importer and its tests, and fixed the exporter.\nShipped')).toBe(true);
  });

  it('keeps the newest answer: an older reply, replayed or delayed, never overwrites a newer reply or a web answer', async () => {
    const { t } = app;
    const reply = (text: string, date?: string, messageId?: string) => deliver(replyMime({ from: mia(), to: prompt.replyTo, text, date, messageId }));
    t.clock.set('2026-03-10T08:25:00.000Z');
    await reply('1. Newer\n2. Newer', '2026-03-10T08:20:00.000Z', '<newer@mail.example.com>');
    // Written ten minutes earlier, arriving (or replayed) later: older than what is saved.
    t.clock.set('2026-03-10T08:30:00.000Z');
    expect(await reply('1. Older\n2. Older', '2026-03-10T08:10:00.000Z')).toMatchObject({ routed: true, route: 'checkin-replies' });
    expect(await answers()).toEqual([['Mia Member', ['Newer', 'Newer']]]);
    // The same message again changes nothing; a reply written later wins, delayed or not.
    await reply('1. Newer\n2. Newer', '2026-03-10T08:20:00.000Z', '<newer@mail.example.com>');
    await reply('1. Latest\n2. Latest', '2026-03-10T08:21:00.000Z');
    expect(await answers()).toEqual([['Mia Member', ['Latest', 'Latest']]]);

    // An answer from the web page or the API at 08:40 is newer than a reply written at 08:35 that arrives after it.
    t.clock.set('2026-03-10T08:40:00.000Z');
    const edited = await t.request('PUT', `/v1/checkins/${checkin.uuid}/responses/`, { key: app.p.member.key, body: { responses: [{ index: 0, response: 'Web' }, { index: 1, response: 'Web' }] } });
    expect(edited.status).toBe(200);
    t.clock.set('2026-03-10T08:45:00.000Z');
    await reply('1. Late\n2. Late', '2026-03-10T08:35:00.000Z');
    expect(await answers()).toEqual([['Mia Member', ['Web', 'Web']]]);
    await reply('1. After\n2. After', '2026-03-10T08:44:00.000Z');
    expect(await answers()).toEqual([['Mia Member', ['After', 'After']]]);

    // A Date in the future counts as the arrival: it cannot lock out the replies after it.
    t.clock.set('2026-03-10T08:50:00.000Z');
    await reply('1. Skewed\n2. Skewed', '2030-01-01T00:00:00.000Z');
    t.clock.set('2026-03-10T09:00:00.000Z');
    await reply('1. Final\n2. Final', '2026-03-10T08:55:00.000Z');
    expect(await answers()).toEqual([['Mia Member', ['Final', 'Final']]]);
    // Without a Date, replies count in the order they arrive (the other tests send none).
    await reply('1. Undated\n2. Undated');
    expect(await answers()).toEqual([['Mia Member', ['Undated', 'Undated']]]);
    expect(app.t.logs.filter((line) => line.includes('"outcome":"older_than_answer"'))).toHaveLength(2);
  });

  it('splits replies by numbered lines or paragraphs (unit)', () => {
    expect(splitAnswers('1. a\n2. b\ncontinued\n3) c', 3)).toEqual(['a', 'b\ncontinued', 'c']);
    expect(splitAnswers('a\n\nb', 2)).toEqual(['a', 'b']);
    expect(splitAnswers('a\n\nb', 3)).toBeNull();
    expect(splitAnswers('Intro\n1. a\n2. b', 2)).toBeNull();
    // Numbered lines may stop early (the questions after them are left unanswered); paragraphs may not.
    expect(splitAnswers('1. a\n2. b', 3)).toEqual(['a', 'b']);
    expect(splitAnswers('1. a\n2. b\n3. c\n4. d', 3)).toBeNull();
    expect(splitAnswers('a\n\nb', 3)).toBeNull();
    expect(visibleText('Fine\n\nOn Mon, Mar 9, 2026 at 9:00 AM X <x@y.z> wrote:\n> quoted\n')).toBe('Fine');
  });
});
