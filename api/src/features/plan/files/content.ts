import { fileTypeFromBuffer } from 'file-type';
import { badRequest } from '../../../lib/errors.ts';

/**
 * What an attachment may be, decided by its content (file-type reads its first bytes), never by the type or name
 * its sender declared: PNG, JPEG, GIF, WebP, PDF, plain text, Markdown, ZIP, Word, Excel, PowerPoint. Anything
 * else (an executable whatever it is called, an SVG, HTML, an archive that is really a Java or Android package)
 * is refused with 400 attachment_invalid_type.
 */
export const ACCEPTED_KINDS = ['PNG', 'JPEG', 'GIF', 'WebP', 'PDF', 'plain text', 'Markdown', 'ZIP', 'Word', 'Excel', 'PowerPoint'] as const;

export interface FileKind {
  /** Short name: png, jpeg, gif, webp, pdf, text, markdown, zip, word, excel, powerpoint. */
  kind: string;
  /** The Content-Type it is served with. */
  contentType: string;
}

/** file-type's finding → ours. */
const BY_EXTENSION: Record<string, FileKind> = {
  png: { kind: 'png', contentType: 'image/png' },
  jpg: { kind: 'jpeg', contentType: 'image/jpeg' },
  gif: { kind: 'gif', contentType: 'image/gif' },
  webp: { kind: 'webp', contentType: 'image/webp' },
  pdf: { kind: 'pdf', contentType: 'application/pdf' },
  zip: { kind: 'zip', contentType: 'application/zip' },
  docx: { kind: 'word', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  xlsx: { kind: 'excel', contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  pptx: { kind: 'powerpoint', contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' },
};

/** Office 97–2003 files are OLE compound files (file-type: cfb); which one is told by the name it was given. */
const LEGACY_OFFICE: Record<string, FileKind> = {
  doc: { kind: 'word', contentType: 'application/msword' },
  xls: { kind: 'excel', contentType: 'application/vnd.ms-excel' },
  ppt: { kind: 'powerpoint', contentType: 'application/vnd.ms-powerpoint' },
};

/** The MIME types a presigned upload may declare (refused early when it declares another; the content decides anyway). */
export const ACCEPTED_TYPES = new Set([
  ...Object.values(BY_EXTENSION).map((k) => k.contentType),
  ...Object.values(LEGACY_OFFICE).map((k) => k.contentType),
  'image/jpg', 'text/plain', 'text/markdown', 'text/x-markdown', 'application/x-zip-compressed', 'application/octet-stream',
]);

export const invalidType = (found?: string) =>
  badRequest(
    'attachment_invalid_type',
    `This file type is not accepted${found ? ` (the content is ${found})` : ''}. Accepted: ${ACCEPTED_KINDS.join(', ')}; the content is checked, not the name or declared type.`,
    { accepted: [...ACCEPTED_KINDS], ...(found ? { detected: found } : {}) },
  );

const extension = (filename: string) => /\.([A-Za-z0-9]{1,10})$/.exec(filename)?.[1].toLowerCase() ?? '';

/** Text: UTF-8 without NUL or other control characters than tab, line breaks and form feed (a cut last character is fine). */
function isText(head: Buffer): boolean {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return !/[\u0000-\u0008\u000B\u000E-\u001F\u007F]/.test(text);
  } catch {
    return false;
  }
}

/** What the first bytes of a file say it is, or 400 attachment_invalid_type. */
export async function sniff(head: Buffer, declared: { filename: string; contentType: string }): Promise<FileKind> {
  const found = await fileTypeFromBuffer(head);
  if (found) {
    const known = BY_EXTENSION[found.ext];
    if (known) return known;
    const legacy = LEGACY_OFFICE[extension(declared.filename)];
    if (found.ext === 'cfb' && legacy) return legacy;
    throw invalidType(found.mime);
  }
  if (!isText(head)) throw invalidType();
  const markdown = ['md', 'markdown'].includes(extension(declared.filename)) || /^text\/(x-)?markdown\b/i.test(declared.contentType);
  return markdown ? { kind: 'markdown', contentType: 'text/markdown; charset=utf-8' } : { kind: 'text', contentType: 'text/plain; charset=utf-8' };
}
