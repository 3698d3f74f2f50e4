import type { Db } from '../db/connection.ts';
import { readJson } from '../lib/json.ts';
import type { EmailMessage } from '../outbox/deliveries.ts';
import { withSecret } from '../outbound/mailer.ts';
import type { SecretBox } from '../outbound/secret-box.ts';
import type { DeliveryRow } from '../db/tables.ts';
import { CommandError } from './commands.ts';

/** One e-mail as `rollcall admin outbox` shows it. */
export interface OutboxMail {
  uuid: string;
  created_at: string;
  status: string;
  kind: string;
  to: string[];
  reply_to: string | null;
  subject: string;
  text: string;
  last_error: string | null;
}

/**
 * `rollcall admin outbox [--last N] [--to ADDRESS]`: the most recent outgoing e-mail, oldest of them first, whole
 * (a sign-in code put back in from its sealed copy): what Rollcall sent, or holds while SMTP_URL is unset.
 */
export async function outboxCommand(db: Db, box: () => SecretBox, opts: { last?: string; to?: string }): Promise<OutboxMail[]> {
  const last = opts.last === undefined ? 10 : Number(opts.last);
  if (!Number.isInteger(last) || last < 1 || last > 1000) throw new CommandError('--last takes a number from 1 to 1000');
  const query = db('deliveries').where({ channel: 'email' });
  if (opts.to !== undefined) {
    const to = opts.to.trim().toLowerCase();
    if (!to.includes('@')) throw new CommandError('--to takes an e-mail address');
    query.andWhereRaw("lower(destination) like ? escape '\\'", [`%${to.replace(/[\\%_]/g, (c) => `\\${c}`)}%`]);
  }
  const rows: DeliveryRow[] = await query.orderBy('created_at', 'desc').orderBy('uuid', 'desc').limit(last);
  let opened: SecretBox | null = null;
  return rows.reverse().map((row) => {
    let message = readJson<EmailMessage>(row.payload, { to: [row.destination], subject: '', text: '' });
    if (row.secret_encrypted) {
      try {
        message = withSecret(message, row.secret_encrypted, (opened ??= box()));
      } catch {
        message = { ...message, text: `${message.text}\n[a sealed value the encryption key cannot open]` };
      }
    }
    return {
      uuid: row.uuid, created_at: row.created_at, status: row.status, kind: row.kind, to: message.to, reply_to: message.replyTo ?? null,
      subject: message.subject, text: message.text, last_error: row.last_error,
    };
  });
}

/** The mails as text: a header block and the body of each, separated by a rule. */
export function formatOutbox(mails: OutboxMail[], smtpConfigured: boolean): string {
  if (mails.length === 0) return 'No outgoing e-mail.\n';
  const held = smtpConfigured ? '' : ' (held: SMTP_URL is not set)';
  return mails
    .map((m) => [
      `${m.created_at}  ${m.status}${m.status === 'pending' ? held : ''}  ${m.kind}`,
      `To: ${m.to.join(', ')}`,
      ...(m.reply_to ? [`Reply-To: ${m.reply_to}`] : []),
      `Subject: ${m.subject}`,
      ...(m.last_error ? [`Last error: ${m.last_error}`] : []),
      '',
      m.text.trimEnd(),
    ].join('\n'))
    .join(`\n${'-'.repeat(72)}\n`)
    .concat('\n');
}
