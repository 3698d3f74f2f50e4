import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/connection.ts';
import { isSqlite, sqliteFilename } from '../db/connection.ts';
import { DatabaseInUseError, backupSqlite, checkSqliteFile, openSqliteReadOnly, restoreSqliteFile } from '../db/sqlite-files.ts';
import type { Clock } from '../lib/clock.ts';
import type { Config } from '../lib/config.ts';
import { VERSION } from '../lib/version.ts';
import { KEY_FILE, configuredKey, keyFilePath, keyFingerprint, keyMismatch, parseKeyFile, requiredKey } from '../outbound/encryption-key.ts';
import type { ConfiguredKey } from '../outbound/encryption-key.ts';
import { CommandError } from './commands.ts';
import { backupAttachments, checkBackupAttachments, fileSha256, restoreAttachments } from './backup-files.ts';
import type { AttachmentsManifest } from './backup-files.ts';

/**
 * A backup is a directory that restores on its own: the database as one SQLite file, the encryption key that
 * opens its stored secrets (unless the key comes from ENCRYPTION_KEY, which the operator keeps), the Plan
 * attachments of the disk store (backup-files.ts), and a manifest written last, naming them all with the key's
 * fingerprint and every file's SHA-256.
 */
export const MANIFEST = 'manifest.json';
const DATABASE_FILE = 'rollcall.db';

export interface Manifest {
  format: 'rollcall-backup';
  version: 1;
  created_at: string;
  rollcall_version: string;
  database: { file: string; sha256: string; bytes: number };
  /** Null when the database holds no secret and no key existed yet. */
  encryption_key: { fingerprint: string; file: string | null } | null;
  /** Absent in backups made before 1.7.0 (their attachments were not copied). */
  attachments?: AttachmentsManifest;
}

function sqliteOnly(config: Config, what: string): string {
  if (/^postgres(ql)?:/.test(config.databaseUrl)) {
    throw new CommandError(
      `${what} is for SQLite databases. For PostgreSQL use pg_dump and pg_restore, and keep the encryption key with the dump ` +
        '(ENCRYPTION_KEY, or DATA_DIR/encryption.key: it is base64, so ENCRYPTION_KEY="$(cat encryption.key)" sets it).',
    );
  }
  return sqliteFilename(config.databaseUrl);
}

