import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_RETRY_SCHEDULE_MS, loadConfig } from '../lib/config.ts';
import { loadSecretBox } from './encryption-key.ts';
import { SecretBox, UnreadableSecretError } from './secret-box.ts';

describe('Delivery configuration and secrets at rest', () => {
  it('parses the retry schedule (CONTRACT §10 by default) and names a bad variable', () => {
    expect(loadConfig({}).delivery.retryScheduleMs).toEqual(DEFAULT_RETRY_SCHEDULE_MS);
    expect(DEFAULT_RETRY_SCHEDULE_MS).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000]);
    expect(loadConfig({ DELIVERY_RETRY_SCHEDULE: '100ms, 2s,1m,1h' }).delivery.retryScheduleMs).toEqual([100, 2000, 60_000, 3_600_000]);
    for (const [name, value] of [['DELIVERY_RETRY_SCHEDULE', '5 minutes'], ['ENCRYPTION_KEY', 'short'], ['DELIVERY_CONCURRENCY', '0'], ['SLACK_API_URL', 'ftp://x']]) {
      let error: unknown;
      try {
        loadConfig({ [name]: value });
      } catch (err) {
        error = err;
      }
      expect(error, name).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe(name);
    }
  });

  it('encrypts with AES-256-GCM under a key from ENCRYPTION_KEY or a 0600 file in DATA_DIR', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-box-'));
    try {
      const box = loadSecretBox({ encryptionKey: null, dataDir: dir });
      const file = path.join(dir, 'encryption.key');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const sealed = box.encrypt('whsec_top-secret');
      expect(sealed).toMatch(/^v1\./);
      expect(sealed).not.toContain('top-secret');
      expect(box.encrypt('whsec_top-secret')).not.toBe(sealed); // fresh IV every time
      expect(loadSecretBox({ encryptionKey: null, dataDir: dir }).decrypt(sealed)).toBe('whsec_top-secret');
      const other = loadSecretBox({ encryptionKey: loadConfig({ ENCRYPTION_KEY: 'a'.repeat(64) }).encryptionKey, dataDir: dir });
      expect(() => other.decrypt(sealed)).toThrow();
      expect(JSON.stringify({ box })).toBe('{"box":"[SecretBox]"}');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a sealed value whose authentication tag is cut short (GCM checks only the bytes it is given), without a deprecation warning', () => {
    const box = new SecretBox(Buffer.alloc(32, 7));
    const sealed = box.encrypt('whsec_top-secret');
    const [version, iv, tag, body] = sealed.split('.');
    expect(Buffer.from(tag, 'base64url')).toHaveLength(16);
    for (const bytes of [15, 12, 8, 4, 1]) {
      // A prefix of the genuine tag: accepted as authentic unless the length is fixed.
      const short = Buffer.from(tag, 'base64url').subarray(0, bytes).toString('base64url');
      expect(() => box.decrypt([version, iv, short, body].join('.')), `${bytes}-byte tag`).toThrow(UnreadableSecretError);
    }
    const long = Buffer.concat([Buffer.from(tag, 'base64url'), Buffer.alloc(1)]).toString('base64url');
    expect(() => box.decrypt([version, iv, long, body].join('.'))).toThrow(UnreadableSecretError);
    expect(box.decrypt(sealed)).toBe('whsec_top-secret');
    // Node warns once per process (DEP0182) when a GCM tag's length is not fixed: a fresh process shows it.
    const script = [
      "import { SecretBox } from './src/outbound/secret-box.ts';",
      'const box = new SecretBox(Buffer.alloc(32, 7));',
      "const [v, iv, tag, body] = box.encrypt('x').split('.');",
      "try { box.decrypt([v, iv, Buffer.from(tag, 'base64url').subarray(0, 4).toString('base64url'), body].join('.')); } catch {}",
      "console.log(box.decrypt(box.encrypt('ok')));",
    ].join('\n');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: path.resolve(import.meta.dirname, '../..'), encoding: 'utf8' });
    expect(run.stdout.trim()).toBe('ok');
    expect(run.stderr).not.toMatch(/DEP0182|DeprecationWarning/);
  });
});
