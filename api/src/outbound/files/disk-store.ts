import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Fingerprint, contentMissing, outgoing, storageUnavailable } from './store.ts';
import type { FileStore, StoredFile } from './store.ts';

/**
 * Files under a directory (DATA_DIR/attachments). A file is written beside its place under a temporary name,
 * flushed, then renamed: a crash never leaves half a file under a key, and a reader never sees one.
 */
export class DiskStore implements FileStore {
  readonly kind = 'disk' as const;
  readonly #root: string;
  constructor(root: string) {
    this.#root = root;
  }

  #path(key: string): string {
    if (!/^[A-Za-z0-9._/-]+$/.test(key) || key.split('/').some((part) => part === '' || part === '.' || part === '..')) throw new Error(`file store: bad key ${key}`);
    return path.join(this.#root, key);
  }

  async put(key: string, stream: Readable): Promise<StoredFile> {
    const target = this.#path(key);
    const temporary = `${target}.${randomUUID()}.part`;
    const fingerprint = new Fingerprint();
    try {
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      const out = fs.createWriteStream(temporary, { flags: 'wx' });
      await pipeline(stream, fingerprint, out);
      const handle = await fs.promises.open(temporary, 'r');
      await handle.sync().finally(() => handle.close());
      await fs.promises.rename(temporary, target);
    } catch (err) {
      await fs.promises.rm(temporary, { force: true });
      throw isDiskFailure(err) ? storageUnavailable() : err;
    }
    return fingerprint.result();
  }

  async open(key: string): Promise<{ stream: Readable; size: number }> {
    const handle = await this.#openStored(key);
    const { size } = await handle.stat();
    return { stream: outgoing(handle.createReadStream()), size };
  }

  async head(key: string, bytes: number): Promise<Buffer> {
    const handle = await this.#openStored(key);
    try {
      const buffer = Buffer.alloc(bytes);
      const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  /** A stored file for reading: gone for good (410) when absent, unavailable (503) when the disk fails. */
  #openStored(key: string): Promise<fs.promises.FileHandle> {
    return fs.promises.open(this.#path(key), 'r').catch((err: unknown) => {
      if ((err as { code?: string }).code === 'ENOENT') throw contentMissing();
      throw isDiskFailure(err) ? storageUnavailable() : err;
    });
  }

  async remove(key: string): Promise<void> {
    await fs.promises.rm(this.#path(key), { force: true });
  }
}

/** Errors of the disk itself (full, read-only, failing, a directory missing), as opposed to a stream that failed on the way in. */
function isDiskFailure(err: unknown): boolean {
  return ['ENOSPC', 'EROFS', 'EIO', 'EACCES', 'EDQUOT', 'ENOENT'].includes((err as { code?: string }).code ?? '');
}
