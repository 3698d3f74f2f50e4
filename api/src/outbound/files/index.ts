import path from 'node:path';
import type { Config } from '../../lib/config.ts';
import { DiskStore } from './disk-store.ts';
import { S3Store } from './s3-store.ts';
import type { FileStore } from './store.ts';

export type { FileStore, StoredFile } from './store.ts';
export { HEAD_BYTES, storageUnavailable } from './store.ts';

/** The attachment store the configuration names (lib/config.ts `attachments`). */
export function createFileStore(config: Pick<Config, 'attachments' | 'dataDir'>): FileStore {
  const root = path.join(config.dataDir, 'attachments');
  return config.attachments.storage === 's3' ? new S3Store(config.attachments.s3, path.join(root, '.spool')) : new DiskStore(root);
}
