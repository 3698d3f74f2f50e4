/**
 * The web app in Chromium (Debian's /usr/bin/chromium through playwright-core) against a started server on
 * SQLite: two people, Ada in English at desktop width and Mia in Spanish at 390 px, each signing in with the
 * code the local SMTP sink receives. axe-core checks every screen; SCREENSHOTS=1 writes the help articles'
 * screenshots (site/public/help/app/).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, launchChromium } from './browser.ts';
import { ADMIN_EMAIL, REPO, startServer, startSmtpSink } from './server.ts';
import type { Running } from './server.ts';
import { CERT_FILE } from '../../api/test/receivers.ts';
import { SIGNING_SECRET, SLACK_TOKEN, interactionBody, slackHeaders, startSlackStandIn, submitPayload, textValue } from '../../api/test/slack-stand-in.ts';
import type { SlackStandIn } from '../../api/test/slack-stand-in.ts';

const SHOTS = path.join(REPO, 'site/public/help/app');

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let slack: SlackStandIn;
let server: Running;
let browser: Browser;
let ada: BrowserContext;
let mia: BrowserContext;
let adaPage: Page;
let miaPage: Page;
const ids: Record<string, string> = {};

async function shot(page: Page, name: string): Promise<void> {
  if (!process.env.SCREENSHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** Signs in through the app's own form with the code the SMTP sink received. */
async function signIn(page: Page, email: string, labels: { email: RegExp; send: RegExp; code: RegExp; verify: RegExp }) {
  await page.goto(`${server.url}/app/`);
  await page.getByLabel(labels.email).fill(email);
  const before = sink.messages.length;
  await page.getByRole('button', { name: labels.send }).click();
  await page.getByLabel(labels.code).fill(await sink.codeFor(email, before));
  await page.getByRole('button', { name: labels.verify }).click();
}

beforeAll(async () => {
  sink = await startSmtpSink();
  // Slack is the tests' stand-in of its Web API (HTTPS with the test certificate).
  slack = await startSlackStandIn();
  server = await startServer(sink.url, { ALLOW_PRIVATE_WEBHOOKS: 'true', SLACK_API_URL: slack.api, NODE_EXTRA_CA_CERTS: CERT_FILE, DELIVERY_POLL_MS: '100' });
  const org = await server.api('GET', '/v1/organization/');
  const me = await server.api('GET', '/v1/me/');
  ids.ada = me.uuid;
  await server.api('PATCH', `/v1/users/${me.uuid}/`, { first_name: 'Ada', last_name: 'Admin' });
  ids.mia = server.admin('user', 'create', '--org', org.uuid, '--email', 'mia@acme.test', '--first-name', 'Mia', '--last-name', 'Member').uuid;
  const checkin = await server.api('POST', '/v1/checkins/create/', {
    name: 'Daily', schedule: { days: [0, 1, 2, 3, 4, 5, 6], time: '09:00', timezone: 'UTC' }, participants: { user_uuids: [ids.ada, ids.mia] },
    questions: [{ question_type: 'text', question: 'What did you do?' }, { question_type: 'text', question: 'Anything blocking?', is_blocker: true, required: false }],
  });
  ids.checkin = checkin.uuid;
  ids.value = (await server.api('POST', '/v1/company-values/', { value: 'Ownership', emoji: '🦉' })).uuid;
  // An agent's report co-authored with Mia lands in her stand-up for today.
  await server.api('POST', '/v1/agent-reports/', { agent_name: 'deploy-bot', content: 'Deployed v2 to production', co_authors: [ids.mia] });

  browser = await launchChromium();
  ada = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 860 } });
  mia = await browser.newContext({ locale: 'es-ES', viewport: { width: 390, height: 844 }, colorScheme: 'dark', isMobile: true, hasTouch: true });
  adaPage = await ada.newPage();
  miaPage = await mia.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await sink?.close();
  await slack?.close();
});

