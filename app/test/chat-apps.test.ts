/**
 * Admin › Chat platform in Chromium (Debian's /usr/bin/chromium through playwright-core) against a started server:
 * connecting Microsoft Teams as a bot and Google Chat as an app, and the endpoint each shows to paste.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, launchChromium } from './browser.ts';
import { ADMIN_EMAIL, startServer, startSmtpSink } from './server.ts';
import type { Running } from './server.ts';
import { CERT_FILE } from '../../api/test/receivers.ts';
import { APP_ID, APP_PASSWORD, TENANT, startTeamsStandIn } from '../../api/test/teams-stand-in.ts';
import type { TeamsStandIn } from '../../api/test/teams-stand-in.ts';
import { PROJECT, SERVICE_ACCOUNT, startGoogleChatStandIn } from '../../api/test/google-chat-stand-in.ts';
import type { GoogleChatStandIn } from '../../api/test/google-chat-stand-in.ts';

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let teams: TeamsStandIn;
let chat: GoogleChatStandIn;
let server: Running;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  sink = await startSmtpSink();
  teams = await startTeamsStandIn();
  chat = await startGoogleChatStandIn();
  server = await startServer(sink.url, { ALLOW_PRIVATE_WEBHOOKS: 'true', NODE_EXTRA_CA_CERTS: CERT_FILE, GOOGLE_CHAT_WEBHOOK_BASE_URL: `${chat.url}/v1/spaces/`, ...teams.env, ...chat.env });
  browser = await launchChromium();
  page = await (await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 860 } })).newPage();
  await page.goto(`${server.url}/app/`);
  await page.getByLabel(/Work e-mail/).fill(ADMIN_EMAIL);
  const before = sink.messages.length;
  await page.getByRole('button', { name: /E-mail me a code/ }).click();
  await page.getByLabel(/Six-digit code/).fill(await sink.codeFor(ADMIN_EMAIL, before));
  await page.getByRole('button', { name: /^Sign in$/ }).click();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await sink?.close();
  await teams?.close();
  await chat?.close();
});

describe('Admin › Chat platform: Teams as a bot, Google Chat as an app', () => {
  it('connects each, says people can answer there, and shows the URL to paste', async () => {
    await page.getByRole('link', { name: 'Admin', exact: true }).click();
    const section = page.getByRole('region', { name: 'Chat platform' });
    await section.getByText('No chat platform is connected.').waitFor();

    await section.getByLabel('Platform').selectOption('microsoft_teams');
    await section.getByRole('radio', { name: /A bot/ }).check();
    await section.getByLabel(/^Microsoft App ID/).fill(APP_ID);
    await section.getByLabel(/^Client secret/).fill(APP_PASSWORD);
    await section.getByLabel(/^Tenant ID/).fill(TENANT);
    await section.getByRole('button', { name: 'Connect' }).click();
    await section.getByText('Connected to Microsoft Teams.').waitFor();
    await section.getByText('People can answer in Microsoft Teams.').waitFor();
    await section.getByText(`${server.url}/v1/integrations/teams/messages/`, { exact: true }).waitFor();
    expect(await axe(page)).toEqual([]);
    expect((await server.api('GET', '/v1/integrations/')).workspace).toBe(TENANT);

    await section.getByLabel('Platform').selectOption('google_chat');
    await section.getByLabel('Service-account key file (JSON)').fill(SERVICE_ACCOUNT);
    await section.getByLabel('Google Cloud project number').fill(PROJECT);
    await section.getByRole('button', { name: 'Replace the connection' }).click();
    await section.getByText('Connected to Google Chat.').waitFor();
    await section.getByText('People can answer in Google Chat.').waitFor();
    await section.getByText(`${server.url}/v1/integrations/google-chat/events/`, { exact: true }).waitFor();

    // An incoming webhook instead: it posts, and the screen says people cannot answer there.
    await section.getByRole('radio', { name: /An incoming webhook/ }).check();
    await section.getByLabel('Incoming-webhook URL').fill(`${chat.url}/v1/spaces/AAA/messages?key=k&token=t`);
    await section.getByRole('button', { name: 'Replace the connection' }).click();
    await section.getByText(/^People cannot answer in this platform yet\. Connected with an incoming webhook/).waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await axe(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  }, 180_000);
});
