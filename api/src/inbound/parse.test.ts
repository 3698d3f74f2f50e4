import { describe, expect, it } from 'vitest';
import { MAX_INBOUND_BYTES, PARSE_LIMITS, UnreadableMessage, parseInbound } from './parse.ts';

const message = (body: string, type = 'text/plain') =>
  Buffer.from(`From: Bob <bob@example.com>\r\nTo: checkin-x@inbox.rollcall.test\r\nSubject: Re: Daily\r\nContent-Type: ${type}; charset=utf-8\r\n\r\n${body}\r\n`);

describe("The parser's thread: time limits", () => {
  it('refuses a message it cannot read within the limit as unreadable, and reads the next one on a fresh thread', async () => {
    const large = message('Shipped the thing and fixed the other.\r\n'.repeat(MAX_INBOUND_BYTES / 48));
    const refused = await parseInbound(large, 'http', [], { readMs: 1, visibleMs: PARSE_LIMITS.visibleMs }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(UnreadableMessage);
    expect((refused as Error).message).toBe('The message could not be read: reading it took longer than 0.001 s');
    const next = await parseInbound(message('Fine\n\nOn Mon, Mar 9, 2026 at 9:00 AM X <x@y.z> wrote:\n> quoted\n'), 'smtp', ['Checkin-X@Inbox.Rollcall.Test']);
    expect(next).toMatchObject({ from: 'bob@example.com', text: 'Fine\n\nOn Mon, Mar 9, 2026 at 9:00 AM X <x@y.z> wrote:\n> quoted', replyText: 'Fine', visibleText: 'Fine', via: 'smtp' });
  });

  it('keeps the quote cut as the reply text when the reply parser runs out of time (its expressions backtrack on crafted text)', async () => {
    // email-reply-parser's quote-header expressions take seconds on this (quadratic in the line's length).
    const crafted = `Shipped.\n\nOn ${'a '.repeat(16_000)}\n`;
    const mail = await parseInbound(message(crafted), 'http', [], { readMs: PARSE_LIMITS.readMs, visibleMs: 50 });
    expect(mail.replyText).toBe(crafted.trim());
    expect(mail.visibleText).toBe(mail.replyText);
    // The thread was ended for it; the next message gets its reply parsed again.
    expect((await parseInbound(message('Fine\n-- \nBob'), 'http')).visibleText).toBe('Fine');
  });

  it('parses messages one after another, each answered with its own result', async () => {
    const results = await Promise.all(['one', 'two', 'three', 'four'].map((word) => parseInbound(message(word), 'http')));
    expect(results.map((r) => r.text)).toEqual(['one', 'two', 'three', 'four']);
  });
});
