import type { Executor } from '../../db/connection.ts';
import type { Actor } from '../../auth/credentials.ts';
import { enqueueEmail } from '../../outbox/deliveries.ts';
import type { SendEmailInput } from './schema.ts';

export const FREE_PLAN_SEND_EMAIL_DAILY_CAP = 20;

/** A plain-text part from the HTML body, for clients that do not show HTML. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr)>/gi, '\n')
    .replace(/<li[^>]*>/gi, '- ')
    .replace(/<a [^>]*href="([^"]+)"[^>]*>([\s\S]*?)<\/a>/gi, '$2 ($1)')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Caller-scoped e-mail: replies go to the caller; the message goes out through the outbox. */
export async function sendEmail(db: Executor, actor: Actor, input: SendEmailInput, now: Date) {
  const to = [...new Set((Array.isArray(input.to) ? input.to : [input.to]).map((a) => a.trim().toLowerCase()))];
  const uuid = await enqueueEmail(
    db,
    {
      organizationUuid: actor.organization.uuid,
      kind: 'send_email',
      message: { to, subject: input.subject, text: htmlToText(input.body_html), html: input.body_html, replyTo: actor.user.email },
    },
    now,
  );
  return { uuid, to, subject: input.subject };
}
