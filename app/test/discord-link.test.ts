/**
 * Discord in the web app, in Chromium (Debian's /usr/bin/chromium through playwright-core) against a started
 * server: Admin › Chat platform connects Discord as a bot and shows the interactions URL to paste; then the page
 * `/rollcall link` answers with (/app/link/<token>) links the Discord account to the signed-in person. Axe-clean at
 * 1280 and 390 px.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, launchChromium } from './browser.ts';
import { ADMIN_EMAIL, startServer, startSmtpSink } from './server.ts';
import type { Running } from './server.ts';
import { CERT_FILE } from '../../api/test/receivers.ts';
import { APPLICATION_ID, DISCORD_TOKEN, commandData, discordKeys, interactionBody, signedHeaders, startDiscordStandIn } from '../../api/test/discord-stand-in.ts';
import type { DiscordStandIn } from '../../api/test/discord-stand-in.ts';

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let discord: DiscordStandIn;
let server: Running;
let browser: Browser;
let page: Page;
const keys = discordKeys();
const USER = '1200000000000000042';

beforeAll(async () => {
  sink = await startSmtpSink();
  discord = await startDiscordStandIn();
  server = await startServer(sink.url, { ALLOW_PRIVATE_WEBHOOKS: 'true', NODE_EXTRA_CA_CERTS: CERT_FILE, DISCORD_API_URL: discord.api });
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
  await discord?.close();
});

describe('Discord: connected in Admin, an account linked from /rollcall link', () => {
  it('connects Discord as a bot and shows the interactions URL to paste', async () => {
    await page.getByRole('link', { name: 'Admin', exact: true }).click();
    const section = page.getByRole('region', { name: 'Chat platform' });
    await section.getByText('No chat platform is connected.').waitFor();
    await section.getByLabel('Platform').selectOption('discord');
    await section.getByRole('radio', { name: /A bot/ }).check();
    await section.getByLabel(/^Bot token/).fill(DISCORD_TOKEN);
    await section.getByLabel(/^Application ID/).fill(APPLICATION_ID);
    await section.getByLabel(/^Public key/).fill(keys.publicKeyHex);
    await section.getByRole('button', { name: 'Connect' }).click();
    await section.getByText('Connected to Discord.').waitFor();
    await section.getByText('People can answer in Discord.').waitFor();
    await section.getByText(`${server.url}/v1/integrations/discord/interactions/`, { exact: true }).waitFor();
    expect(await axe(page)).toEqual([]);
    expect((await server.api('GET', '/v1/integrations/')).workspace).toBe(APPLICATION_ID);
  }, 180_000);

  it('the link /rollcall link gives links the Discord account to the signed-in person', async () => {
    const raw = interactionBody(2, USER, commandData('link'));
    const res = await fetch(`${server.url}/v1/integrations/discord/interactions/`, { method: 'POST', headers: signedHeaders(keys, raw, Date.now() / 1000), body: raw });
    const answer = (await res.json()) as { data: { content: string } };
    const token = /\/app\/link\/([A-Za-z0-9]{32})/.exec(answer.data.content)![1];
    await page.goto(`${server.url}/app/link/${token}`);
    await page.getByRole('heading', { name: 'Link your chat account' }).waitFor();
    await page.getByText(`You are signed in as ${ADMIN_EMAIL}.`, { exact: false }).waitFor();
    expect(await axe(page)).toEqual([]);
    await page.getByRole('button', { name: 'Link it to me' }).click();
    await page.getByText(`Linked ✓ Your Discord account user042 is now yours in Rollcall`, { exact: false }).waitFor();
    expect(await axe(page)).toEqual([]);
    expect((await server.api('GET', '/v1/me/chat-accounts/')).results).toMatchObject([{ platform: 'discord', external_id: USER, name: 'user042' }]);

    // The same link again, on a phone: it worked once.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/app/link/${token}`);
    await page.getByRole('button', { name: 'Link it to me' }).click();
    await page.getByText(/^This link is not valid any more/).waitFor();
    expect(await axe(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  }, 180_000);
});
