import EmailReplyParser from 'email-reply-parser';

/**
 * A received message's text, in steps whose cost grows with the message's size and no faster: whatever the sender
 * writes (one 2 MiB line, tags nested a million deep, nothing but `<`), the server is never asked for more than a
 * few passes over it. Regular expressions here either cannot backtrack or run on lines too short for it to matter.
 * They run in the parser's worker thread (parse.ts), not on the server's event loop.
 */

/** A quote header ("On … wrote:") or separator fits on a line this long; longer lines are never one. */
const MAX_HEADER_LINE = 1000;

/**
 * Marks a tag leaves in the text for a moment: a line break (`<br>`), a new line (a block), a new paragraph, and the
 * start and end of a quotation (`<blockquote>`, whose lines are then written `> …`, as a plain-text reply quotes).
 */
const BREAK = '\u0001';
const LINE = '\u0002';
const PARAGRAPH = '\u0003';
const QUOTE_START = '\u0004';
const QUOTE_END = '\u0005';
const BLOCK_TAGS = /<\/?(?:div|li|tr|ul|ol|table|pre|hr|h[1-6]|dd|dt)\b[^<>]*>/gi;

/** Elements whose content is not text to read, and the tag that ends each. */
const SKIPPED = /<!--|<(script|style|title)\b/gi;
const SKIPPED_END: Record<string, RegExp> = { script: /<\/script\s*>/gi, style: /<\/style\s*>/gi, title: /<\/title\s*>/gi };

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntity(whole: string, name: string): string {
  if (name[0] !== '#') return Object.hasOwn(ENTITIES, name.toLowerCase()) ? ENTITIES[name.toLowerCase()] : whole;
  const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
}

/**
 * The HTML without comments, scripts, styles and titles. Every search starts where the last one ended; an element
 * whose end tag never comes is left to be read as text (its tags dropped), and the next of its kind is not
 * searched to the end again.
 */
function withoutSkipped(html: string): string {
  const parts: string[] = [];
  const unclosed = new Set<string>();
  let at = 0;
  SKIPPED.lastIndex = 0;
  for (let open = SKIPPED.exec(html); open; open = SKIPPED.exec(html)) {
    const name = open[1]?.toLowerCase();
    let end = -1;
    if (!name) {
      const close = html.indexOf('-->', open.index + 4);
      end = close < 0 ? html.length : close + 3;
    } else if (!unclosed.has(name)) {
      const closer = SKIPPED_END[name];
      closer.lastIndex = SKIPPED.lastIndex;
      const found = closer.exec(html);
      if (found) end = found.index + found[0].length;
      else unclosed.add(name);
    }
    // Not skipped (its end never comes): its start tag stays, to be dropped with the other tags.
    if (end < 0) continue;
    parts.push(html.slice(at, open.index));
    at = end;
    SKIPPED.lastIndex = at;
  }
  parts.push(html.slice(at));
  return parts.join('');
}

/**
 * The text between the marks, with line feeds for each run of marks (each `<br>` one more, a block at least one,
 * a paragraph at least a blank line), and `> ` before each line inside a quotation (one level, however deep).
 */
function lay(marked: string): string {
  const pieces = marked.split(/ ?([\u0001-\u0005]+) ?/);
  const out: string[] = [];
  let quoted = 0;
  let lineStart = true;
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i];
    if (i % 2 === 0) {
      if (piece === '') continue;
      if (lineStart && quoted > 0) out.push('> ');
      out.push(piece);
      lineStart = false;
      continue;
    }
    let feeds = 0;
    for (const mark of piece) {
      if (mark === BREAK) feeds++;
      else feeds = Math.max(feeds, mark === PARAGRAPH ? 2 : 1);
      if (mark === QUOTE_START) quoted++;
      else if (mark === QUOTE_END) quoted = Math.max(0, quoted - 1);
    }
    if (out.length > 0) out.push('\n'.repeat(feeds));
    lineStart = true;
  }
  return out.join('');
}

/**
 * The text a reader sees in an HTML body: tags dropped, a line break for `<br>`, a new line for a block element,
 * a blank line between paragraphs, quotations as `> ` lines, the common entities decoded, runs of white space as
 * one. Global replacements that cannot backtrack (a tag is `<` up to the next `>` with no `<` between, so no
 * character is scanned twice; what is not a tag, such as `a < b`, stays text), then one pass over the pieces.
 */
export function htmlToText(html: string): string {
  const marked = withoutSkipped(html.replace(/[\u0001-\u0005]/g, ''))
    .replace(/<br\b[^<>]*>/gi, BREAK)
    .replace(/<\/?p\b[^<>]*>/gi, PARAGRAPH)
    .replace(/<blockquote\b[^<>]*>/gi, QUOTE_START)
    .replace(/<\/blockquote\b[^<>]*>/gi, QUOTE_END)
    .replace(BLOCK_TAGS, LINE)
    .replace(/<\/?[a-zA-Z][^<>]*>/g, '')
    .replace(/[ \t\r\n\f]+/g, ' ');
  return lay(marked)
    .replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,6});/g, decodeEntity)
    .trim();
}

/** "On <date>, <name> wrote:" (as `/^On .+\s+wrote:\s*$/i` would say, with string tests that cannot backtrack). */
function isWroteHeader(line: string, spaceBefore: boolean): boolean {
  const trimmed = line.trim();
  if (!/^on /i.test(trimmed) || !trimmed.toLowerCase().endsWith('wrote:')) return false;
  const before = trimmed.length - 'wrote:'.length;
  return before > 'On '.length && (!spaceBefore || /\s/.test(trimmed[before - 1]));
}

/** Cuts the quoted original off a reply ("On … wrote:", "-----Original Message-----", "> " lines). */
export function stripQuoted(text: string): string {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const next = lines[i + 1] ?? '';
    if (line.trimStart().startsWith('>')) break;
    if (line.length <= MAX_HEADER_LINE) {
      if (/^-{2,}\s*Original Message\s*-{2,}/i.test(line)) break;
      if (isWroteHeader(line, false)) break;
      // Clients wrap a long header: "On Tue, 10 Mar 2026, Bob <bob@" / "example.com> wrote:".
      if (next.length <= MAX_HEADER_LINE && isWroteHeader(`${line} ${next}`, true)) break;
      if (/^(From|De|Von): ./.test(line) && /^(Sent|Date|Enviado|Gesendet): /.test(next)) break;
    }
    out.push(line);
  }
  return out.join('\n').trim();
}

/** What email-reply-parser is given at most: far more than anyone types in a reply, above what it quotes. */
export const REPLY_PARSER_MAX_CHARS = 32 * 1024;

/**
 * What the person wrote in a reply, without what it quotes and without a signature (email-reply-parser, after
 * mailparser). Its expressions backtrack on crafted text, so it reads only the first REPLY_PARSER_MAX_CHARS, with
 * blank-line runs and long runs of spaces made one; the worker thread's time limit (parse.ts) bounds the rest.
 */
export function visibleText(text: string): string {
  const lines: string[] = [];
  for (const raw of text.slice(0, REPLY_PARSER_MAX_CHARS).replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.replace(/[ \t]{16,}/g, ' ').trimEnd();
    if (line === '' && lines.length > 0 && lines[lines.length - 1] === '') continue;
    lines.push(line);
  }
  return new EmailReplyParser().read(lines.join('\n')).getVisibleText().trim();
}
