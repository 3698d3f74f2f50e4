import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { CERT_FILE, startHttpsReceiver } from './receivers.ts';
import { PNG, form } from './files.ts';
import type { HttpsReceiver } from './receivers.ts';
import { runBlock, runnableBlocks } from './doc-blocks.ts';
import { REPO_DIR, admin, rollcall, serve, stop, tempDir } from './processes.ts';

const KEY = `rk_${'Backup0000'.repeat(4)}`;
const PAGE = 'content/help/en/database-and-backups.mdx';

/** A server as an operator runs it, trusting the test receiver's certificate as the docs tell them to. */
const serverEnv = (dataDir: string, extra: Record<string, string> = {}) => ({
  DATA_DIR: dataDir,
  BOOTSTRAP_API_KEY: KEY,
  ALLOW_PRIVATE_WEBHOOKS: 'true',
  NODE_EXTRA_CA_CERTS: CERT_FILE,
  DELIVERY_POLL_MS: '50',
  ...extra,
});

async function api(url: string, method: string, pathname: string, body?: unknown) {
  const res = await fetch(`${url}${pathname}`, { method, headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

/**
 * Backups as one unit: the database with the key that opens its stored secrets. The tests share one backup,
 * made in the first through the help center's own commands, and run in order.
 */
describe('backup and restore (the database with its encryption key)', () => {
  const children: ChildProcessWithoutNullStreams[] = [];
  let rx: HttpsReceiver;
  const home = tempDir('rollcall-home-');
  let backup = '';
  let fingerprint = '';

  beforeAll(async () => {
    rx = await startHttpsReceiver(() => ({ status: 200 }));
  });
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });
  afterAll(async () => {
    await rx.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('works word for word as the help center says, in every language: back up, restore on a new machine, start', async () => {
    const blocks = runnableBlocks(PAGE);
    expect(blocks.map((b) => b.code.split(' ', 2).join(' '))).toEqual(['npx rollcall', 'tar -czf', 'npx rollcall']);
    for (const language of ['es', 'pt']) {
      expect(runnableBlocks(`content/help/${language}/database-and-backups.mdx`).map((b) => b.code), language).toEqual(blocks.map((b) => b.code));
    }
    const [backupBlock, tarBlock, restoreBlock] = blocks;
    // The README's operator commands are the same ones (its block lists commands without npx).
    const readme = fs.readFileSync(path.join(REPO_DIR, 'README.md'), 'utf8');
    for (const block of [backupBlock, restoreBlock]) expect(readme).toContain(block.code.replace(/^npx /, ''));

    const first = tempDir('rollcall-data-');
    const a = await serve(serverEnv(first), children);
    expect((await api(a.url, 'POST', '/v1/agent-webhook/', { agent_name: 'builder', webhook_url: `${rx.url}/hook`, webhook_secret: 'agent-secret-123' })).status).toBe(201);
    // A Plan file on the disk store: its bytes live beside the database, and travel with it.
    const project = (await api(a.url, 'POST', '/v1/plan/projects/', { name: 'Launch' })).body.uuid;
    const files = `/v1/plan/projects/${project}/attachments/`;
    const uploaded = await fetch(`${a.url}${files}`, { method: 'POST', headers: { 'x-api-key': KEY }, body: form({ name: 'screenshot.png', type: 'image/png', bytes: PNG }) });
    expect(uploaded.status).toBe(201);
    const attachment = ((await uploaded.json()) as { uuid: string }).uuid;
    for (const block of [backupBlock, tarBlock]) {
      const ran = runBlock(block, { HOME: home, DATA_DIR: first });
      expect(ran.status, `${PAGE}:${block.line}\n${ran.stderr}`).toBe(0);
    }
    const [day] = fs.readdirSync(path.join(home, 'rollcall-backups')).filter((name) => !name.endsWith('.tar.gz'));
    backup = path.join(home, 'rollcall-backups', day);
    expect(fs.readdirSync(backup).sort()).toEqual(['attachments', 'encryption.key', 'manifest.json', 'rollcall.db']);
    for (const file of ['encryption.key', 'rollcall.db']) expect(fs.statSync(path.join(backup, file)).mode & 0o777, file).toBe(0o600);
    const manifest = JSON.parse(fs.readFileSync(path.join(backup, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ format: 'rollcall-backup', version: 1, database: { file: 'rollcall.db' }, encryption_key: { file: 'encryption.key' } });
    expect(manifest.attachments).toEqual({
      storage: 'disk',
      directory: 'attachments',
      files: [{ path: expect.stringMatching(new RegExp(`^[0-9a-f-]{36}/${attachment}$`)), sha256: createHash('sha256').update(PNG).digest('hex'), bytes: PNG.length }],
    });
    fingerprint = manifest.encryption_key.fingerprint;
    expect(fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(fs.existsSync(path.join(home, 'rollcall-backups', `rollcall-${day}.tar.gz`))).toBe(true);
    expect(await stop(a.child)).toBe(0);

    // A new machine: an empty data directory.
    const second = tempDir('rollcall-data-');
    const restored = runBlock(restoreBlock, { HOME: home, DATA_DIR: second });
    expect(restored.status, restored.stderr).toBe(0);
    const b = await serve(serverEnv(second), children);
    const sent = await api(b.url, 'POST', '/v1/agent-messages/', { agent_name: 'builder', content: 'Still there?' });
    expect(sent.status).toBe(201);
    await rx.waitFor(1);
    expect(rx.received[0].headers['x-webhook-secret']).toBe('agent-secret-123');
    expect(rx.received[0].json.message.id).toBe(sent.body.id);
    const content = await fetch(`${b.url}${files}${attachment}/content/`, { headers: { 'x-api-key': KEY } });
    expect(content.status).toBe(200);
    expect(Buffer.from(await content.arrayBuffer())).toEqual(PNG);

    // A running server's database is not replaced under it.
    const busy = admin(second, 'restore', backup, '--force');
    expect(busy.status).toBe(2);
    expect(busy.stderr).toBe(`rollcall: nothing restored: ${second}/rollcall.db is in use by another process (is the server running?); stop it first\n`);
    expect(await stop(b.child)).toBe(0);
  }, 90_000);

  it('a database copied without its key does not start, names ENCRYPTION_KEY and makes no key; the backup key lets it start', async () => {
    const bare = tempDir('rollcall-data-');
    fs.copyFileSync(path.join(backup, 'rollcall.db'), path.join(bare, 'rollcall.db'));
    const refused = rollcall(['serve'], serverEnv(bare));
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`rollcall: cannot open the database: this database's stored secrets need the encryption key with fingerprint ${fingerprint}, and there is no key (ENCRYPTION_KEY is unset`);
    expect(fs.existsSync(path.join(bare, 'encryption.key'))).toBe(false);

    const wrong = rollcall(['serve'], serverEnv(bare, { ENCRYPTION_KEY: 'ab'.repeat(32) }));
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain('but the configured key (ENCRYPTION_KEY) has fingerprint');

    // The page's remedy: ENCRYPTION_KEY from the backup's key file.
    const started = await serve(serverEnv(bare, { ENCRYPTION_KEY: fs.readFileSync(path.join(backup, 'encryption.key'), 'utf8').trim() }), children);
    expect((await api(started.url, 'GET', '/v1/agent/health/')).body.results[0]).toMatchObject({ agent_name: 'builder', webhook_registered: true });
    expect(await stop(started.child)).toBe(0);
  }, 60_000);

  it('restore checks what it puts in place: manifest, checksum, key, and existing data', () => {
    const target = tempDir('rollcall-data-');
    expect(admin(target, 'restore', target).stderr).toBe(`rollcall: ${target} is not a complete backup: it has no manifest.json\n`);

    const damaged = tempDir('rollcall-backup-');
    fs.cpSync(backup, damaged, { recursive: true });
    fs.appendFileSync(path.join(damaged, 'rollcall.db'), 'x');
    expect(admin(target, 'restore', damaged).stderr).toBe(`rollcall: ${damaged}/rollcall.db is missing or damaged: its SHA-256 is not the manifest's\n`);
    // An attachment's copy is checked as the database is.
    fs.copyFileSync(path.join(backup, 'rollcall.db'), path.join(damaged, 'rollcall.db'));
    const [file] = JSON.parse(fs.readFileSync(path.join(backup, 'manifest.json'), 'utf8')).attachments.files;
    fs.writeFileSync(path.join(damaged, 'attachments', file.path), 'not the picture');
    expect(admin(target, 'restore', damaged).stderr).toBe(`rollcall: ${damaged}/attachments/${file.path} is missing or damaged: its SHA-256 is not the manifest's\n`);

    const wrongKey = rollcall(['admin', 'restore', backup], { DATA_DIR: target, ENCRYPTION_KEY: 'ab'.repeat(32) });
    expect(wrongKey.status).toBe(2);
    expect(wrongKey.stderr).toContain(`rollcall: nothing restored: this database's stored secrets need the encryption key with fingerprint ${fingerprint}, but the configured key (ENCRYPTION_KEY)`);
    expect(fs.readdirSync(target)).toEqual([]);

    expect(admin(target, 'restore', backup, '--json').json()).toEqual({
      restored: `${target}/rollcall.db`,
      from: backup,
      encryption_key_fingerprint: fingerprint,
      encryption_key: `${target}/encryption.key (from the backup)`,
      attachments: `1 file(s) into ${target}/attachments`,
    });
    const again = admin(target, 'restore', backup);
    expect(again.stderr).toBe(`rollcall: ${target}/rollcall.db exists: stop the server and add --force to replace it with the backup\n`);

    // --force over another key: the backup's key is put in place, the other kept beside it.
    fs.writeFileSync(path.join(target, 'encryption.key'), `${Buffer.alloc(32, 7).toString('base64')}\n`);
    expect(admin(target, 'restore', backup).stderr).toMatch(new RegExp(`^rollcall: ${target}/encryption.key holds another key \\(fingerprint [0-9a-f]{16}\\) than the backup's \\(${fingerprint}\\); add --force to replace it`));
    expect(admin(target, 'restore', backup, '--force', '--json').json()).toMatchObject({ encryption_key_fingerprint: fingerprint });
    expect(fs.readFileSync(path.join(target, 'encryption.key'))).toEqual(fs.readFileSync(path.join(backup, 'encryption.key')));
    expect(fs.readdirSync(target).filter((name) => name.startsWith('encryption.key.replaced-'))).toHaveLength(1);
  }, 60_000);

  it('with the key lost for good, forget-secrets removes what it sealed and the next start makes a new key', async () => {
    const lost = tempDir('rollcall-data-');
    fs.copyFileSync(path.join(backup, 'rollcall.db'), path.join(lost, 'rollcall.db'));
    const asked = admin(lost, 'forget-secrets');
    expect(asked.status).toBe(2);
    expect(asked.stderr).toBe('rollcall: this removes 1 agent webhook(s), 0 organization webhook subscription(s) and 0 chat connection(s), whose secrets no key can open any more; run it again with --yes\n');
    expect(admin(lost, 'forget-secrets', '--yes', '--json').json()).toMatchObject({ removed: { agent_webhooks: 1, organization_webhooks: 0, chat_connections: 0 } });
    const started = await serve(serverEnv(lost), children);
    expect(fs.existsSync(path.join(lost, 'encryption.key'))).toBe(true);
    expect((await api(started.url, 'GET', '/v1/agent/health/')).body.results[0]).toMatchObject({ agent_name: 'builder', webhook_registered: false });
    expect(await stop(started.child)).toBe(0);
  }, 60_000);
});