/** `rollcall admin backup DIR`: online, while the server runs. */
export async function backupCommand(db: Db, config: Config, clock: Clock, dir?: string) {
  if (!dir) throw new CommandError('name the backup directory (it must not exist yet, or be empty)');
  sqliteOnly(config, 'rollcall admin backup');
  if (!isSqlite(db)) throw new CommandError('rollcall admin backup is for SQLite databases');
  const target = path.resolve(dir);
  if (fs.existsSync(target) && fs.readdirSync(target).length > 0) throw new CommandError(`${target} is not empty: name a new directory for the backup`);

  const key = configuredKey(config);
  const mismatch = keyMismatch(await requiredKey(db), key, config.dataDir);
  if (mismatch) throw new CommandError(`no backup made: ${mismatch}`);

  fs.mkdirSync(target, { recursive: true, mode: 0o700 });
  const databaseFile = path.join(target, DATABASE_FILE);
  await backupSqlite(db, `${databaseFile}.partial`);
  fs.renameSync(`${databaseFile}.partial`, databaseFile);
  fs.chmodSync(databaseFile, 0o600);
  const keyIncluded = key !== null && key.source !== 'ENCRYPTION_KEY';
  if (keyIncluded) {
    fs.copyFileSync(keyFilePath(config.dataDir), path.join(target, KEY_FILE));
    fs.chmodSync(path.join(target, KEY_FILE), 0o600);
  }
  // After the database: a file uploaded meanwhile is copied too (its row is simply not in this backup).
  const attachments = await backupAttachments(config, target);
  const manifest: Manifest = {
    format: 'rollcall-backup',
    version: 1,
    created_at: clock.now().toISOString(),
    rollcall_version: VERSION,
    database: { file: DATABASE_FILE, sha256: await fileSha256(databaseFile), bytes: fs.statSync(databaseFile).size },
    encryption_key: key ? { fingerprint: key.fingerprint, file: keyIncluded ? KEY_FILE : null } : null,
    attachments,
  };
  fs.writeFileSync(path.join(target, `${MANIFEST}.partial`), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(path.join(target, `${MANIFEST}.partial`), path.join(target, MANIFEST));
  return {
    backup: target,
    database: DATABASE_FILE,
    encryption_key_fingerprint: key?.fingerprint ?? null,
    encryption_key: !key
      ? 'none yet: the database holds no secrets'
      : keyIncluded
        ? `included (${KEY_FILE}): keep this directory as private as the key itself`
        : 'NOT included: it comes from ENCRYPTION_KEY; keep that value with this backup, a restore needs it',
    attachments:
      attachments.storage === 'disk'
        ? `${attachments.files.length} file(s) included (${attachments.directory}/)`
        : `NOT included: they are in the S3 bucket ${attachments.bucket}; back the bucket up on its side (versioning or replication)`,
  };
}

/** The backup at `source`: a directory with a manifest, or a bare database file (a backup without its key). */
async function readBackup(source: string): Promise<{ databaseFile: string; manifest: Manifest | null }> {
  const from = path.resolve(source);
  if (!fs.existsSync(from)) throw new CommandError(`no backup at ${from}`);
  if (fs.statSync(from).isFile()) return { databaseFile: from, manifest: null };
  const manifestFile = path.join(from, MANIFEST);
  if (!fs.existsSync(manifestFile)) throw new CommandError(`${from} is not a complete backup: it has no ${MANIFEST}`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
  } catch {
    throw new CommandError(`${manifestFile} is not valid JSON`);
  }
  if (manifest.format !== 'rollcall-backup' || manifest.version !== 1) throw new CommandError(`${manifestFile} is not a Rollcall backup manifest (version 1)`);
  const databaseFile = path.join(from, manifest.database.file);
  if (!fs.existsSync(databaseFile) || (await fileSha256(databaseFile)) !== manifest.database.sha256) {
    throw new CommandError(`${databaseFile} is missing or damaged: its SHA-256 is not the manifest's`);
  }
  await checkBackupAttachments(from, manifest.attachments);
  return { databaseFile, manifest };
}

/** The key the restored database will be opened with, and whether the backup's key file must be put in place. */
function chooseKey(config: Config, from: string, manifest: Manifest | null, required: Awaited<ReturnType<typeof requiredKey>>, force: boolean) {
  const backupKeyFile = manifest?.encryption_key?.file ? path.join(from, manifest.encryption_key.file) : null;
  if (backupKeyFile && !fs.existsSync(backupKeyFile)) throw new CommandError(`${backupKeyFile} is missing: the manifest names it`);
  const backupKey: ConfiguredKey | null = backupKeyFile
    ? (() => {
        const key = parseKeyFile(backupKeyFile);
        return { key, source: backupKeyFile, fingerprint: keyFingerprint(key) };
      })()
    : null;
  if (backupKey && backupKey.fingerprint !== manifest?.encryption_key?.fingerprint) throw new CommandError(`${backupKeyFile} is not the key the manifest names`);

  // ENCRYPTION_KEY wins over any file, as it does at start: it must fit.
  const present = configuredKey(config);
  const candidate = config.encryptionKey ? present : (backupKey ?? present);
  const mismatch = keyMismatch(required, candidate, config.dataDir);
  if (mismatch) throw new CommandError(`nothing restored: ${mismatch}`);
  const installKeyFile = !config.encryptionKey && backupKey !== null && present?.fingerprint !== backupKey.fingerprint;
  if (installKeyFile && present && !force) {
    throw new CommandError(
      `${present.source} holds another key (fingerprint ${present.fingerprint}) than the backup's (${backupKey!.fingerprint}); ` +
        'add --force to replace it (the old file is kept beside it)',
    );
  }
  const keySource = config.encryptionKey ? 'ENCRYPTION_KEY' : installKeyFile ? keyFilePath(config.dataDir) : (present?.source ?? 'none needed yet');
  return { candidate, backupKeyFile: installKeyFile ? backupKeyFile : null, keySource };
}

/** `rollcall admin restore BACKUP [--force]`: the server must be stopped; its database is replaced. */
export async function restoreCommand(config: Config, clock: Clock, source: string | undefined, force: boolean) {
  if (!source) throw new CommandError('name the backup to restore (a directory made by `rollcall admin backup`)');
  const target = sqliteOnly(config, 'rollcall admin restore');
  const { databaseFile, manifest } = await readBackup(source);
  const problem = checkSqliteFile(databaseFile);
  if (problem) throw new CommandError(`${databaseFile} is not a sound SQLite database: ${problem}`);
  const backupDb = openSqliteReadOnly(databaseFile);
  let required: Awaited<ReturnType<typeof requiredKey>>;
  try {
    required = await requiredKey(backupDb);
  } catch {
    throw new CommandError(`${databaseFile} is not a Rollcall database`);
  } finally {
    await backupDb.destroy();
  }
  if (manifest?.encryption_key && required.fingerprint && manifest.encryption_key.fingerprint !== required.fingerprint) {
    throw new CommandError(`the backup's database needs key ${required.fingerprint}, but its manifest names ${manifest.encryption_key.fingerprint}`);
  }
  const { candidate, backupKeyFile, keySource } = chooseKey(config, path.resolve(source), manifest, required, force);

  if (fs.existsSync(target) && !force) {
    throw new CommandError(`${target} exists: stop the server and add --force to replace it with the backup`);
  }
  try {
    await restoreSqliteFile(databaseFile, target);
  } catch (err) {
    if (err instanceof DatabaseInUseError) throw new CommandError(`nothing restored: ${err.message}; stop it first`);
    throw err;
  }
  const stamp = clock.now().toISOString().replace(/[:.]/g, '-');
  const attachments = manifest ? restoreAttachments(config, path.resolve(source), manifest.attachments, stamp) : 'not in a bare database file: DATA_DIR/attachments left as it was';
  if (backupKeyFile) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    const keyFile = keyFilePath(config.dataDir);
    if (fs.existsSync(keyFile)) fs.renameSync(keyFile, `${keyFile}.replaced-${stamp}`);
    fs.copyFileSync(backupKeyFile, keyFile);
    fs.chmodSync(keyFile, 0o600);
  }
  return {
    restored: target,
    from: path.resolve(source),
    encryption_key_fingerprint: candidate?.fingerprint ?? null,
    encryption_key: backupKeyFile ? `${keyFilePath(config.dataDir)} (from the backup)` : keySource,
    attachments,
  };
}
