import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../db/connection.ts';
import type { Db } from '../../db/connection.ts';
import { migrateLatest } from '../../db/migrate.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { testDatabase } from '../../../test/database.ts';
import { createOrganization } from '../organization/service.ts';
import { platformName } from '../chat-platform/connection.ts';
import { kudosSettings } from '../kudos/service.ts';
import { isEventListened } from '../workflows/events.ts';
import { isEventWanted } from './events.ts';

/**
 * The settings every kudos and Plan change reads (db/organization-config.ts) are kept in memory under the
 * organization's settings version; these changes are made through a second connection pool, as another process
 * or `rollcall admin` would make them, straight to the tables: every one must be seen at once.
 */
describe('organization settings read on hot paths follow every change, whoever makes it', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-org-config-'));
  const now = new Date('2026-03-10T15:00:00.000Z');
  let database: Awaited<ReturnType<typeof testDatabase>>;
  let app: Db;
  let other: Db;
  let org: string;

  beforeAll(async () => {
    database = await testDatabase(dir);
    app = createDb(database.url);
    other = createDb(database.url);
    await migrateLatest(app);
    org = (await createOrganization(app, { name: 'Cached', plan: 'enterprise' }, now)).uuid;
  });
  afterAll(async () => {
    await app.destroy();
    await other.destroy();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const stamp = now.toISOString();
  const subscription = (events: string[]) => ({
    uuid: uuidv7(), organization_uuid: org, created_by_uuid: null, hook_url: 'https://hooks.example.test/x', name: 'hook', subscriptions: JSON.stringify(events),
    subscribed_objects: '[]', secret_encrypted: 'sealed', secret_generated: true, bearer_encrypted: null, disabled_at: null, disabled_reason: null, created_at: stamp, updated_at: stamp,
  });
  const version = async () => (await app('organization_config_versions').where({ organization_uuid: org }).first('version'))?.version;

  it('webhook subscriptions: created, changed, disabled and deleted elsewhere', async () => {
    expect(await isEventWanted(app, org, 'kudos.posted')).toBe(false);
    const row = subscription(['kudos.posted']);
    await other('webhook_subscriptions').insert(row);
    expect(await isEventWanted(app, org, 'kudos.posted')).toBe(true);
    await other('webhook_subscriptions').where({ uuid: row.uuid }).update({ subscriptions: JSON.stringify(['tasks.*']) });
    expect(await isEventWanted(app, org, 'kudos.posted')).toBe(false);
    expect(await isEventWanted(app, org, 'tasks.created')).toBe(true);
    await other('webhook_subscriptions').where({ uuid: row.uuid }).update({ disabled_at: stamp, disabled_reason: 'gone' });
    expect(await isEventWanted(app, org, 'tasks.created')).toBe(false);
    await other('webhook_subscriptions').where({ uuid: row.uuid }).update({ disabled_at: null });
    expect(await isEventWanted(app, org, 'tasks.created')).toBe(true);
    await other('webhook_subscriptions').where({ uuid: row.uuid }).delete();
    expect(await isEventWanted(app, org, 'tasks.created')).toBe(false);
  });

  it('never keeps what was read inside a transaction that rolled back', async () => {
    await expect(
      app.transaction(async (trx) => {
        await trx('webhook_subscriptions').insert(subscription(['kudos.posted']));
        expect(await isEventWanted(trx, org, 'kudos.posted')).toBe(true);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await isEventWanted(app, org, 'kudos.posted')).toBe(false);
  });

  it('event workflows: started, retargeted and stopped; a run does not renew the version', async () => {
    const uuid = uuidv7();
    await other('workflows').insert({
      uuid, organization_uuid: org, name: 'On kudos', description: null, trigger_type: 'event', trigger_config: JSON.stringify({ event: 'kudos.posted' }), actions: '[]',
      secrets_encrypted: 'sealed', active: true, total_runs: 0, last_run_at: null, schedule_checked_at: null, created_by_uuid: null, created_at: stamp, updated_at: stamp,
    });
    expect(await isEventListened(app, org, 'kudos.posted')).toBe(true);
    const before = await version();
    await other('workflows').where({ uuid }).update({ total_runs: 1, last_run_at: stamp });
    expect(await version()).toBe(before);
    await other('workflows').where({ uuid }).update({ trigger_config: JSON.stringify({ event: 'tasks.*' }) });
    expect(await isEventListened(app, org, 'kudos.posted')).toBe(false);
    expect(await isEventListened(app, org, 'tasks.moved')).toBe(true);
    await other('workflows').where({ uuid }).update({ active: false });
    expect(await isEventListened(app, org, 'tasks.moved')).toBe(false);
  });

  it('the chat platform and the kudos settings', async () => {
    expect(await platformName(app, org)).toBe(null);
    await other('chat_connections').insert({ organization_uuid: org, platform: 'slack', credentials_encrypted: 'sealed', channel_name: null, created_at: stamp, updated_at: stamp });
    expect(await platformName(app, org)).toBe('slack');
    await other('chat_connections').where({ organization_uuid: org }).delete();
    expect(await platformName(app, org)).toBe(null);

    expect(await kudosSettings(app, org)).toEqual({ dailyLimit: 10, chatAnnouncements: true, chatChannel: null });
    await other('kudos_settings').insert({ organization_uuid: org, daily_limit: 3, chat_announcements: false, chat_channel: '#kudos', updated_at: stamp });
    expect(await kudosSettings(app, org)).toEqual({ dailyLimit: 3, chatAnnouncements: false, chatChannel: '#kudos' });
    await other('kudos_settings').where({ organization_uuid: org }).update({ daily_limit: 5 });
    expect((await kudosSettings(app, org)).dailyLimit).toBe(5);
    // Written by an upsert, as PATCH /v1/kudos/settings/ does: its trigger runs under the upsert's conflict handling.
    for (const limit of [6, 7]) {
      await other('kudos_settings').insert({ organization_uuid: org, daily_limit: limit, chat_announcements: true, chat_channel: null, updated_at: stamp }).onConflict('organization_uuid').merge(['daily_limit']);
      expect((await kudosSettings(app, org)).dailyLimit).toBe(limit);
    }
  });
});
