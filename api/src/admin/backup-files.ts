import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../lib/config.ts';
import { CommandError } from './commands.ts';

/**
 * The Plan attachments' bytes in a backup. With the disk store (DATA_DIR/attachments) they are copied into the
 * backup's `attachments/` directory, each with its size and SHA-256 in the manifest, and a restore checks and puts
 * them back. With S3 they stay in the bucket, which is backed up on its own side (versioning, replication).
 */
export const ATTACHMENTS_DIR = 'attachments';

export type AttachmentsManifest =
  | { storage: 'disk'; directory: string; files: { path: string; sha256: string; bytes: number }[] }
  | { storage: 's3'; bucket: string };

/** The SHA-256 of a file, read as a stream (a database or an attachment may be large). */
export async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

/** Every stored file under `root`, as paths relative to it: not the S3 spool, not a `.part` still being written. */
function storedFiles(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.part'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((relative) => !relative.startsWith(`.spool${path.sep}`))
    .sort();
}

/** Copies the disk store into `target/attachments`, each copy hashed; or names the bucket that holds them. */
export async function backupAttachments(config: Config, target: string): Promise<AttachmentsManifest> {
  if (config.attachments.storage === 's3') return { storage: 's3', bucket: config.attachments.s3.bucket };
  const root = path.join(config.dataDir, ATTACHMENTS_DIR);
  const files: { path: string; sha256: string; bytes: number }[] = [];
  for (const relative of storedFiles(root)) {
    const copy = path.join(target, ATTACHMENTS_DIR, relative);
    fs.mkdirSync(path.dirname(copy), { recursive: true, mode: 0o700 });
    try {
      fs.copyFileSync(path.join(root, relative), copy);
    } catch (err) {
      // Removed since it was listed (a deleted attachment swept meanwhile): its row is gone too.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    fs.chmodSync(copy, 0o600);
    files.push({ path: relative.split(path.sep).join('/'), sha256: await fileSha256(copy), bytes: fs.statSync(copy).size });
  }
  return { storage: 'disk', directory: ATTACHMENTS_DIR, files };
}

/** Checks the backup's attachment copies against the manifest before anything is restored. */
export async function checkBackupAttachments(from: string, manifest: AttachmentsManifest | undefined): Promise<void> {
  if (manifest?.storage !== 'disk') return;
  for (const file of manifest.files) {
    const copy = path.join(from, manifest.directory, file.path);
    if (!isInside(path.join(from, manifest.directory), copy) || !fs.existsSync(copy) || (await fileSha256(copy)) !== file.sha256) {
      throw new CommandError(`${copy} is missing or damaged: its SHA-256 is not the manifest's`);
    }
  }
}

/**
 * Puts the backup's attachments in DATA_DIR/attachments: copied beside it first, then swapped in, so a failure
 * leaves the old directory; an old directory that held files is kept beside it, renamed.
 */
export function restoreAttachments(config: Config, from: string, manifest: AttachmentsManifest | undefined, stamp: string): string {
  if (!manifest) return 'not in this backup (made before 1.7.0): DATA_DIR/attachments left as it was';
  if (manifest.storage === 's3') return `in the S3 bucket ${manifest.bucket}: restore it there if needed`;
  const live = path.join(config.dataDir, ATTACHMENTS_DIR);
  const staging = `${live}.restoring`;
  fs.rmSync(staging, { recursive: true, force: true });
  for (const file of manifest.files) {
    const copy = path.join(staging, file.path);
    fs.mkdirSync(path.dirname(copy), { recursive: true, mode: 0o700 });
    fs.copyFileSync(path.join(from, manifest.directory, file.path), copy);
  }
  fs.mkdirSync(staging, { recursive: true, mode: 0o700 });
  if (fs.existsSync(live)) {
    if (storedFiles(live).length > 0) fs.renameSync(live, `${live}.replaced-${stamp}`);
    else fs.rmSync(live, { recursive: true, force: true });
  }
  fs.renameSync(staging, live);
  return `${manifest.files.length} file(s) into ${live}`;
}

const isInside = (root: string, file: string) => path.resolve(file).startsWith(`${path.resolve(root)}${path.sep}`);