describe('the web app', () => {
  it('signs in with the e-mailed code into an HttpOnly, SameSite=Strict cookie no script can read; the page has a strict CSP', async () => {
    const first = await adaPage.goto(`${server.url}/app/`);
    const csp = first!.headers()['content-security-policy'];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(await axe(adaPage)).toEqual([]);
    await shot(adaPage, 'sign-in-en');

    await signIn(adaPage, ADMIN_EMAIL, { email: /Work e-mail/, send: /E-mail me a code/, code: /Six-digit code/, verify: /^Sign in$/ });
    await adaPage.getByRole('heading', { name: 'Hello, Ada' }).waitFor();
    const [cookie] = (await ada.cookies()).filter((c) => c.name === 'rollcall_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/v1/', secure: false });
    expect(cookie.value).toMatch(/^rct_[0-9A-Za-z]{48}$/);
    const visible = await adaPage.evaluate(() => ({ cookie: document.cookie, storage: JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) }));
    expect(visible.cookie).not.toContain('rct_');
    expect(visible.storage).not.toContain('rct_');

    await signIn(miaPage, 'mia@acme.test', { email: /Correo del trabajo/, send: /Enviarme un código/, code: /Código de seis dígitos/, verify: /^Entrar$/ });
    await miaPage.getByRole('heading', { name: 'Hola, Mia' }).waitFor();
    await miaPage.getByRole('link', { name: 'Tableros' }).waitFor();
  });

  it('refuses a write with the session cookie from another origin (403 cross_origin_request), and takes it from the app', async () => {
    const foreign = await ada.request.post(`${server.url}/v1/teams/`, { data: { name: 'Evil' }, headers: { origin: 'https://evil.example' } });
    expect(foreign.status()).toBe(403);
    expect((await foreign.json()).code).toBe('cross_origin_request');
    // The same write from the app's own page goes through (the browser sends its Origin).
    const own = await adaPage.evaluate(async () => {
      const res = await fetch('/v1/teams/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Core' }) });
      return res.status;
    });
    expect(own).toBe(201);
  });

  it("answers today's check-in in place and sees it in the team's stand-up, the agent's co-authored part marked", async () => {
    const form = adaPage.getByRole('form', { name: 'Daily' });
    await form.getByLabel('What did you do?').fill('Reviewed the **release** notes');
    await form.getByLabel(/Anything blocking/).fill('Waiting on the design review');
    await shot(adaPage, 'today-en');
    await form.getByRole('button', { name: 'Send my answer' }).click();
    await adaPage.getByText('Your answer to Daily is saved.').waitFor();
    const standups = adaPage.getByRole('region', { name: 'Team stand-ups' });
    const mine = standups.getByRole('listitem').filter({ hasText: 'Ada Admin' });
    await mine.locator('strong', { hasText: 'release' }).waitFor();
    await mine.getByText('Blocker').waitFor();
    const hers = standups.getByRole('listitem').filter({ hasText: 'Mia Member' });
    await hers.locator('.coauthored', { hasText: 'Deployed v2 to production' }).getByText('Co-authored with deploy-bot').waitFor();
    const stored = await server.api('GET', `/v1/checkins/${ids.checkin}/responses/?user=${ids.ada}`);
    expect(stored.results[0].responses.map((r: { response: string }) => r.response)).toEqual(['Reviewed the **release** notes', 'Waiting on the design review']);
    // Beside the stand-ups, the check-in's open blockers: who, what, for how long; an admin gets a Resolve button.
    const blockers = adaPage.getByRole('region', { name: 'Open blockers in Daily' });
    const adaBlocker = blockers.getByRole('listitem').filter({ hasText: 'Ada Admin' });
    await adaBlocker.getByText('Waiting on the design review').waitFor();
    await adaBlocker.getByText('(opened today)').waitFor();
    const resolveAda = blockers.getByRole('button', { name: 'Resolve the blocker “Waiting on the design review” (Ada Admin)' });
    await resolveAda.waitFor();
    expect(await axe(adaPage)).toEqual([]);

    // Mia, in Spanish at 390 px: the agent's report already answered her day, marked as its part. A member who
    // takes part reads the team's answers (as the team report shows them), Ada's too, with no note.
    await miaPage.reload();
    await miaPage.getByText('Nada que responder hoy.').waitFor();
    const herStandups = miaPage.getByRole('region', { name: 'Reuniones diarias del equipo' });
    await herStandups.getByText('Coescrito con deploy-bot').first().waitFor();
    await herStandups.getByText('Waiting on the design review').waitFor();
    expect(await herStandups.getByText('Este check-in es privado').count()).toBe(0);
    // A member reads the team's open blockers too, but only admins and managers resolve someone else's.
    const herBlockers = miaPage.getByRole('region', { name: 'Bloqueos abiertos en Daily' });
    await herBlockers.getByRole('listitem').filter({ hasText: 'Ada Admin' }).getByText('Waiting on the design review').waitFor();
    await herBlockers.getByText('(abierto hoy)').waitFor();
    expect(await herBlockers.getByRole('button').count()).toBe(0);
    expect(await axe(miaPage)).toEqual([]);
    await shot(miaPage, 'today-es-390');

    // A private check-in: the API gives Mia only her own answers, and the page says so.
    await server.api('PATCH', `/v1/checkins/${ids.checkin}/config/`, { privacy: 'private' });
    await miaPage.reload();
    await herStandups.getByText('Este check-in es privado').waitFor();
    await herStandups.getByText('Coescrito con deploy-bot').first().waitFor();
    expect(await herStandups.getByText('Waiting on the design review').count()).toBe(0);
    await herBlockers.getByText('No hay bloqueos abiertos.').waitFor();
    await server.api('PATCH', `/v1/checkins/${ids.checkin}/config/`, { privacy: null });

    // Ada resolves her blocker from the list: it leaves it, and the API has it resolved by her.
    await resolveAda.click();
    await blockers.getByRole('status').getByText('Blocker “Waiting on the design review” resolved.').waitFor();
    await blockers.getByText('No open blockers.').waitFor();
    const resolved = await server.api('GET', `/v1/checkins/${ids.checkin}/blockers/?state=resolved`);
    expect(resolved.results.map((b: { text: string; resolved_by: { uuid: string } }) => [b.text, b.resolved_by.uuid])).toEqual([['Waiting on the design review', ids.ada]]);
    expect(await axe(adaPage)).toEqual([]);
  });

  it('gives kudos with a company value', async () => {
    const kudos = adaPage.getByRole('region', { name: 'Kudos' });
    await kudos.getByLabel('To').selectOption({ label: 'Mia Member' });
    await kudos.getByLabel('Company value').selectOption({ label: '🦉 Ownership' });
    await kudos.getByLabel('Message').fill('Thanks for the smoke tests');
    await kudos.getByRole('button', { name: 'Send kudos' }).click();
    await kudos.getByText('Kudos sent.').waitFor();
    await kudos.getByRole('tab', { name: 'Given', selected: true }).waitFor();
    await kudos.getByText('Thanks for the smoke tests').waitFor();
    const given = await server.api('GET', '/v1/kudos/?filter=kudos_given');
    expect(given.results[0]).toMatchObject({ content: 'Thanks for the smoke tests', receivers: [{ uuid: ids.mia }] });

    // Mia, in Spanish at 390 px, sees it received and gives one back.
    await miaPage.reload();
    const hers = miaPage.getByRole('region', { name: 'Reconocimientos' });
    await hers.getByText('Thanks for the smoke tests').waitFor();
    await hers.getByLabel('Para').selectOption({ label: 'Ada Admin' });
    await hers.getByLabel('Valor de la empresa').selectOption({ label: '🦉 Ownership' });
    await hers.getByLabel('Mensaje').fill('¡Gracias por la revisión!');
    await hers.getByRole('button', { name: 'Enviar reconocimiento' }).click();
    await hers.getByText('Reconocimiento enviado.').waitFor();
    expect((await server.api('GET', '/v1/kudos/?filter=kudos_received')).results[0]).toMatchObject({ content: '¡Gracias por la revisión!' });
    expect(await axe(miaPage)).toEqual([]);
  });

  it('creates a board and tasks; a task dragged to another column moves for the second person through the delta feed', async () => {
    await adaPage.getByRole('link', { name: 'Boards' }).click();
    await adaPage.getByLabel('Name').fill('Launch');
    await adaPage.getByLabel('Key', { exact: true }).fill('LNC');
    await adaPage.getByRole('button', { name: 'Create board' }).click();
    await adaPage.getByRole('heading', { name: /LNC Launch/ }).waitFor();
    ids.board = /boards\/([0-9a-f-]{36})\//.exec(adaPage.url())![1];
    for (const title of ['Write the notes', 'Ship it', 'Tell the team']) {
      await adaPage.getByRole('textbox', { name: 'Add a task to Todo' }).fill(title);
      await adaPage.getByRole('textbox', { name: 'Add a task to Todo' }).press('Enter');
      await adaPage.locator('.task-card', { hasText: title }).waitFor();
    }
    const board = await server.api('GET', `/v1/plan/boards/${ids.board}/board/`);
    const state = (name: string) => board.states.find((s: { name: string }) => s.name === name).uuid;
    ids.todo = state('Todo');
    ids.doing = state('In Progress');
    // Mia is a member of the board (a board's people see it), and opens it on her phone.
    await server.api('POST', `/v1/plan/boards/${ids.board}/members/`, { user: ids.mia, role: 'member' });
    await miaPage.goto(`${server.url}/app/boards/${ids.board}/`);
    await miaPage.locator('.task-card', { hasText: 'Write the notes' }).waitFor();
    expect(await axe(adaPage)).toEqual([]);
    expect(await axe(miaPage)).toEqual([]);

    const card = adaPage.locator('.task-card', { hasText: 'Write the notes' });
    const target = adaPage.locator(`ol.cards[data-state="${ids.doing}"]`);
    await drag(adaPage, card, target);
    await adaPage.locator(`ol.cards[data-state="${ids.doing}"] .task-card`, { hasText: 'Write the notes' }).waitFor();
    // The other person sees it move without reloading (the board polls its delta feed every second).
    await miaPage.locator(`ol.cards[data-state="${ids.doing}"] .task-card`, { hasText: 'Write the notes' }).waitFor({ timeout: 5000 });
    const moved = await server.api('GET', '/v1/plan/tasks/LNC-1/');
    expect(moved.state).toBe(ids.doing);
    await shot(adaPage, 'board-en');
    await shot(miaPage, 'board-es-390');

    // Reordering within a column: drop "Tell the team" above "Ship it".
    await drag(adaPage, adaPage.locator('.task-card', { hasText: 'Tell the team' }), adaPage.locator('.task-card', { hasText: 'Ship it' }), 'top');
    await expect.poll(async () => (await server.api('GET', `/v1/plan/boards/${ids.board}/tasks/?state=${ids.todo}`)).results.map((x: { key: string }) => x.key)).toEqual(['LNC-3', 'LNC-2']);
    await expect.poll(() => miaPage.locator(`ol.cards[data-state="${ids.todo}"] .task-card`).evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.key))).toEqual(['LNC-3', 'LNC-2']);

    // Keyboard: Alt+→ moves the focused card to the next column.
    await adaPage.locator('.task-card', { hasText: 'Ship it' }).getByRole('link').focus();
    await adaPage.keyboard.press('Alt+ArrowRight');
    await expect.poll(async () => (await server.api('GET', '/v1/plan/tasks/LNC-2/')).state).toBe(ids.doing);

    // Mia, in Spanish at 390 px, moves a card with the keyboard; Ada sees it move.
    await miaPage.locator('.task-card', { hasText: 'Tell the team' }).getByRole('link').focus();
    await miaPage.keyboard.press('Alt+ArrowRight');
    await adaPage.locator(`ol.cards[data-state="${ids.doing}"] .task-card`, { hasText: 'Tell the team' }).waitFor({ timeout: 5000 });
    await miaPage.getByRole('textbox', { name: 'Añadir una tarea a Todo' }).fill('Preparar la demo');
    await miaPage.getByRole('textbox', { name: 'Añadir una tarea a Todo' }).press('Enter');
    await adaPage.locator('.task-card', { hasText: 'Preparar la demo' }).waitFor({ timeout: 5000 });
  });

  it('a version conflict shows the newer task and keeps what the person typed', async () => {
    await adaPage.locator('.task-card', { hasText: 'Ship it' }).getByRole('link').click();
    const detail = adaPage.getByRole('complementary', { name: /LNC-2/ });
    await detail.getByLabel('Title').waitFor();
    // Someone else saves the task meanwhile.
    await server.api('PATCH', '/v1/plan/tasks/LNC-2/', { title: 'Ship it today' });
    await detail.getByLabel('Title').fill('Ship it on Friday');
    await detail.getByLabel('Description (Markdown)').fill('After the notes are out.');
    await detail.getByRole('button', { name: 'Save', exact: true }).click();
    const conflict = detail.getByRole('alert');
    await conflict.getByText(/Someone saved this task while you were editing it/).waitFor();
    await conflict.getByText('Title: Ship it today').waitFor();
    expect(await detail.getByLabel('Title').inputValue()).toBe('Ship it on Friday');
    expect(await detail.getByLabel('Description (Markdown)').inputValue()).toBe('After the notes are out.');
    await shot(adaPage, 'conflict-en');
    await conflict.getByRole('button', { name: 'Save mine over theirs' }).click();
    await detail.getByText('Saved.').waitFor();
    const saved = await server.api('GET', '/v1/plan/tasks/LNC-2/');
    expect(saved).toMatchObject({ title: 'Ship it on Friday', description: 'After the notes are out.' });
    expect(await axe(adaPage)).toEqual([]);
  });

  it('renders a stored XSS attempt in a task title and a comment as text: no script runs; attaches a file', async () => {
    const attack = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';
    const task = await server.api('POST', `/v1/plan/boards/${ids.board}/tasks/`, { title: attack });
    await server.api('POST', `/v1/plan/tasks/${task.uuid}/comments/`, {
      body: `Look: ${attack} <svg onload="window.__xss=3"></svg> [click me](javascript:window.__xss=4) <a href="javascript:window.__xss=5">x</a>`,
    });
    const violations: string[] = [];
    adaPage.on('console', (m) => m.text().includes('Content Security Policy') && violations.push(m.text()));
    await adaPage.goto(`${server.url}/app/boards/${ids.board}/tasks/${task.key}/`);
    const detail = adaPage.getByRole('complementary');
    await detail.locator('.comment-body').waitFor();
    // The title is text, exactly as typed; the comment kept its words and lost every active part.
    await adaPage.locator('.task-card', { hasText: '<img src=x onerror=' }).waitFor();
    expect(await detail.getByLabel('Title').inputValue()).toBe(attack);
    const comment = detail.locator('.comment-body');
    expect(await comment.locator('img, script, svg, iframe, [onerror], [onload]').count()).toBe(0);
    const hrefs = await comment.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs.filter((h) => h && /^javascript:/i.test(h))).toEqual([]);
    await comment.locator('a', { hasText: 'click me' }).click().catch(() => undefined);
    expect(await adaPage.evaluate(() => (window as any).__xss)).toBeUndefined();
    expect(await comment.innerText()).toContain('Look:');

    // A file attached to the task through the app (presign, PUT, confirm), then listed with its download link.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    await detail.getByLabel('Attach a file').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png });
    await detail.getByRole('link', { name: 'dot.png' }).waitFor();
    const files = await server.api('GET', `/v1/plan/tasks/${task.uuid}/attachments/`);
    expect(files.results).toMatchObject([{ filename: 'dot.png', status: 'ready', size: png.length }]);
  });
});

