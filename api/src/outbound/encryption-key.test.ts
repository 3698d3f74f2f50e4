import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { getSetting } from '../db/settings.ts';
import { EncryptionKeyError, FINGERPRINT_SETTING, SEALED_COLUMNS, checkEncryptionKey, keyFilePath, keyFingerprint } from './encryption-key.ts';
import { SecretBox } from './secret-box.ts';

/** The key check the server runs at start, on a real migrated database. */
describe('the encryption key travels with the database', () => {
  let t: TestApp;
  let dataDir: string;
  beforeEach(async () => {
    t = await startTestApp();
    dataDir = fs.mkdtempSync(`${t.config.dataDir}/start-`);
  });
  afterEach(async () => t.close());

  const otherKey = () => SecretBox.newKey();
  const check = (encryptionKey: Buffer | null) => checkEncryptionKey(t.db, { encryptionKey, dataDir }, t.clock.now());
  const refusal = async (encryptionKey: Buffer | null) => {
    const error = await check(encryptionKey).then(() => null, (err: unknown) => err);
    expect(error).toBeInstanceOf(EncryptionKeyError);
    return (error as Error).message;
  };

  it('makes a key file for a database that needs none, and records its fingerprint before any secret exists', async () => {
    await t.db('instance_settings').where({ key: FINGERPRINT_SETTING }).delete();
    const key = await check(null);
    expect(fs.statSync(keyFilePath(dataDir)).mode & 0o777).toBe(0o600);
    expect(key.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(await getSetting(t.db, FINGERPRINT_SETTING)).toBe(key.fingerprint);
    expect((await check(null)).fingerprint).toBe(key.fingerprint);

    // Another key, from ENCRYPTION_KEY or in place of the file: refused, naming ENCRYPTION_KEY and both keys.
    const wrong = otherKey();
    const message = await refusal(wrong);
    expect(message).toContain(`fingerprint ${key.fingerprint}`);
    expect(message).toContain(`the configured key (ENCRYPTION_KEY) has fingerprint ${keyFingerprint(wrong)}`);
    expect(message).toContain('Set ENCRYPTION_KEY to that key');
  });

  it('refuses, without making a key, a database whose key file is missing', async () => {
    const key = await check(null);
    fs.rmSync(keyFilePath(dataDir));
    const message = await refusal(null);
    expect(message).toContain(`need the encryption key with fingerprint ${key.fingerprint}, and there is no key (ENCRYPTION_KEY is unset`);
    expect(fs.existsSync(keyFilePath(dataDir))).toBe(false);
  });

  it('on a database from before fingerprints, tries the key on a stored secret', async () => {
    const acme = await t.seedOrganization();
    const sealedWith = otherKey();
    await t.db('instance_settings').where({ key: FINGERPRINT_SETTING }).delete();
    await t.request('POST', '/v1/agent-health/', { key: acme.adminKey, body: { agent_name: 'builder', ok: true } });
    await t.db('agents').update({ webhook_url: 'https://example.com/hook', webhook_secret_encrypted: new SecretBox(sealedWith).encrypt('s3cret') });
    expect(await refusal(otherKey())).toContain('need the encryption key they were stored with');
    expect(await refusal(null)).toContain('there is no key');
    expect((await check(sealedWith)).fingerprint).toBe(keyFingerprint(sealedWith));
    expect(await getSetting(t.db, FINGERPRINT_SETTING)).toBe(keyFingerprint(sealedWith));
  });

  it('knows every column that holds a sealed secret', async () => {
    const columns = t.config.databaseUrl.startsWith('postgres')
      ? ((await t.db.raw("select table_name as t, column_name as c from information_schema.columns where table_schema = current_schema() and column_name like '%\\_encrypted'")) as { rows: { t: string; c: string }[] }).rows
      : ((await t.db.raw("select m.name as t, p.name as c from sqlite_master m join pragma_table_info(m.name) p where m.type = 'table' and p.name like '%\\_encrypted' escape '\\'")) as { t: string; c: string }[]);
    expect(columns.map(({ t: table, c }) => `${table}.${c}`).sort()).toEqual(SEALED_COLUMNS.map(({ table, column }) => `${table}.${column}`).sort());
  });
});
