import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { startSmtpSink } from '../../../test/receivers.ts';
import { startInboundSmtp } from '../../inbound/smtp-listener.ts';

const DOMAIN = 'inbox.rollcall.test';

function reply(options: { to: string; inReplyTo: string; messageId: string; text: string; subject?: string }): string {
  return [
    'From: Bob Builder <Bob@Example.com>',
    `To: ${options.to}`,
    `Subject: ${options.subject ?? 'Re: Deploy finished'}`,
    `Message-ID: ${options.messageId}`,
    `In-Reply-To: ${options.inReplyTo}`,
    `References: ${options.inReplyTo}`,
    'Date: Tue, 10 Mar 2026 15:05:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    options.text,
    '',
    `On Tue, Mar 10, 2026 at 3:00 PM Rollcall <${options.to}> wrote:`,
    '> Deploy finished.',
    '',
  ].join('\r\n');
}

describe('Agent e-mail (spec "Agent e-mail", CONTRACT §5, §6): SMTP out, replies in, hourly limit', () => {
  let t: TestApp;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let acme: Awaited<ReturnType<TestApp['seedOrganization']>>;
  beforeEach(async () => {
    sink = await startSmtpSink();
    t = await startTestApp({ inboundEmailDomain: DOMAIN, inboundEmailSecret: 'inbound-secret-1234' }, { SMTP_URL: sink.url, MAIL_FROM: 'Rollcall <rollcall@acme.test>' });
    acme = await t.seedOrganization();
  });
  afterEach(async () => {
    await t.close();
    await sink.close();
  });

  it('sends HTML with a text part and Reply-To the agent inbox; a reply over SMTP comes back as an e-mail message threaded by Message-ID', async () => {
    const res = await t.request('POST', '/v1/agent-email/send/', {
      key: acme.adminKey,
      body: { agent_name: 'Builder', to: ['Carol@Example.com', 'bob@example.com', 'carol@example.com'], subject: 'Deploy finished', body_html: '<p>Deploy <b>finished</b></p>', metadata: { run: 7 } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ sent_count: 2, total_recipients: 2, reply_to: `builder.acme@${DOMAIN}`, message_id: expect.stringMatching(new RegExp(`^<agent-[0-9a-f-]+@${DOMAIN.replace(/\./g, '\\.')}>$`)) });
    await t.deps.delivery.runDue();
    expect(sink.messages).toHaveLength(1);
    const [sent] = sink.messages;
    expect(sent.envelopeTo).toEqual(['carol@example.com', 'bob@example.com']);
    expect(sent.subject).toBe('Deploy finished');
    expect(sent.html).toContain('<b>finished</b>');
    expect(sent.text?.trim()).toBe('Deploy finished');
    expect(sent.replyTo?.text).toBe(`builder.acme@${DOMAIN}`);
    expect(sent.messageId).toBe(res.body.message_id);

    const smtp = await startInboundSmtp({ port: 0, host: '127.0.0.1', domain: DOMAIN, routes: t.deps.inboundRoutes, logger: t.deps.logger });
    try {
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
      const raw = reply({ to: res.body.reply_to, inReplyTo: res.body.message_id, messageId: '<reply-1@example.com>', text: 'Thanks! Please also tag the release.' });
      await transport.sendMail({ envelope: { from: 'bob@example.com', to: [res.body.reply_to] }, raw });
      // The same message delivered twice (a retrying MTA) is one agent message.
      await transport.sendMail({ envelope: { from: 'bob@example.com', to: [res.body.reply_to] }, raw });
      transport.close();
    } finally {
      await smtp.close();
    }
    const messages = await t.request('GET', '/v1/agent-messages/?agent_name=Builder&delivered=false', { key: acme.adminKey });
    expect(messages.body).toEqual([
      {
        id: expect.any(String), uuid: expect.any(String), agent_name: 'Builder', sender_name: 'Bob Builder', sender_type: 'human', message_type: 'email',
        content: 'Thanks! Please also tag the release.',
        metadata: { from: 'bob@example.com', subject: 'Re: Deploy finished', message_id: '<reply-1@example.com>', in_reply_to: res.body.message_id, thread_message_id: res.body.message_id },
        delivered: false, created_at: '2026-03-10T15:00:00.000Z', expires_at: null,
      },
    ]);
    const health = await t.request('POST', '/v1/agent-health/', { key: acme.adminKey, body: { agent_name: 'Builder', ok: true } });
    expect(health.body.pending_messages.map((m: { message_type: string }) => m.message_type)).toEqual(['email']);
  });

  it('routes a reply posted to POST /v1/inbound-email/ by its In-Reply-To even when sent to another address', async () => {
    const sent = (await t.request('POST', '/v1/agent-email/send/', { key: acme.adminKey, body: { agent_name: 'ops bot', to: ['bob@example.com'], subject: 'Disk full', body_html: '<p>Disk</p>' } })).body;
    expect(sent.reply_to).toBe(`ops-bot.acme@${DOMAIN}`);
    const raw = reply({ to: 'someone-else@example.com', inReplyTo: sent.message_id, messageId: '<r2@example.com>', text: 'Cleaned up /var/log.', subject: 'Re: Disk full' });
    const res = await t.request('POST', '/v1/inbound-email/', { raw, headers: { 'content-type': 'message/rfc822', authorization: 'Bearer inbound-secret-1234' } });
    expect(res.body).toMatchObject({ routed: true, route: 'agent-inbox' });
    const [message] = (await t.request('GET', '/v1/agent-messages/?agent_name=ops%20bot', { key: acme.adminKey })).body;
    expect(message).toMatchObject({ message_type: 'email', content: 'Cleaned up /var/log.', metadata: { from: 'bob@example.com', subject: 'Re: Disk full', message_id: '<r2@example.com>' } });
    // Mail for no agent is left to the other routes.
    const stray = reply({ to: `nobody.acme@${DOMAIN}`, inReplyTo: '<unknown@x>', messageId: '<r3@example.com>', text: 'hello' });
    expect((await t.request('POST', '/v1/inbound-email/', { raw: stray, headers: { 'content-type': 'message/rfc822', authorization: 'Bearer inbound-secret-1234' } })).body.routed).toBe(false);
  });

  it('bounds: at most 50 recipients and a 512-character subject', async () => {
    const to = Array.from({ length: 51 }, (_, i) => `r${i}@example.com`);
    const bad = await t.request('POST', '/v1/agent-email/send/', { key: acme.adminKey, body: { agent_name: 'b', to, subject: 's'.repeat(513), body_html: '<p>x</p>' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ to: ['Ensure this list has no more than 50 items.'], subject: ['Ensure this field has no more than 512 characters.'] });
    const edge = await t.request('POST', '/v1/agent-email/send/', { key: acme.adminKey, body: { agent_name: 'b', to: to.slice(0, 50), subject: 's'.repeat(512), body_html: '<p>x</p>' } });
    expect(edge.status).toBe(201);
    expect(edge.body.total_recipients).toBe(50);
    const notAddress = await t.request('POST', '/v1/agent-email/send/', { key: acme.adminKey, body: { agent_name: 'b', to: ['nope'], subject: 's', body_html: 'x' } });
    expect(notAddress.body).toEqual({ 'to.0': ['Enter a valid e-mail address.'] });
  });

  it('hourly limit per agent: the 50th e-mail goes, the 51st answers 429 {detail, limit, current}; an hour later it goes again', async () => {
    const send = () => t.request('POST', '/v1/agent-email/send/', { key: acme.adminKey, body: { agent_name: 'mailer', to: ['a@example.com'], subject: 'x', body_html: 'x' } });
    for (let i = 0; i < 50; i++) {
      expect((await send()).status).toBe(201);
      t.clock.advance(10_000);
    }
    const over = await send();
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ detail: expect.stringContaining('50 e-mails per hour'), limit: 50, current: 50 });
    expect(Object.keys(over.body)).toEqual(['detail', 'limit', 'current']);
    // The oldest of the 50 was sent 500 s ago: it leaves the hour in 3100 s.
    expect(over.headers.get('retry-after')).toBe('3100');
    // Another agent of the same organization has its own hour.
    expect((await t.request('POST', '/v1/agent-email/send/', { key: acme.adminKey, body: { agent_name: 'other', to: ['a@example.com'], subject: 'x', body_html: 'x' } })).status).toBe(201);
    t.clock.advance(3100_000);
    expect((await send()).status).toBe(201);
  });

  it('the hourly limit is configurable (AGENT_EMAIL_HOURLY_LIMIT)', async () => {
    const small = await startTestApp({}, { AGENT_EMAIL_HOURLY_LIMIT: '2' });
    try {
      const org = await small.seedOrganization();
      const send = () => small.request('POST', '/v1/agent-email/send/', { key: org.adminKey, body: { agent_name: 'm', to: ['a@example.com'], subject: 'x', body_html: 'x' } });
      expect((await send()).status).toBe(201);
      expect((await send()).status).toBe(201);
      expect((await send()).body).toMatchObject({ limit: 2, current: 2 });
    } finally {
      await small.close();
    }
  });
});
