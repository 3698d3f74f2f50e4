import fs from 'node:fs';
import path from 'node:path';
import { createHmac } from 'node:crypto';
import type { Executor } from '../db/connection.ts';
import { getSetting, setSetting } from '../db/settings.ts';
import { SecretBox, UnreadableSecretError } from './secret-box.ts';

/**
 * The key that seals stored secrets (webhook signing secrets and bearers, chat credentials, workflow secrets)
 * must travel with the database: a database opened with another key has secrets nobody can read. The instance
 * records the fingerprint of its key in `instance_settings`; a start with another key, or with none where one was
 * used, stops with a message naming ENCRYPTION_KEY instead of quietly making a new key.
 */
export const FINGERPRINT_SETTING = 'encryption_key_fingerprint';
export const KEY_FILE = 'encryption.key';

/** Every column that holds a sealed secret (a test checks the migrated schema has no other `*_encrypted`). */
export const SEALED_COLUMNS: readonly { table: 'agents' | 'webhook_subscriptions' | 'chat_connections' | 'deliveries' | 'workflows'; column: string }[] = [
  { table: 'agents', column: 'webhook_secret_encrypted' },
  { table: 'webhook_subscriptions', column: 'secret_encrypted' },
  { table: 'webhook_subscriptions', column: 'bearer_encrypted' },
  { table: 'chat_connections', column: 'credentials_encrypted' },
  { table: 'deliveries', column: 'secret_encrypted' },
  { table: 'workflows', column: 'secrets_encrypted' },
];

export class EncryptionKeyError extends Error {
  override name = 'EncryptionKeyError';
}

/** 16 hex digits that name a key without revealing it (an HMAC under the key itself). */
export function keyFingerprint(key: Buffer): string {
  return createHmac('sha256', key).update('rollcall encryption key fingerprint').digest('hex').slice(0, 16);
}

export interface ConfiguredKey {
  key: Buffer;
  /** Where it came from, as an operator would name it. */
  source: string;
  fingerprint: string;
}

export const keyFilePath = (dataDir: string) => path.join(dataDir, KEY_FILE);

/** A key file's contents (base64 of 32 bytes, as Rollcall writes it) → the key; a clear error otherwise. */
export function parseKeyFile(file: string): Buffer {
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new EncryptionKeyError(`${file} does not hold an encryption key (base64 of 32 bytes)`);
  return key;
}

/** ENCRYPTION_KEY, else DATA_DIR/encryption.key; null when neither exists (nothing is created here). */
export function configuredKey(config: { encryptionKey: Buffer | null; dataDir: string }): ConfiguredKey | null {
  if (config.encryptionKey) return { key: config.encryptionKey, source: 'ENCRYPTION_KEY', fingerprint: keyFingerprint(config.encryptionKey) };
  const file = keyFilePath(config.dataDir);
  if (!fs.existsSync(file)) return null;
  const key = parseKeyFile(file);
  return { key, source: file, fingerprint: keyFingerprint(key) };
}

/** One stored sealed secret, to test a key against a database that recorded no fingerprint yet; null when none. */
async function anySealedSecret(db: Executor): Promise<string | null> {
  for (const { table, column } of SEALED_COLUMNS) {
    const row = (await db(table).whereNotNull(column).first(column)) as Record<string, string> | undefined;
    if (row) return row[column];
  }
  return null;
}

function opens(key: Buffer, sealed: string): boolean {
  try {
    new SecretBox(key).decrypt(sealed);
    return true;
  } catch (err) {
    if (err instanceof UnreadableSecretError) return false;
    throw err;
  }
}

/** What the database says about the key it needs: its recorded fingerprint, or a secret to try keys on. */
export async function requiredKey(db: Executor): Promise<{ fingerprint: string | null; sample: string | null }> {
  const fingerprint = (await getSetting<string>(db, FINGERPRINT_SETTING)) ?? null;
  return { fingerprint, sample: fingerprint ? null : await anySealedSecret(db) };
}

/** Null when `key` can open the database's secrets; otherwise the reason, naming ENCRYPTION_KEY. */
export function keyMismatch(required: { fingerprint: string | null; sample: string | null }, key: ConfiguredKey | null, dataDir: string): string | null {
  const needed = required.fingerprint ? `the encryption key with fingerprint ${required.fingerprint}` : 'the encryption key they were stored with';
  const remedy =
    `Set ENCRYPTION_KEY to that key, or put its file at ${keyFilePath(dataDir)} (a backup made with \`rollcall admin backup\` holds it). ` +
    'If the key is lost for good, `rollcall admin forget-secrets` removes the secrets it sealed.';
  if (!key) {
    if (!required.fingerprint && !required.sample) return null;
    return `this database's stored secrets need ${needed}, and there is no key (ENCRYPTION_KEY is unset and ${keyFilePath(dataDir)} does not exist). ${remedy}`;
  }
  const fits = required.fingerprint ? required.fingerprint === key.fingerprint : !required.sample || opens(key.key, required.sample);
  if (fits) return null;
  return `this database's stored secrets need ${needed}, but the configured key (${key.source}) has fingerprint ${key.fingerprint}. ${remedy}`;
}

/**
 * At start: refuses a database whose secrets the configured key cannot open, creates the key file only for a
 * database that needs no other key, and records the key's fingerprint, so the next start checks one row.
 */
export async function checkEncryptionKey(db: Executor, config: { encryptionKey: Buffer | null; dataDir: string }, now: Date): Promise<ConfiguredKey> {
  const required = await requiredKey(db);
  let key = configuredKey(config);
  const mismatch = keyMismatch(required, key, config.dataDir);
  if (mismatch) throw new EncryptionKeyError(mismatch);
  key ??= createKeyFile(config.dataDir);
  if (required.fingerprint !== key.fingerprint) await setSetting(db, FINGERPRINT_SETTING, key.fingerprint, now);
  return key;
}

/** A new random key in DATA_DIR/encryption.key (mode 0600); another process's file wins a race. */
export function createKeyFile(dataDir: string): ConfiguredKey {
  const file = keyFilePath(dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const key = SecretBox.newKey();
  try {
    fs.writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const theirs = parseKeyFile(file);
    return { key: theirs, source: file, fingerprint: keyFingerprint(theirs) };
  }
  return { key, source: file, fingerprint: keyFingerprint(key) };
}

/** The configured key's box, never creating a key file (operator commands that only read sealed values). */
export function existingSecretBox(config: { encryptionKey: Buffer | null; dataDir: string }): SecretBox {
  const key = configuredKey(config);
  if (!key) throw new Error('no encryption key is configured (ENCRYPTION_KEY or DATA_DIR/encryption.key)');
  return new SecretBox(key.key);
}

/** The app's box: the configured key, or a new key file (the server has checked the database first). */
export function loadSecretBox(config: { encryptionKey: Buffer | null; dataDir: string }): SecretBox {
  return new SecretBox((configuredKey(config) ?? createKeyFile(config.dataDir)).key);
}
