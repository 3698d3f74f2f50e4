import { simpleParser } from 'mailparser';
import type { AddressObject } from 'mailparser';
import { UnreadableMessage } from './inbound-email.ts';
import type { InboundEmail } from './inbound-email.ts';
import { htmlToText, stripQuoted } from './message-text.ts';

function addresses(value: AddressObject | AddressObject[] | undefined): string[] {
  const list = Array.isArray(value) ? value : value ? [value] : [];
  return list.flatMap((group) => group.value.flatMap((a) => (a.address ? [a.address.toLowerCase()] : [])));
}

/**
 * The message read by mailparser, all but `visibleText`. mailparser's own HTML-to-text conversion is off
 * (`skipHtmlToText`): its cost grows far faster than the message (a 2 MiB HTML-only message took 30 s); the
 * text of an HTML-only message comes from htmlToText, one pass. Runs in the parser's worker thread (parse.ts).
 */
export async function readMessage(raw: Buffer, via: 'smtp' | 'http', envelopeTo: string[] = []): Promise<Omit<InboundEmail, 'visibleText'>> {
  const mail = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true, skipTextLinks: true }).catch((err: unknown) => {
    throw new UnreadableMessage(err);
  });
  const fromAddress = mail.from?.value[0];
  const html = typeof mail.html === 'string' ? mail.html : null;
  // With skipHtmlToText an HTML part stands in the text as an empty string: an HTML-only message has no text.
  const text = (mail.text?.trim() ? mail.text : html ? htmlToText(html) : '').trim();
  const references = Array.isArray(mail.references) ? mail.references : mail.references ? [mail.references] : [];
  return {
    from: (fromAddress?.address ?? '').toLowerCase(),
    fromName: fromAddress?.name || null,
    to: [...new Set([...envelopeTo.map((a) => a.toLowerCase()), ...addresses(mail.to), ...addresses(mail.cc)])],
    subject: mail.subject ?? '',
    text,
    replyText: stripQuoted(text),
    html,
    messageId: mail.messageId ?? null,
    inReplyTo: mail.inReplyTo ?? null,
    references,
    date: mail.date ? mail.date.toISOString() : null,
    via,
  };
}
