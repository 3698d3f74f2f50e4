import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { startSmtpSink } from '../../../test/receivers.ts';
import { seedPeople } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';

/** An app whose e-mail goes to a real local SMTP sink, with one person of each role, for the check-in loop tests. */
export async function startLoopApp(env: Record<string, string> = {}) {
  const sink = await startSmtpSink();
  const t = await startTestApp({ inboundEmailSecret: 'inbound-secret' }, { SMTP_URL: sink.url, PUBLIC_URL, ...env });
  const p = await seedPeople(t);
  return {
    t, sink, p,
    async close() {
      await t.close();
      await sink.close();
    },
  };
}

export type LoopApp = Awaited<ReturnType<typeof startLoopApp>>;

export const QUESTIONS = [
  { question_type: 'text', question: 'What did you do yesterday?' },
  { question_type: 'text', question: 'What will you do today?' },
  { question_type: 'text', question: 'Anything blocking you?', is_blocker: true, required: false },
];

/** A check-in created through the API by the admin: Tuesday-to-Friday by default, 09:00 in Berlin. */
export async function createCheckin(t: TestApp, p: People, body: Record<string, unknown> = {}) {
  const res = await t.request('POST', '/v1/checkins/create/', {
    key: p.adminKey,
    body: { name: 'Daily', schedule: { days: [1, 2, 3, 4, 5], time: '09:00', timezone: 'Europe/Berlin' }, participants: { user_uuids: [p.member.user.uuid, p.other.user.uuid] }, questions: QUESTIONS, ...body },
  });
  if (res.status !== 201) throw new Error(`create check-in: ${res.status} ${res.text}`);
  return res.body as { uuid: string; questions: { uuid: string }[] };
}

export const PUBLIC_URL = 'http://rollcall.example.com';

/** The answer link in an e-mail's text, pointed at the test app (the e-mail names PUBLIC_URL). */
export const linkIn = (t: TestApp, text: string | false | undefined): string => {
  const match = /https?:\/\/\S+\/checkins\/answer\/[0-9A-Za-z]{43}/.exec(text || '');
  if (!match) throw new Error(`no answer link in: ${text}`);
  return match[0].replace(PUBLIC_URL, t.url);
};

/** A raw reply e-mail (RFC 5322), as a mail client would send it. */
export function replyMime(p: { from: string; to: string; inReplyTo?: string; text?: string; html?: string; subject?: string; date?: string; messageId?: string }): string {
  const headers = [`From: ${p.from}`, `To: ${p.to}`, `Subject: ${p.subject ?? 'Re: Daily'}`, `Message-ID: ${p.messageId ?? `<${Math.random().toString(36).slice(2)}@mail.example.com>`}`, 'MIME-Version: 1.0'];
  if (p.date) headers.push(`Date: ${new Date(p.date).toUTCString()}`);
  if (p.inReplyTo) headers.push(`In-Reply-To: ${p.inReplyTo}`, `References: ${p.inReplyTo}`);
  if (p.html !== undefined && p.text === undefined) return [...headers, 'Content-Type: text/html; charset=utf-8', '', p.html].join('\r\n');
  return [...headers, 'Content-Type: text/plain; charset=utf-8', '', p.text ?? ''].join('\r\n');
}
