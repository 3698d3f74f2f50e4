import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/sequencer.ts';

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
    // One worker process runs file after file of its project, loading the app's modules once (about 5 s of CPU
    // per file otherwise: the test files measured 505 CPU-seconds isolated, 124 not). Every test starts apps of
    // its own on databases of their own (test/harness.ts); what a file must not leave behind for the next one
    // is listed in docs/architecture.md, "Tests and their time".
    isolate: false,
    sequence: { sequencer: SlowFirstSequencer },
    // Migrates one database per project and run; test apps start on copies of it (test/database-template.ts).
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The CI machine has two cores; more workers only contend for them.
    maxWorkers: 2,
    // Node's compile cache for the test processes and the `rollcall` processes tests start (which inherit it), as
    // bin/rollcall.js turns it on for users: a server starts on about 1 s less CPU.
    env: { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? path.join(os.tmpdir(), 'node-compile-cache') },
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
