import type { Transporter } from 'nodemailer';
import type { Db } from '../db/connection.ts';
import type { Logger } from '../lib/logger.ts';
import { EMAIL_SECRET_PLACEHOLDER, takeUnloggedHeldEmails } from '../outbox/deliveries.ts';
import type { EmailMessage } from '../outbox/deliveries.ts';
import type { SendResult } from './types.ts';
import { readJson } from '../lib/json.ts';
import type { DeliveryRow } from '../db/tables.ts';
import type { SecretBox } from './secret-box.ts';

export interface Mailer {
  /** Sends; resolves when the server took it for at least one recipient (`rejected`: those it refused). */
  send(message: EmailMessage): Promise<{ messageId: string; response: string; rejected?: string[] }>;
  close(): void;
}

/**
 * The SMTP URL with nodemailer's connection pool on (`pool=true`, 5 connections, 100 messages each) unless the URL
 * says otherwise: a new connection per message (TCP, greeting, STARTTLS, AUTH) held the worker to about 45
 * messages a second on a loaded 2-core machine (bench/checkin-loop.ts), and a check-in asks a whole team at once.
 */
export function pooledUrl(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
  return url.toString();
}

/** SMTP through nodemailer; TLS and authentication come from the URL (smtp:// with STARTTLS, smtps://). */
export function smtpMailer(smtpUrl: string, from: string, timeoutMs: number): Mailer {
  // nodemailer is loaded with the first message, not at start: it is the largest module we ship.
  let transport: Promise<Transporter> | null = null;
  const connect = async (): Promise<Transporter> => {
    const { default: nodemailer } = await import('nodemailer');
    const created = nodemailer.createTransport(pooledUrl(smtpUrl), { from });
    Object.assign(created.options, { connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs });
    return created;
  };
  return {
    async send(message) {
      transport ??= connect();
      const info = await (await transport).sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        replyTo: message.replyTo,
        messageId: message.messageId,
        headers: message.headers,
      });
      return { messageId: String(info.messageId), response: String(info.response ?? ''), rejected: (info.rejected ?? []).map(String) };
    },
    close() {
      void transport?.then((t) => t.close());
    },
  };
}

/** The stored message with its encrypted secret put in place of EMAIL_SECRET_PLACEHOLDER (outbox/deliveries.ts). */
export function withSecret(message: EmailMessage, sealed: string | null, box: SecretBox): EmailMessage {
  if (!sealed) return message;
  const secret = box.decrypt(sealed);
  const fill = (text: string) => text.split(EMAIL_SECRET_PLACEHOLDER).join(secret);
  return { ...message, subject: fill(message.subject), text: fill(message.text), ...(message.html ? { html: fill(message.html) } : {}) };
}

/** What nodemailer puts on a failed send (NodemailerError). */
interface SmtpError {
  code?: string;
  message?: string;
  responseCode?: number;
  /** nodemailer's reading of the reply: true for 5xx but 503 (RFC 5321's permanent negative replies). */
  permanent?: boolean;
}

/**
 * Whether a failed send would fail the same way every time: the server refused it for good (a 5xx reply but
 * 503, such as 550 or 553 for the recipient), or nodemailer refused the envelope before asking (no recipient, an
 * address it cannot put in RCPT TO: EENVELOPE with no reply). A 4xx reply, 503 and the network's failures are
 * worth another try.
 */
export function isPermanentSmtpFailure(err: SmtpError): boolean {
  if (typeof err.responseCode === 'number') return err.permanent ?? (err.responseCode >= 500 && err.responseCode !== 503);
  return err.code === 'EENVELOPE';
}

/** The domain of MAIL_FROM (`Rollcall <no-reply@example.com>` → `example.com`), which names our Message-IDs. */
export function mailDomain(mailFrom: string): string {
  const address = /<([^>]*)>/.exec(mailFrom)?.[1] ?? mailFrom;
  const domain = address.slice(address.lastIndexOf('@') + 1).trim().toLowerCase();
  return /^[a-z0-9.-]+$/.test(domain) ? domain : 'localhost';
}

/**
 * An outbox row's Message-ID when its message names none: one per row, the same on every attempt. A message the
 * server took before a crash is sent again after it (delivery is at least once); with the same Message-ID, mail
 * systems that already have it drop the copy (nodemailer would make up a new one each time).
 */
export const outboxMessageId = (deliveryUuid: string, domain: string): string => `<delivery.${deliveryUuid}@${domain}>`;

/** The e-mail channel's sender: a permanent refusal fails the delivery at once, with its reason; anything else is retried. */
export function emailSender(mailer: Mailer, box: SecretBox, domain: string) {
  return async function sendEmail(row: DeliveryRow): Promise<SendResult> {
    const stored = withSecret(readJson<EmailMessage>(row.payload, { to: [], subject: '', text: '' }), row.secret_encrypted, box);
    // A message names its own Message-ID in `messageId` or, as agent e-mail does, in its headers; else the row's.
    const named = stored.messageId ?? stored.headers?.['Message-ID'];
    const message = named ? { ...stored, messageId: named } : { ...stored, messageId: outboxMessageId(row.uuid, domain) };
    const t0 = performance.now();
    try {
      const info = await mailer.send(message);
      const statusCode = Number(/^\d{3}/.exec(info.response)?.[0] ?? 250);
      // Sent to the others: the refused addresses are named, so an admin sees who did not get it.
      const error = info.rejected?.length ? `refused by the server for ${info.rejected.join(', ')}`.slice(0, 500) : null;
      return { outcome: 'delivered', statusCode, error, durationMs: Math.round(performance.now() - t0) };
    } catch (err) {
      const e = err as SmtpError;
      const durationMs = Math.round(performance.now() - t0);
      const reason = [e.code, e.message].filter(Boolean).join(': ');
      if (isPermanentSmtpFailure(e)) return { outcome: 'failed', statusCode: e.responseCode ?? null, error: `permanent, not retried: ${reason}`.slice(0, 500), durationMs };
      return { outcome: 'retry', statusCode: e.responseCode ?? null, error: reason.slice(0, 500), durationMs };
    }
  };
}

/**
 * Without SMTP_URL, e-mail stays in the outbox (the embedded default): each held message is logged once
 * (recipients, subject, kind; never the body, which may carry a sign-in code) and admins see it in
 * GET /v1/deliveries/?channel=email&status=pending.
 */
export async function logHeldEmails(db: Db, logger: Logger, now: Date): Promise<number> {
  const rows = await takeUnloggedHeldEmails(db, now, 200);
  for (const row of rows) {
    const subject = (() => {
      try {
        return String(JSON.parse(row.payload).subject ?? '');
      } catch {
        return '';
      }
    })();
    logger.info({ delivery: row.uuid, kind: row.kind, to: row.destination, subject }, 'e-mail kept in the outbox (no SMTP_URL)');
  }
  return rows.length;
}
