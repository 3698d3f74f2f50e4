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
  /**
   * What the person wrote, without what it quotes and without a signature (email-reply-parser: message-text.ts);
   * `replyText` when that parser ran out of time on the message.
   */
  visibleText: string;
  html: string | null;
  messageId: string | null;
  inReplyTo: string | null;
  references: string[];
  date: string | null;
  /** `smtp` (the listener) or `http` (POST /v1/inbound-email/). */
  via: 'smtp' | 'http';
}

/** The bytes are not a message the parser can read (mailsplit: a header line past its limit, EMAXLEN; and the like), or reading them cost more than a reply can. */
export class UnreadableMessage extends Error {
  constructor(cause: unknown) {
    super(`The message could not be read: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'UnreadableMessage';
  }
}
