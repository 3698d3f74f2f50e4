import { Transform } from 'node:stream';
import type { Readable, TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Context } from 'koa';
import { ValidationFailed, unknownField } from '../../lib/errors.ts';
import { bodyCutOff } from '../raw-body.ts';

/** What a multipart request's file part says of itself (never trusted for its type: the content is checked). */
export interface IncomingFile {
  filename: string;
  declaredType: string;
}

/** A file to send: its bytes as a stream, and what the answer's headers say of it. */
export interface FileBody {
  stream: Readable;
  size: number;
  contentType: string;
  filename: string;
}

const FIELD_LIMIT = 16 * 1024;
const notMultipart = () => new ValidationFailed({ file: ['Send the file as multipart/form-data, in a part named "file".'] });

/** Passes bytes through and fails with `tooLarge()` once more than `max` have come. */
export class ByteLimit extends Transform {
  readonly #max: number;
  readonly #tooLarge: () => Error;
  bytes = 0;
  constructor(max: number, tooLarge: () => Error) {
    super();
    this.#max = max;
    this.#tooLarge = tooLarge;
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.#max) callback(this.#tooLarge());
    else callback(null, chunk);
  }
}

/**
 * A request body (or a multipart part) limited to `max` bytes: past it, the stream fails with `tooLarge()` and the
 * rest of the request is read and dropped, so the refusal can still be answered; a request that breaks off fails it.
 */
export function limitedBody(source: Readable & { complete?: boolean }, max: number, tooLarge: () => Error): ByteLimit {
  const limit = new ByteLimit(max, tooLarge);
  limit.on('error', () => source.resume());
  source.on('error', (err) => limit.destroy(err));
  source.on('close', () => {
    if (source.complete === false && !limit.writableEnded) limit.destroy(bodyCutOff());
  });
  source.pipe(limit);
  return limit;
}

/**
 * Reads a multipart/form-data request with one file (part `file`) and text fields, streaming the file to
 * `receive` as it arrives (busboy; backpressure reaches the socket, so nothing is buffered beyond a chunk or
 * two). More than `maxBytes` fails with `tooLarge()`; another file part, or a field given twice, is refused.
 * Resolves once the whole request is read and `receive` has finished with the file.
 */
export async function readUpload<T>(
  ctx: Context,
  options: {
    maxBytes: number;
    tooLarge: () => Error;
    receive: (stream: Readable, file: IncomingFile) => Promise<T>;
    /** Undoes `receive` when the request is refused after the file was taken (a bad field after it). */
    discard: (file: T) => Promise<void>;
  },
): Promise<{ fields: Record<string, string>; file: T }> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: ctx.req.headers, limits: { files: 1, fields: 20, parts: 21, fieldSize: FIELD_LIMIT, fileSize: options.maxBytes + 1 } });
  } catch {
    throw notMultipart();
  }
  const fields: Record<string, string> = {};
  type Outcome = { ok: true; file: T } | { ok: false; error: unknown };
  let received = null as Promise<Outcome> | null;
  let limit = null as ByteLimit | null;
  let refusal: Error | null = null;
  parser.on('field', (name, value, info) => {
    if (info.valueTruncated) refusal ??= new ValidationFailed({ [name]: [`At most ${FIELD_LIMIT} bytes.`] });
    else if (Object.hasOwn(fields, name)) refusal ??= new ValidationFailed({ [name]: ['Given more than once.'] });
    else fields[name] = value;
  });
  parser.on('file', (name, stream, info) => {
    if (name !== 'file' || received) {
      refusal ??= name === 'file' ? new ValidationFailed({ file: ['Send one file per request.'] }) : unknownField(name);
      stream.resume();
      return;
    }
    // Whatever happens downstream, the request is read to its end (a refusal is answered after it).
    const taken = limitedBody(stream, options.maxBytes, options.tooLarge);
    limit = taken;
    received = options.receive(taken, { filename: info.filename ?? 'file', declaredType: info.mimeType ?? '' }).then(
      (file) => ({ ok: true as const, file }),
      (error: unknown) => {
        // Refused before (or while) reading it: the rest of the file is read and dropped, so the request ends.
        if (!taken.destroyed) taken.resume();
        return { ok: false as const, error };
      },
    );
  });
  parser.on('filesLimit', () => void (refusal ??= new ValidationFailed({ file: ['Send one file per request.'] })));
  parser.on('fieldsLimit', () => void (refusal ??= new ValidationFailed({ non_field_errors: ['Too many form fields.'] })));
  let broken: Error | null = null;
  try {
    await pipeline(ctx.req, parser);
  } catch {
    // The request broke off or was not valid multipart (busboy: "Unexpected end of form", a bad boundary): the
    // client's fault whatever the parser said, and the file's receiver sees its stream fail with the same 400.
    broken = notMultipart();
    limit?.destroy(broken);
  }
  const outcome: Outcome | null = received ? await received : null;
  // A broken request wins over what its receiver made of the stream that failed under it (busboy fails the file
  // part with its own error before the pipeline rejects).
  const problem = broken ?? (outcome && !outcome.ok ? outcome.error : null) ?? refusal ?? (outcome ? null : new ValidationFailed({ file: ['This field is required.'] }));
  if (problem) {
    if (outcome?.ok) await options.discard(outcome.file);
    throw problem;
  }
  return { fields, file: (outcome as Outcome & { ok: true }).file };
}

/**
 * Answers a stored file as a download: always `Content-Disposition: attachment` (the browser saves it, never
 * renders it here) with the name encoded by the content-disposition rules Koa uses, the type found when the
 * content was checked, `X-Content-Type-Options: nosniff`, and a sandboxing Content-Security-Policy.
 */
export function sendFile(ctx: Context, file: FileBody): void {
  ctx.attachment(file.filename, { type: 'attachment' });
  ctx.type = file.contentType;
  ctx.length = file.size;
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
  ctx.set('Cache-Control', 'private, no-store');
  ctx.body = file.stream;
}