describe('admin', () => {
  it('creates an API key shown once and revokes it; a check-in from a template; a webhook; the chat platform; invites someone; deactivating a person ends their session', async () => {
    await adaPage.goto(`${server.url}/app/`);
    await adaPage.getByRole('link', { name: 'Admin' }).click();
    await adaPage.getByRole('heading', { name: 'API keys' }).waitFor();
    await adaPage.getByLabel('New key name').fill('ci deploys');
    await adaPage.getByRole('button', { name: 'Create key' }).click();
    const secret = (await adaPage.locator('.fresh-key code').innerText()).trim();
    expect(secret).toMatch(/^rk_[0-9A-Za-z]{40}$/);
    expect((await fetch(`${server.url}/v1/me/`, { headers: { 'x-api-key': secret } })).status).toBe(200);
    expect(await axe(adaPage)).toEqual([]);
    await shot(adaPage, 'admin-en');
    // Shown once: after a reload only its last four characters are left.
    await adaPage.reload();
    await adaPage.getByRole('cell', { name: 'ci deploys', exact: true }).waitFor();
    expect(await adaPage.content()).not.toContain(secret);
    await adaPage.getByRole('cell', { name: `••••••••${secret.slice(-4)}` }).waitFor();
    adaPage.once('dialog', (dialog) => void dialog.accept());
    await adaPage.getByRole('button', { name: 'Revoke ci deploys' }).click();
    await adaPage.getByRole('cell', { name: 'ci deploys', exact: true }).waitFor({ state: 'detached' });
    expect((await fetch(`${server.url}/v1/me/`, { headers: { 'x-api-key': secret } })).status).toBe(401);

    // A check-in from a template, for Ada and Mia, on weekdays at 10:00 in Bogotá (Check-ins, beside Admin).
    await adaPage.getByRole('link', { name: 'Check-ins', exact: true }).click();
    const form = adaPage.getByRole('region', { name: 'New check-in' });
    await form.getByLabel('Name', { exact: true }).fill('Weekly retro');
    await form.getByLabel('Template').selectOption({ index: 0 });
    await form.getByLabel('Time', { exact: true }).fill('10:00');
    await form.getByLabel('Time zone').selectOption('America/Bogota');
    await form.getByRole('group', { name: 'Who takes part' }).getByLabel('Ada Admin').check();
    await form.getByRole('group', { name: 'Who takes part' }).getByLabel('Mia Member').check();
    await form.getByRole('button', { name: 'Create check-in' }).click();
    await form.getByText('Check-in "Weekly retro" created.').waitFor();
    const retro = (await server.api('GET', '/v1/checkins/')).results.find((c: { name: string }) => c.name === 'Weekly retro');
    expect(retro).toMatchObject({ participants_count: 2, schedule: { days: [1, 2, 3, 4, 5], time: '10:00', timezone: 'America/Bogota' } });
    expect((await server.api('GET', `/v1/checkins/${retro.uuid}/detail/`)).questions.length).toBeGreaterThan(0);

    // A webhook, then removed.
    await adaPage.getByRole('link', { name: 'Admin' }).click();
    const hooks = adaPage.getByRole('region', { name: 'Webhooks' });
    await hooks.getByLabel('HTTPS address').fill('https://127.0.0.1:9/rollcall');
    await hooks.getByLabel('kudos.posted').check();
    await hooks.getByRole('button', { name: 'Add webhook' }).click();
    await hooks.getByText('https://127.0.0.1:9/rollcall').waitFor();
    expect((await server.api('GET', '/v1/webhook-subscription/')).results[0].subscriptions).toEqual(['followups.response.completed', 'kudos.posted']);
    expect(await axe(adaPage)).toEqual([]);
    await hooks.getByRole('button', { name: 'Remove the webhook https://127.0.0.1:9/rollcall' }).click();
    await hooks.getByText('https://127.0.0.1:9/rollcall').waitFor({ state: 'detached' });

    // The chat platform: Slack with a bot token only (sealed by the API, never shown again): it sends, but people
    // cannot answer there, and the screen says so.
    const chat = adaPage.getByRole('region', { name: 'Chat platform' });
    await chat.getByText('No chat platform is connected.').waitFor();
    await chat.getByLabel('Bot token (xoxb-…)').fill(SLACK_TOKEN);
    await chat.getByRole('button', { name: 'Connect' }).click();
    await chat.getByText('Connected to Slack.').waitFor();
    await chat.getByText('People cannot answer in this platform yet. No signing secret').waitFor();
    expect((await server.api('GET', '/v1/organization/')).platform).toBe('slack');
    expect(await chat.getByLabel('Bot token (xoxb-…)').inputValue()).toBe('');
    // With the signing secret: the URLs to paste (this server is not https: the screen says Slack needs it),
    // the manifest, the people Slack does not know, and a test prompt to oneself.
    await chat.getByLabel('Bot token (xoxb-…)').fill(SLACK_TOKEN);
    await chat.getByLabel(/^Signing secret/).fill(SIGNING_SECRET);
    await chat.getByRole('button', { name: 'Replace the connection' }).click();
    await chat.getByText('People can answer in Slack.').waitFor();
    await chat.getByText(`${server.url}/v1/integrations/slack/interactions/`, { exact: true }).waitFor();
    await chat.getByText(/Slack calls only https URLs it can reach/).waitFor();
    await chat.getByText('App manifest', { exact: true }).click();
    expect(await chat.locator('pre.manifest').innerText()).toContain(`"request_url": "${server.url}/v1/integrations/slack/events/"`);
    await chat.getByText('Everyone asked so far was found.').waitFor();
    const adaInSlack = slack.addUser(ADMIN_EMAIL);
    await chat.getByRole('button', { name: 'Send a test prompt to me' }).click();
    await chat.getByText(`A test prompt is on its way to ${ADMIN_EMAIL} in Slack. Answering it saves nothing.`).waitFor();
    for (let i = 0; i < 100 && slack.calls('chat.postMessage').length === 0; i++) await adaPage.waitForTimeout(100);
    expect(slack.calls('chat.postMessage')[0].json.blocks[2].elements[0].value).toMatch(/^t:/);
    // An answer given in Slack's form (as Slack posts it, signed) is the web app's answer too.
    const [done, blocking] = (await server.api('GET', `/v1/checkins/${ids.checkin}/detail/`)).questions;
    const modal = { private_metadata: JSON.stringify({ c: ids.checkin, d: new Date().toISOString().slice(0, 10) }) };
    const raw = interactionBody(submitPayload(adaInSlack, modal, { [`q.${done.uuid}`]: textValue('Answered in Slack'), [`q.${blocking.uuid}`]: textValue(null) }));
    const submitted = await fetch(`${server.url}/v1/integrations/slack/interactions/`, { method: 'POST', headers: slackHeaders(raw, Date.now() / 1000), body: raw });
    expect(await submitted.json()).toEqual({ response_action: 'clear' });
    await adaPage.getByRole('link', { name: 'Today', exact: true }).click();
    await adaPage.getByRole('region', { name: 'Team stand-ups' }).getByText('Answered in Slack').waitFor();
    await adaPage.getByRole('link', { name: 'Admin' }).click();
    // Mia has no Slack account with her address: a message to her finds nobody, and the screen lists her.
    await server.api('POST', '/v1/send-message/', { message: 'Hello', target_users: [ids.mia] });
    for (let i = 0; i < 100 && slack.calls('users.lookupByEmail').length < 2; i++) await adaPage.waitForTimeout(100);
    await adaPage.waitForTimeout(300);
    await adaPage.reload();
    await adaPage.getByRole('region', { name: 'Chat platform' }).getByText('mia@acme.test').waitFor();
    expect(await axe(adaPage)).toEqual([]);
    await shot(adaPage, 'admin-chat-en');
    await adaPage.setViewportSize({ width: 390, height: 844 });
    expect(await axe(adaPage)).toEqual([]);
    // Nothing wider than the phone: long URLs wrap, wide tables scroll inside themselves.
    expect(await adaPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await adaPage.setViewportSize({ width: 1280, height: 860 });
    await adaPage.getByRole('region', { name: 'Chat platform' }).getByRole('button', { name: 'Disconnect' }).click();
    await adaPage.getByRole('region', { name: 'Chat platform' }).getByText('No chat platform is connected.').waitFor();
    expect((await server.api('GET', '/v1/organization/')).platform).toBeNull();

    // Mattermost: the server's URL, the bot account's token and the /rollcall command's token; the command's URL
    // to paste is shown, and people can answer there.
    const mm = adaPage.getByRole('region', { name: 'Chat platform' });
    await mm.getByLabel('Platform').selectOption('mattermost');
    await mm.getByLabel('Mattermost server URL').fill('https://127.0.0.1:9');
    await mm.getByLabel(/^Bot account token/).fill('mmbottoken0000000000000001');
    await mm.getByLabel(/^Slash command token/).fill('mmcommandtoken000000000001');
    await mm.getByRole('button', { name: 'Connect' }).click();
    await mm.getByText('Connected to Mattermost.').waitFor();
    await mm.getByText('People can answer in Mattermost.').waitFor();
    await mm.getByText(`${server.url}/v1/integrations/mattermost/commands/`, { exact: true }).waitFor();
    expect(await mm.getByLabel(/^Slash command token/).inputValue()).toBe('');
    expect(await axe(adaPage)).toEqual([]);
    expect((await server.api('GET', '/v1/integrations/')).platform).toBe('mattermost');
    await mm.getByRole('button', { name: 'Disconnect' }).click();
    await mm.getByText('No chat platform is connected.').waitFor();

    await adaPage.getByLabel('E-mail', { exact: true }).fill('otto@acme.test');
    await adaPage.getByRole('button', { name: 'Send invitation' }).click();
    await adaPage.getByText('Invitation sent to otto@acme.test.').waitFor();

    // Mia is on the board; once deactivated, her next request ends her session and the app asks her to sign in.
    await adaPage.getByRole('button', { name: 'Deactivate Mia Member' }).click();
    await adaPage.getByRole('button', { name: 'Reactivate Mia Member' }).waitFor();
    await miaPage.getByRole('heading', { name: 'Entrar en Rollcall' }).waitFor({ timeout: 15_000 });
  }, 180_000);
});

/** Drags with the mouse (the board's Sortable works on pointer events), landing in the target's middle or top. */
async function drag(page: Page, from: ReturnType<Page['locator']>, to: ReturnType<Page['locator']>, where: 'middle' | 'top' = 'middle') {
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  const y = where === 'top' ? b.y + 4 : b.y + b.height / 2;
  for (let i = 1; i <= 12; i++) await page.mouse.move(a.x + a.width / 2 + ((b.x + b.width / 2 - a.x - a.width / 2) * i) / 12, a.y + a.height / 2 + ((y - a.y - a.height / 2) * i) / 12);
  await page.waitForTimeout(100);
  await page.mouse.up();
}
