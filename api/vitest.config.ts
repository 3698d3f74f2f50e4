import { defineConfig } from 'vitest/config';

const include = ['src/**/*.test.ts', 'test/**/*.test.ts'];

/**
 * Two projects: every test on SQLite, and, when TEST_DATABASE_URL names a PostgreSQL server (`.ci/run` starts
 * one), the same tests again with each test app on a fresh PostgreSQL database (test/database.ts). Left out of
 * the PostgreSQL run: the tests that start `rollcall` processes on a data directory (SQLite by construction)
 * and the SQLite connection's and WAL checkpointer's own tests.
 */
export default defineConfig({
  test: {
    pool: 'forks',
    // Migrates one database per project and run; test apps start on copies of it (test/database-template.ts).
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The CI machine has two cores; more workers only contend for them.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'sqlite', include, env: { ROLLCALL_TEST_ENGINE: 'sqlite' } } },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include,
                exclude: ['test/cli.test.ts', 'test/cli-client.test.ts', 'src/client/terminal.test.ts', 'test/backup.test.ts', 'test/docs.test.ts', 'test/node-version.test.ts', 'test/crash.test.ts', 'test/attachment-streaming.test.ts', 'test/dockerfile.test.ts', 'test/startup.test.ts', 'src/db/connection.test.ts', 'src/db/checkpointer.test.ts'],
                env: { ROLLCALL_TEST_ENGINE: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
