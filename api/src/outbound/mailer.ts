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
  send(message: EmailMessage): Promise<{ messageId: string; response: string }>;
  close(): void;
}

/** SMTP through nodemailer; TLS and authentication come from the URL (smtp:// with STARTTLS, smtps://). */
export function smtpMailer(smtpUrl: string, from: string, timeoutMs: number): Mailer {
  // nodemailer is loaded with the first message, not at start: it is the largest module we ship.
  let transport: Promise<Transporter> | null = null;
  const connect = async (): Promise<Transporter> => {
    const { default: nodemailer } = await import('nodemailer');
    const created = nodemailer.createTransport(smtpUrl, { from });
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
        headers: message.headers,
      });
      return { messageId: String(info.messageId), response: String(info.response ?? '') };
    },
    close() {
      void transport?.then((t) => t.close());
    },
  };
}

/** The stored message with its encrypted secret put in place of EMAIL_SECRET_PLACEHOLDER (outbox/deliveries.ts). */
function withSecret(message: EmailMessage, sealed: string | null, box: SecretBox): EmailMessage {
  if (!sealed) return message;
  const secret = box.decrypt(sealed);
  const fill = (text: string) => text.split(EMAIL_SECRET_PLACEHOLDER).join(secret);
  return { ...message, subject: fill(message.subject), text: fill(message.text), ...(message.html ? { html: fill(message.html) } : {}) };
}

/** The e-mail channel's sender: SMTP 5xx is permanent, anything else is retried. */
export function emailSender(mailer: Mailer, box: SecretBox) {
  return async function sendEmail(row: DeliveryRow): Promise<SendResult> {
    const message = withSecret(readJson<EmailMessage>(row.payload, { to: [], subject: '', text: '' }), row.secret_encrypted, box);
    const t0 = performance.now();
    try {
      const info = await mailer.send(message);
      return { outcome: 'delivered', statusCode: Number(/^\d{3}/.exec(info.response)?.[0] ?? 250), durationMs: Math.round(performance.now() - t0) };
    } catch (err) {
      const e = err as { responseCode?: number; code?: string; message?: string };
      const durationMs = Math.round(performance.now() - t0);
      const error = [e.code, e.message].filter(Boolean).join(': ').slice(0, 500);
      if (e.responseCode && e.responseCode >= 500) return { outcome: 'failed', statusCode: e.responseCode, error, durationMs };
      return { outcome: 'retry', statusCode: e.responseCode ?? null, error, durationMs };
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
