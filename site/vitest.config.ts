import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Builds and a real browser: generous, but far below CI's patience.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
