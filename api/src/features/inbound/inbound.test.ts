import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { startInboundSmtp } from '../../inbound/smtp-listener.ts';
import type { InboundSmtp } from '../../inbound/smtp-listener.ts';
import type { InboundEmail } from '../../inbound/parse.ts';

const REPLY = [
  'From: Bob Builder <Bob@Example.com>',
  'To: builder.acme@inbox.rollcall.test',
  'Subject: Re: Deploy finished',
  'Message-ID: <reply-1@example.com>',
  'In-Reply-To: <orig-1@rollcall.test>',
  'References: <orig-1@rollcall.test>',
  'Date: Tue, 10 Mar 2026 15:00:00 +0000',
  'MIME-Version: 1.0',
  'Content-Type: multipart/alternative; boundary="b1"',
  '',
  '--b1',
  'Content-Type: text/plain; charset=utf-8',
  'Content-Transfer-Encoding: quoted-printable',
  '',
  'Please roll back the migration =E2=80=94 it broke staging.',
  '',
  'On Tue, Mar 10, 2026 at 2:00 PM Rollcall <builder.acme@inbox.rollcall.test> wrote:',
  '> Deploy finished.',
  '--b1',
  'Content-Type: text/html; charset=utf-8',
  '',
  '<p>Please roll back the migration \u2014 it broke staging.</p>',
  '--b1--',
  '',
].join('\r\n');

describe('E-mail in (CONTRACT §6, §10): SMTP listener and POST /v1/inbound-email/', () => {
  let t: TestApp;
  let received: InboundEmail[];
  beforeEach(async () => {
    t = await startTestApp({ inboundEmailDomain: 'inbox.rollcall.test', inboundEmailSecret: 'inbound-secret-1234' });
    received = [];
    t.deps.inboundRoutes.register('ignore-others', async (mail) => mail.to.some((a) => a.startsWith('nobody')));
    t.deps.inboundRoutes.register('test-agent-inbox', async (mail) => {
      received.push(mail);
      return true;
    });
  });
  afterEach(async () => t.close());

  it('parses a real MIME reply posted to the endpoint and routes it', async () => {
    const res = await t.request('POST', '/v1/inbound-email/', { raw: REPLY, headers: { 'content-type': 'message/rfc822', authorization: 'Bearer inbound-secret-1234' } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ accepted: true, routed: true, route: 'test-agent-inbox', from: 'bob@example.com', subject: 'Re: Deploy finished', message_id: '<reply-1@example.com>' });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      from: 'bob@example.com',
      fromName: 'Bob Builder',
      to: ['builder.acme@inbox.rollcall.test'],
      subject: 'Re: Deploy finished',
      replyText: 'Please roll back the migration — it broke staging.',
      inReplyTo: '<orig-1@rollcall.test>',
      references: ['<orig-1@rollcall.test>'],
      date: '2026-03-10T15:00:00.000Z',
      via: 'http',
    });
    expect(received[0].text).toContain('> Deploy finished.');
  });

  it('answers 400 invalid_message for a message the parser cannot read (a 1 MB header line), and SMTP refuses it for good (554)', async () => {
    const long = `From: bob@example.com\r\nSubject: ${'x'.repeat(1024 * 1024)}\r\n\r\nhi\r\n`;
    const res = await t.request('POST', '/v1/inbound-email/', { raw: long, headers: { 'content-type': 'message/rfc822', authorization: 'Bearer inbound-secret-1234' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'The message could not be read: Max header size for a MIME node exceeded', code: 'invalid_message' });
    expect(received).toHaveLength(0);
    const smtp = await startInboundSmtp({ port: 0, host: '127.0.0.1', domain: 'inbox.rollcall.test', routes: t.deps.inboundRoutes, logger: t.deps.logger });
    try {
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
      const raw = long.replace('From: bob@example.com', 'From: bob@example.com\r\nTo: builder.acme@inbox.rollcall.test');
      await expect(transport.sendMail({ envelope: { from: 'bob@example.com', to: ['builder.acme@inbox.rollcall.test'] }, raw })).rejects.toMatchObject({ responseCode: 554 });
      transport.close();
    } finally {
      await smtp.close();
    }
  });

  it('authenticates with INBOUND_EMAIL_SECRET', async () => {
    const none = await t.request('POST', '/v1/inbound-email/', { raw: REPLY, headers: { 'content-type': 'message/rfc822' } });
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('credential_absent');
    const wrong = await t.request('POST', '/v1/inbound-email/', { raw: REPLY, headers: { 'content-type': 'message/rfc822', 'x-inbound-secret': 'nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('invalid_credentials');
    const ok = await t.request('POST', '/v1/inbound-email/', { raw: REPLY, headers: { 'content-type': 'message/rfc822', 'x-inbound-secret': 'inbound-secret-1234' } });
    expect(ok.status).toBe(202);
    const off = await startTestApp();
    const disabled = await off.request('POST', '/v1/inbound-email/', { raw: REPLY, headers: { 'content-type': 'message/rfc822', authorization: 'Bearer x' } });
    expect(disabled.status).toBe(403);
    expect(disabled.body.code).toBe('inbound_email_disabled');
    await off.close();
  });

  it('receives over SMTP for INBOUND_EMAIL_DOMAIN only and hands the parsed reply to the routes', async () => {
    let smtp: InboundSmtp | null = null;
    try {
      smtp = await startInboundSmtp({ port: 0, host: '127.0.0.1', domain: 'inbox.rollcall.test', routes: t.deps.inboundRoutes, logger: t.deps.logger });
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
      await transport.sendMail({ envelope: { from: 'bob@example.com', to: ['builder.acme@inbox.rollcall.test'] }, raw: REPLY });
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ from: 'bob@example.com', subject: 'Re: Deploy finished', replyText: 'Please roll back the migration — it broke staging.', via: 'smtp' });
      // Not an open relay.
      await expect(transport.sendMail({ envelope: { from: 'x@example.com', to: ['someone@elsewhere.test'] }, raw: REPLY })).rejects.toMatchObject({ responseCode: 550 });
      expect(received).toHaveLength(1);
      transport.close();
      expect(net.isIP('127.0.0.1')).toBe(4);
    } finally {
      await smtp?.close();
    }
  });
});
