/**
 * Real headless Chromium (Debian's /usr/bin/chromium through playwright-core) against the built site served
 * by our own static server, so headers and 404s are what a host would send. Never downloads a browser: when
 * Chromium is missing the test fails, because CI installs it (.ci/run) and a skipped browser test hides bugs.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { startServer, type RunningServer } from '../server/serve.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Site {
  server: RunningServer;
  browser: Browser;
  close(): Promise<void>;
}

export async function openSite(dir: string): Promise<Site> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}. Install it with: apt-get install -y chromium (or set CHROMIUM_PATH).`);
  }
  const server = await startServer({ dir, port: 0 });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  return {
    server,
    browser,
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}
