/**
 * An invitation from end to end, in Chromium against a started server on SQLite: Ada (English, 1280 px) invites
 * from the People table; Nia (Portuguese, 390 px, a phone) opens the link of the e-mail the local SMTP sink
 * received, accepts, and lands signed in on a Today that says what to do first. Resending, revoking, and the links
 * that no longer work (used, replaced, revoked, expired) say so on the page. axe-core checks every screen.
 */
import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, launchChromium } from './browser.ts';
import { ADMIN_EMAIL, startServer, startSmtpSink } from './server.ts';
import type { Running } from './server.ts';

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let server: Running;
let browser: Browser;
let ada: BrowserContext;
let adaPage: Page;

const PHONE = { locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const DESKTOP = { locale: 'en-US', viewport: { width: 1280, height: 860 } };

/** No page is wider than the screen (nothing to scroll sideways). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** The People table's row of an address (its e-mail cell). */
const rowOf = (email: string) => adaPage.getByRole('row').filter({ has: adaPage.getByRole('cell', { name: email, exact: true }) });

async function inviteFromAdmin(email: string): Promise<string> {
  const before = sink.messages.length;
  await adaPage.getByLabel('E-mail', { exact: true }).fill(email);
  await adaPage.getByRole('button', { name: 'Send invitation' }).click();
  await adaPage.getByText(`Invitation sent to ${email}.`).waitFor();
  return sink.invitationFor(email, before);
}

/** A fresh browser (no session) opening a link. */
async function open(link: string, options: Record<string, unknown>): Promise<Page> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await page.goto(link);
  return page;
}

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startServer(sink.url);
  const me = await server.api('GET', '/v1/me/');
  await server.api('PATCH', `/v1/users/${me.uuid}/`, { first_name: 'Ada', last_name: 'Admin' });
  // The organization has a check-in already, for Ada: Nia is not in it.
  await server.api('POST', '/v1/checkins/create/', {
    name: 'Daily', schedule: { days: [1, 2, 3, 4, 5], time: '09:00', timezone: 'UTC' }, participants: { user_uuids: [me.uuid] },
    questions: [{ question_type: 'text', question: 'What did you do?' }],
  });
  browser = await launchChromium();
  ada = await browser.newContext(DESKTOP);
  adaPage = await ada.newPage();
  await adaPage.goto(`${server.url}/app/`);
  await adaPage.getByLabel('Work e-mail').fill(ADMIN_EMAIL);
  const before = sink.messages.length;
  await adaPage.getByRole('button', { name: 'E-mail me a code' }).click();
  await adaPage.getByLabel('Six-digit code').fill(await sink.codeFor(ADMIN_EMAIL, before));
  await adaPage.getByRole('button', { name: /^Sign in$/ }).click();
  await adaPage.getByRole('heading', { name: 'Hello, Ada' }).waitFor();
  await adaPage.getByRole('link', { name: 'Admin' }).click();
  await adaPage.getByRole('heading', { name: 'People' }).waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await sink?.close();
});

