import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from '../../lib/config.ts';
import { Fingerprint, contentMissing, outgoing, storageUnavailable } from './store.ts';
import type { FileStore, StoredFile } from './store.ts';

type Sdk = typeof import('@aws-sdk/client-s3');

/**
 * An S3-compatible object store (AWS S3, MinIO, Ceph, R2, …) through the AWS SDK, loaded on first use. An upload
 * is spooled to a temporary file first (its length must be known to S3, and memory stays flat), then sent as one
 * PUT. Any failure of the store (unreachable, timed out, refused, the file missing) is 503
 * attachment_storage_unavailable.
 */
export class S3Store implements FileStore {
  readonly kind = 's3' as const;
  readonly #settings: S3Settings;
  readonly #spool: string;
  #client: Promise<{ sdk: Sdk; client: S3Client }> | null = null;

  constructor(settings: S3Settings, spoolDir: string = os.tmpdir()) {
    this.#settings = settings;
    this.#spool = spoolDir;
  }

  #connect(): Promise<{ sdk: Sdk; client: S3Client }> {
    this.#client ??= import('@aws-sdk/client-s3').then((sdk) => {
      const s = this.#settings;
      const client = new sdk.S3Client({
        region: s.region,
        ...(s.endpoint ? { endpoint: s.endpoint } : {}),
        forcePathStyle: s.forcePathStyle,
        ...(s.accessKeyId && s.secretAccessKey ? { credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } } : {}),
        maxAttempts: 2,
        // Checksums only when an operation requires one: S3-compatible stores differ in what they accept.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
      return { sdk, client };
    });
    return this.#client;
  }

  async #call<T>(run: (sdk: Sdk, client: S3Client) => Promise<T>): Promise<T> {
    const { sdk, client } = await this.#connect();
    try {
      return await run(sdk, client);
    } catch (err) {
      // The bucket answered that the object is not there: gone for good, not a failure to retry.
      if ((err as { name?: string }).name === 'NoSuchKey') throw Object.assign(contentMissing(), { cause: err });
      // Unreachable, timed out, refused or misconfigured: the store is not serving this file now.
      throw Object.assign(storageUnavailable(), { cause: err });
    }
  }

  async put(key: string, stream: Readable): Promise<StoredFile> {
    await fs.promises.mkdir(this.#spool, { recursive: true });
    const spooled = path.join(this.#spool, `rollcall-upload-${randomUUID()}`);
    const fingerprint = new Fingerprint();
    try {
      await pipeline(stream, fingerprint, fs.createWriteStream(spooled, { flags: 'wx' }));
      const stored = fingerprint.result();
      await this.#call((sdk, client) =>
        client.send(new sdk.PutObjectCommand({ Bucket: this.#settings.bucket, Key: key, Body: fs.createReadStream(spooled), ContentLength: stored.size })),
      );
      return stored;
    } finally {
      await fs.promises.rm(spooled, { force: true });
    }
  }

  async open(key: string): Promise<{ stream: Readable; size: number }> {
    const answer = await this.#call((sdk, client) => client.send(new sdk.GetObjectCommand({ Bucket: this.#settings.bucket, Key: key })));
    return { stream: outgoing(answer.Body as Readable), size: Number(answer.ContentLength ?? 0) };
  }

  async head(key: string, bytes: number): Promise<Buffer> {
    const answer = await this.#call((sdk, client) => client.send(new sdk.GetObjectCommand({ Bucket: this.#settings.bucket, Key: key, Range: `bytes=0-${bytes - 1}` })));
    const chunks: Buffer[] = [];
    for await (const chunk of Readable.from(answer.Body as Readable)) chunks.push(Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks).subarray(0, bytes);
  }

  async remove(key: string): Promise<void> {
    await this.#call((sdk, client) => client.send(new sdk.DeleteObjectCommand({ Bucket: this.#settings.bucket, Key: key })));
  }
}
