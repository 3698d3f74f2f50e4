import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { seedPlanOrg } from '../../test/plan-fixtures.ts';
import { readOnlyCommand } from '../admin/commands.ts';

/** Resolves once `check` holds, polling every 10 ms, or throws after `ms` (real time: the signal crosses a socket). */
async function within<T>(ms: number, read: () => Promise<T>, check: (value: T) => boolean): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (check(await read())) return performance.now() - started;
    if (performance.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('Caches invalidated across the processes of one database (LISTEN/NOTIFY; the TTLs are the fallback)', () => {
  let apps: TestApp[] = [];
  afterEach(async () => {
    for (const app of apps.reverse()) await app.close();
    apps = [];
  });

  async function twoProcesses(): Promise<[TestApp, TestApp]> {
    const first = await startTestApp();
    const second = await startTestApp({}, {}, {}, { sameDatabaseAs: first });
    apps = [first, second];
    return [first, second];
  }

  it('stops a key revoked through one process on the other at once (PostgreSQL: told; SQLite: it sees the file change)', async () => {
    const [a, b] = await twoProcesses();
    const { org, adminKey } = await a.seedOrganization();
    const doomed = await a.seedUser(org.uuid, { role: 'member' });
    expect((await b.request('GET', '/v1/me/', { key: doomed.key })).status).toBe(200); // cached in b
    expect((await a.request('DELETE', `/v1/api-keys/${doomed.keyUuid}/`, { key: adminKey })).status).toBe(204);
    const refused = () => b.request('GET', '/v1/me/', { key: doomed.key });
    // No clock moves: on SQLite another process (here the test's second app, in production an operator command)
    // is noticed by PRAGMA data_version, not by the 60-second cache running out.
    const waited = await within(1000, refused, (res) => res.status === 401);
    expect(waited).toBeLessThan(1000);
    expect((await refused()).body.code).toBe('invalid_credentials');
  });

  it("sets the operator's read-only switch on every process at once", async () => {
    const [a, b] = await twoProcesses();
    const acme = await seedPlanOrg(a);
    const write = () => b.request('POST', '/v1/plan/goals/', { key: acme.adminKey, body: { name: `Goal ${Math.random()}` } });
    expect((await write()).status).toBe(201); // b has read the switch: off, fresh for 2 s
    await readOnlyCommand(a.db, a.clock, 'on');
    await within(1000, write, (res) => res.status === 503);
  });

  it.skipIf(process.env.ROLLCALL_TEST_ENGINE !== 'postgres')('listens again after its connection is lost, and forgets what it cached meanwhile', async () => {
    const [a, b] = await twoProcesses();
    const { org, adminKey } = await a.seedOrganization();
    const doomed = await a.seedUser(org.uuid);
    expect((await b.request('GET', '/v1/me/', { key: doomed.key })).status).toBe(200);
    // The server ends every listening connection of this database (as a restart or a network cut would).
    const ended = await a.db.raw("select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%'");
    expect(ended.rows.length).toBe(2);
    // A revocation while b is not listening: b forgets its cache when it listens again.
    await a.db('api_keys').where({ uuid: doomed.keyUuid }).delete();
    await within(5000, () => b.request('GET', '/v1/me/', { key: doomed.key }), (res) => res.status === 401);
    await within(5000, async () => b.logs.join(''), (logs) => logs.includes("listening for other processes' changes again"));
    // And signals reach it again.
    const other = await a.seedUser(org.uuid);
    expect((await b.request('GET', '/v1/me/', { key: other.key })).status).toBe(200);
    expect((await a.request('DELETE', `/v1/api-keys/${other.keyUuid}/`, { key: adminKey })).status).toBe(204);
    await within(1000, () => b.request('GET', '/v1/me/', { key: other.key }), (res) => res.status === 401);
  });
});