describe('inviting someone', () => {
  it('goes from the e-mail to a signed-in Today that says what to do first', async () => {
    const link = await inviteFromAdmin('nia@example.com');
    // The e-mail links to this server's app (PUBLIC_URL is not set: the address Ada's browser reached).
    expect(link).toMatch(new RegExp(`^${server.url.replaceAll('.', '\\.')}/app/invitations/accept\\?token=[0-9A-Za-z]{40}$`));
    const row = rowOf('nia@example.com');
    await row.getByText('invited', { exact: true }).waitFor();
    await row.getByText(/^link valid until /).waitFor();
    await row.getByRole('button', { name: 'Resend the invitation to nia@example.com' }).waitFor();
    await row.getByRole('button', { name: 'Revoke the invitation to nia@example.com' }).waitFor();
    expect(await row.getByText('deactivated').count()).toBe(0);
    expect(await row.getByRole('button', { name: /Reactivate/ }).count()).toBe(0);
    expect(await axe(adaPage)).toEqual([]);

    // Nia, on her phone, in Portuguese.
    const nia = await open(link, PHONE);
    await nia.getByRole('heading', { name: 'Junte-se à sua equipe no Rollcall' }).waitFor();
    expect(await axe(nia)).toEqual([]);
    expect(await overflow(nia)).toBe(0);
    await nia.getByRole('button', { name: 'Aceitar e entrar' }).click();

    await nia.getByRole('heading', { name: 'Boas-vindas a My organization' }).waitFor();
    // The spent link left the address bar; the session is the HttpOnly cookie.
    expect(nia.url()).toBe(`${server.url}/app/`);
    const [cookie] = (await nia.context().cookies()).filter((c) => c.name === 'rollcall_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/v1/' });
    const steps = nia.getByRole('region', { name: 'Primeiros passos em My organization' });
    await steps.getByText('Você ainda não participa de nenhum check-in. Quando um administrador incluir você em um, as perguntas aparecerão nesta página e chegarão por e-mail em nia@example.com.').waitFor();
    expect(await nia.getByLabel('Fuso horário').inputValue()).toBe('America/Sao_Paulo');
    expect(await axe(nia)).toEqual([]);
    expect(await overflow(nia)).toBe(0);

    // She gives her name; the page greets her by it and keeps the steps still open.
    await steps.getByLabel('Nome', { exact: true }).fill('Nia');
    await steps.getByLabel('Sobrenome').fill('Nunes');
    await steps.getByRole('button', { name: 'Salvar' }).click();
    await nia.getByRole('heading', { name: 'Olá, Nia' }).waitFor();
    await steps.getByText('Sua equipe vê você como Nia Nunes.').waitFor();
    const niaUser = (await server.api('GET', '/v1/users/?search=nia%40example.com&include_email=true')).results[0];
    expect(niaUser).toMatchObject({ first_name: 'Nia', last_name: 'Nunes', timezone: 'America/Sao_Paulo', is_active: true, status: 'active', invitation: null });
    await steps.getByRole('button', { name: 'Ocultar estes primeiros passos' }).click();
    await steps.waitFor({ state: 'detached' });
    await nia.reload();
    await nia.getByRole('heading', { name: 'Olá, Nia' }).waitFor();
    expect(await nia.getByRole('region', { name: /Primeiros passos/ }).count()).toBe(0);
    await nia.setViewportSize({ width: 1280, height: 860 });
    expect(await axe(nia)).toEqual([]);

    // Ada sees her as an active member now.
    await adaPage.reload();
    await rowOf('nia@example.com').getByRole('button', { name: 'Deactivate Nia Nunes' }).waitFor();
    await rowOf('nia@example.com').getByText('active', { exact: true }).waitFor();

    // The link again, in another browser: used, and the page says how to sign in instead.
    const again = await open(link, { ...DESKTOP, locale: 'es-ES' });
    await again.getByRole('button', { name: 'Aceptar y entrar' }).click();
    await again.getByRole('alert').getByText('Esta invitación ya se aceptó. Entra con tu dirección de correo: Rollcall te envía un código.').waitFor();
    expect(await again.getByRole('button', { name: 'Aceptar y entrar' }).count()).toBe(0);
    expect(await axe(again)).toEqual([]);
    await again.getByRole('link', { name: 'Entrar' }).click();
    await again.getByRole('heading', { name: 'Entrar en Rollcall' }).waitFor();
    await nia.context().close();
    await again.context().close();
  });

  it('resends (the older link stops), revokes (the person goes), and says so on a link that no longer works', async () => {
    const first = await inviteFromAdmin('otto@example.com');
    const before = sink.messages.length;
    await rowOf('otto@example.com').getByRole('button', { name: 'Resend the invitation to otto@example.com' }).click();
    await adaPage.getByText('Invitation sent again to otto@example.com. The earlier link no longer works.').waitFor();
    const second = await sink.invitationFor('otto@example.com', before);
    expect(second).not.toBe(first);

    const replaced = await open(first, PHONE);
    await replaced.getByRole('button', { name: 'Aceitar e entrar' }).click();
    await replaced.getByRole('alert').getByText(/^Este link de convite não é válido/).waitFor();
    expect(await axe(replaced)).toEqual([]);
    expect(await overflow(replaced)).toBe(0);

    adaPage.once('dialog', (dialog) => void dialog.accept());
    await rowOf('otto@example.com').getByRole('button', { name: 'Revoke the invitation to otto@example.com' }).click();
    await adaPage.getByText('Invitation to otto@example.com revoked.').waitFor();
    await rowOf('otto@example.com').waitFor({ state: 'detached' });
    expect((await server.api('GET', '/v1/users/?status=invited')).count).toBe(0);
    const revoked = await open(second, DESKTOP);
    await revoked.getByRole('button', { name: 'Accept and sign in' }).click();
    await revoked.getByRole('alert').getByText(/^This invitation link is not valid/).waitFor();
    await revoked.getByRole('link', { name: 'Sign in' }).waitFor();

    // A link cut short never reaches the API.
    const cut = await open(`${server.url}/app/invitations/accept?token=abc`, DESKTOP);
    await cut.getByRole('alert').getByText(/^This invitation link is not valid/).waitFor();
    expect(await cut.getByRole('button', { name: 'Accept and sign in' }).count()).toBe(0);
    for (const page of [replaced, revoked, cut]) await page.context().close();
  });

  it('an expired link says when it expired; the admin sees it expired and resends it', async () => {
    const link = await inviteFromAdmin('eve@example.com');
    // A week passes: the invitation's expiry, as the server's clock will see it, is moved into the past.
    const db = new DatabaseSync(path.join(server.dataDir, 'rollcall.db'));
    try {
      db.prepare("update invitations set expires_at = '2026-01-02T10:00:00.000Z' where email = 'eve@example.com'").run();
    } finally {
      db.close();
    }
    const eve = await open(link, PHONE);
    await eve.getByRole('button', { name: 'Aceitar e entrar' }).click();
    await eve.getByRole('alert').getByText(/^Este convite expirou em 2 de jan\. de 2026, \d\d:\d\d\. Peça a quem convidou você que o envie de novo: o novo link funciona por 7 dias\.$/).waitFor();
    expect(await axe(eve)).toEqual([]);

    await adaPage.reload();
    await rowOf('eve@example.com').getByText('link expired: resend it').waitFor();
    const before = sink.messages.length;
    await rowOf('eve@example.com').getByRole('button', { name: 'Resend the invitation to eve@example.com' }).click();
    const fresh = await sink.invitationFor('eve@example.com', before);
    await eve.goto(fresh);
    await eve.getByRole('button', { name: 'Aceitar e entrar' }).click();
    await eve.getByRole('heading', { name: 'Boas-vindas a My organization' }).waitFor();
    await eve.context().close();
  });
});
