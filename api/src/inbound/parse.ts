import type { AddressObject } from 'mailparser';

/** The largest message taken, over SMTP (552 past it) or HTTP (413). */
export const MAX_INBOUND_BYTES = 10 * 1024 * 1024;

/** A received e-mail, as handed to the inbound routes. */
export interface InboundEmail {
  /** Sender address, lower case. */
  from: string;
  fromName: string | null;
  /** Every recipient address (To and Cc, plus the SMTP envelope recipients when received over SMTP), lower case. */
  to: string[];
  subject: string;
  /** The plain-text body (from the HTML part when there is no text part). */
  text: string;
  /** The text above the quoted original: what the person wrote in their reply. */
  replyText: string;
  html: string | null;
  messageId: string | null;
  inReplyTo: string | null;
  references: string[];
  date: string | null;
  /** `smtp` (the listener) or `http` (POST /v1/inbound-email/). */
  via: 'smtp' | 'http';
}

function addresses(value: AddressObject | AddressObject[] | undefined): string[] {
  const list = Array.isArray(value) ? value : value ? [value] : [];
  return list.flatMap((group) => group.value.flatMap((a) => (a.address ? [a.address.toLowerCase()] : [])));
}

/** Cuts the quoted original off a reply ("On … wrote:", "-----Original Message-----", "> " lines). */
export function stripQuoted(text: string): string {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const joined = `${line} ${lines[i + 1] ?? ''}`;
    if (/^\s*>/.test(line)) break;
    if (/^-{2,}\s*Original Message\s*-{2,}/i.test(line)) break;
    if (/^On .+wrote:\s*$/i.test(line) || /^On .+\s+wrote:\s*$/i.test(joined.trim())) break;
    if (/^(From|De|Von): .+/.test(line) && /^(Sent|Date|Enviado|Gesendet): /.test(lines[i + 1] ?? '')) break;
    out.push(line);
  }
  return out.join('\n').trim();
}

/** The bytes are not a message the parser can read (mailsplit: a header line past its limit, EMAXLEN; and the like). */
export class UnreadableMessage extends Error {
  constructor(cause: unknown) {
    super(`The message could not be read: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'UnreadableMessage';
  }
}

/** The message as the inbound routes see it; `UnreadableMessage` when the parser refuses the bytes (a sender's fault, not ours). */
export async function parseInbound(raw: Buffer | string, via: 'smtp' | 'http', envelopeTo: string[] = []): Promise<InboundEmail> {
  // Loaded on first use: most instances never receive mail, and the parser is a sizeable share of start-up memory.
  const { simpleParser } = await import('mailparser');
  const mail = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true }).catch((err: unknown) => {
    throw new UnreadableMessage(err);
  });
  const fromAddress = mail.from?.value[0];
  const text = (mail.text ?? (typeof mail.html === 'string' ? mail.html.replace(/<[^>]+>/g, ' ') : '')).trim();
  const references = Array.isArray(mail.references) ? mail.references : mail.references ? [mail.references] : [];
  return {
    from: (fromAddress?.address ?? '').toLowerCase(),
    fromName: fromAddress?.name || null,
    to: [...new Set([...envelopeTo.map((a) => a.toLowerCase()), ...addresses(mail.to), ...addresses(mail.cc)])],
    subject: mail.subject ?? '',
    text,
    replyText: stripQuoted(text),
    html: typeof mail.html === 'string' ? mail.html : null,
    messageId: mail.messageId ?? null,
    inReplyTo: mail.inReplyTo ?? null,
    references,
    date: mail.date ? mail.date.toISOString() : null,
    via,
  };
}
