import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { startTcpProxy } from '../../test/tcp-proxy.ts';

/**
 * A database server that goes away (PostgreSQL, reached through a proxy the test can cut): requests answer 503
 * with Retry-After within the connect timeout, never a 500 and never a hang; /readyz fails; the pool connects
 * afresh once the server is back. A statement over the statement timeout answers 503 too.
 */
describe.skipIf(process.env.ROLLCALL_TEST_ENGINE !== 'postgres')('When the database cannot be reached', () => {
  let apps: TestApp[] = [];
  let proxy: Awaited<ReturnType<typeof startTcpProxy>> | null = null;
  afterEach(async () => {
    for (const app of apps.reverse()) await app.close();
    apps = [];
    await proxy?.close();
    proxy = null;
  });

  /** An app whose connections go through a proxy to the first app's database. */
  async function behindProxy(env: Record<string, string>) {
    const direct = await startTestApp();
    const url = new URL(direct.config.databaseUrl);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
    url.port = String(proxy.port);
    const viaProxy = await startTestApp({}, env, {}, { sameDatabaseAs: { config: { ...direct.config, databaseUrl: url.toString() }, clock: direct.clock } });
    apps = [direct, viaProxy];
    return { direct, app: viaProxy };
  }

  it('answers 503 database_unavailable (Retry-After) within the connect timeout while it is down, and recovers by itself', async () => {
    const { direct, app } = await behindProxy({ DATABASE_CONNECT_TIMEOUT_MS: '500' });
    const { adminKey } = await direct.seedOrganization();
    expect((await app.request('GET', '/v1/teams/', { key: adminKey })).status).toBe(200);
    expect((await app.request('GET', '/readyz')).status).toBe(200);

    proxy!.cut();
    const started = performance.now();
    const [teams, ready] = await Promise.all([app.request('GET', '/v1/teams/', { key: adminKey }), app.request('GET', '/readyz')]);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(teams.status).toBe(503);
    expect(teams.headers.get('retry-after')).toBe('5');
    expect(teams.body).toEqual({ detail: 'The database is unavailable. Retry in 5 seconds.', code: 'database_unavailable' });
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: 'unavailable', database: 'error' });
    expect(app.logs.some((line) => line.includes('"msg":"unhandled error"'))).toBe(false);

    proxy!.restore();
    expect((await app.request('GET', '/v1/teams/', { key: adminKey })).status).toBe(200);
    expect((await app.request('GET', '/readyz')).status).toBe(200);
  });

  it('answers 503 to requests in flight when the connection drops under them', async () => {
    const { direct, app } = await behindProxy({ DATABASE_CONNECT_TIMEOUT_MS: '500' });
    const { adminKey } = await direct.seedOrganization();
    // Hold the table so the requests are on the wire, waiting, when the connections drop.
    const lock = await direct.db.transaction();
    await lock.raw('lock table teams in access exclusive mode');
    const inFlight = Array.from({ length: 5 }, () => app.request('GET', '/v1/teams/', { key: adminKey }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    proxy!.cut();
    const answers = await Promise.all(inFlight);
    await lock.rollback();
    expect(answers.map((res) => res.status)).toEqual([503, 503, 503, 503, 503]);
    proxy!.restore();
    expect((await app.request('GET', '/v1/teams/', { key: adminKey })).status).toBe(200);
  });

  it('answers 503 when a statement outlasts DATABASE_STATEMENT_TIMEOUT_MS', async () => {
    const { direct, app } = await behindProxy({ DATABASE_STATEMENT_TIMEOUT_MS: '300' });
    const { adminKey } = await direct.seedOrganization();
    const lock = await direct.db.transaction();
    await lock.raw('lock table teams in access exclusive mode');
    const started = performance.now();
    const res = await app.request('GET', '/v1/teams/', { key: adminKey });
    const waited = performance.now() - started;
    await lock.rollback();
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('database_unavailable');
    expect(waited).toBeLessThan(3000);
    expect((await app.request('GET', '/v1/teams/', { key: adminKey })).status).toBe(200);
  });
});
