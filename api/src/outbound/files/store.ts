import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import type { Readable, TransformCallback } from 'node:stream';
import { ApiError } from '../../lib/errors.ts';
import { streamedBytes } from '../../lib/young-garbage.ts';

/**
 * Where Plan attachments' bytes live: a disk directory (the default) or an S3-compatible object store. Bytes
 * always move as streams: a store never holds a whole file in memory.
 */
export interface FileStore {
  readonly kind: 'disk' | 's3';
  /** Stores the stream under `key` (replacing what was there); answers its size, SHA-256 and first bytes. */
  put(key: string, stream: Readable): Promise<StoredFile>;
  /** The stored bytes, as a stream. */
  open(key: string): Promise<{ stream: Readable; size: number }>;
  /** Up to the first `bytes` bytes (enough to tell a file's type). */
  head(key: string, bytes: number): Promise<Buffer>;
  /** Removes the file; a file already gone is fine. */
  remove(key: string): Promise<void>;
}

export interface StoredFile {
  size: number;
  sha256: string;
  head: Buffer;
}

/** How many first bytes a store keeps aside while storing (what file-type reads to recognize a format). */
export const HEAD_BYTES = 64 * 1024;

/** 503 attachment_storage_unavailable: the store did not answer (or failed); the client retries later. */
export const storageUnavailable = () =>
  new ApiError(503, 'attachment_storage_unavailable', 'File storage is temporarily unavailable; retry later.', { headers: { 'Retry-After': '30' } });

/**
 * 410 attachment_content_missing: the attachment is listed but its bytes are gone from the store (a disk restored
 * without them, an object removed from the bucket). Permanent: retrying cannot help; upload the file again.
 */
export const contentMissing = () =>
  new ApiError(410, 'attachment_content_missing', "This file's content is no longer in storage (removed from the disk or the bucket); upload it again.");

/** Passes a stored file's bytes on their way out, returning the read buffers' memory as it goes (lib/young-garbage.ts). */
export class Outgoing extends Transform {
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    streamedBytes(chunk.length);
    callback(null, chunk);
  }
}

/** `source` through Outgoing; a failure of the source fails the returned stream. */
export function outgoing(source: Readable): Readable {
  const out = new Outgoing();
  source.on('error', (err) => out.destroy(err));
  out.on('close', () => source.destroy());
  return source.pipe(out);
}

/** Counts, hashes and keeps the first bytes of what passes through, for `StoredFile`. */
export class Fingerprint extends Transform {
  readonly #hash = createHash('sha256');
  readonly #head: Buffer[] = [];
  #headLength = 0;
  size = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    streamedBytes(chunk.length);
    this.#hash.update(chunk);
    if (this.#headLength < HEAD_BYTES) {
      const part = chunk.subarray(0, HEAD_BYTES - this.#headLength);
      this.#head.push(Buffer.from(part));
      this.#headLength += part.length;
    }
    callback(null, chunk);
  }
  result(): StoredFile {
    return { size: this.size, sha256: this.#hash.digest('hex'), head: Buffer.concat(this.#head) };
  }
}
