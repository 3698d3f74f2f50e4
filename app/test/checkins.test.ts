/**
 * Setting check-ins up in the web app, in Chromium against a started server on SQLite: Ada (admin, English, 1280
 * px, Madrid) creates a weekly check-in from its template (asked on Fridays, in her browser's zone), is refused a
 * second one of the same name, edits its questions (types, options, order), reminders, privacy and who takes
 * part, pauses and resumes it, and archives it; Manny (manager, Portuguese, a 390 px phone) sets one up too.
 * Every change is read back through the API; axe-core checks every screen.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, launchChromium } from './browser.ts';
import { ADMIN_EMAIL, startServer, startSmtpSink } from './server.ts';
import type { Running } from './server.ts';

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let server: Running;
let browser: Browser;
let ada: Page;
const ids: Record<string, string> = {};

const DESKTOP = { locale: 'en-US', timezoneId: 'Europe/Madrid', viewport: { width: 1280, height: 900 } };
const PHONE = { locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** No page is wider than the screen (nothing to scroll sideways). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

async function signIn(options: Record<string, unknown>, email: string, labels: { email: RegExp; send: RegExp; code: RegExp; verify: RegExp }): Promise<Page> {
  const page = await (await browser.newContext(options)).newPage();
  await page.goto(`${server.url}/app/`);
  await page.getByLabel(labels.email).fill(email);
  const before = sink.messages.length;
  await page.getByRole('button', { name: labels.send }).click();
  await page.getByLabel(labels.code).fill(await sink.codeFor(email, before));
  await page.getByRole('button', { name: labels.verify }).click();
  return page;
}

const checkinNamed = async (name: string) =>
  (await server.api('GET', '/v1/checkins/?include_archived=true')).results.find((c: { name: string }) => c.name === name);

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startServer(sink.url);
  const org = await server.api('GET', '/v1/organization/');
  const me = await server.api('GET', '/v1/me/');
  ids.ada = me.uuid;
  await server.api('PATCH', `/v1/users/${me.uuid}/`, { first_name: 'Ada', last_name: 'Admin' });
  ids.mia = server.admin('user', 'create', '--org', org.uuid, '--email', 'mia@acme.test', '--first-name', 'Mia', '--last-name', 'Member').uuid;
  ids.manny = server.admin('user', 'create', '--org', org.uuid, '--email', 'manny@acme.test', '--first-name', 'Manny', '--last-name', 'Manager', '--role', 'manager').uuid;
  ids.team = (await server.api('POST', '/v1/teams/', { name: 'Platform' })).uuid;
  await server.api('POST', '/v1/checkins/create/', {
    name: 'Daily', schedule: { days: [1, 2, 3, 4, 5], time: '09:00', timezone: 'UTC' }, participants: { user_uuids: [ids.ada] },
    questions: [{ question_type: 'text', question: 'What did you do?' }],
  });
  browser = await launchChromium();
  ada = await signIn(DESKTOP, ADMIN_EMAIL, { email: /Work e-mail/, send: /E-mail me a code/, code: /Six-digit code/, verify: /^Sign in$/ });
  await ada.getByRole('heading', { name: 'Hello, Ada' }).waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await sink?.close();
});

describe('check-ins in the app', () => {
  it('lists the check-ins and creates a weekly one from its template, on Fridays, in the browser\'s time zone; a second of the same name is refused', async () => {
    await ada.getByRole('link', { name: 'Check-ins', exact: true }).click();
    await ada.getByRole('heading', { name: 'Check-ins', level: 1 }).waitFor();
    await ada.getByRole('link', { name: 'Daily', exact: true }).waitFor();
    await ada.getByRole('cell', { name: 'Running' }).waitFor();
    const form = ada.getByRole('region', { name: 'New check-in' });
    await form.getByLabel('Name', { exact: true }).fill('Weekly sync');
    await form.getByLabel('Template').selectOption({ label: 'Weekly check-in' });
    // The weekly template proposes Friday alone; the zone is the browser's.
    const days = form.getByRole('group', { name: 'Days' });
    expect(await days.getByLabel('Fri').isChecked()).toBe(true);
    expect(await days.getByLabel('Mon').isChecked()).toBe(false);
    expect(await form.getByLabel('Time zone').inputValue()).toBe('Europe/Madrid');
    await form.getByRole('group', { name: 'Who takes part' }).getByLabel('Ada Admin').check();
    expect(await axe(ada)).toEqual([]);
    await form.getByRole('button', { name: 'Create check-in' }).click();
    await form.getByText('Check-in "Weekly sync" created.').waitFor();
    await ada.getByRole('link', { name: 'Weekly sync' }).waitFor();
    const weekly = await checkinNamed('Weekly sync');
    expect(weekly).toMatchObject({ frequency_type: 'weekly', schedule: { days: [5], time: '09:30', timezone: 'Europe/Madrid' }, participants_count: 1 });
    ids.weekly = weekly.uuid;

    await form.getByLabel('Name', { exact: true }).fill('weekly SYNC');
    await form.getByRole('button', { name: 'Create check-in' }).click();
    await form.getByRole('alert').getByText('Your organization already has a check-in named "weekly SYNC"; choose another name or archive that one.').waitFor();
  });

  it('edits the questions with their types, reminders, privacy and who takes part, saved together and read back', async () => {
    await ada.getByRole('link', { name: 'Weekly sync' }).click();
    await ada.getByRole('heading', { name: 'Weekly sync', level: 1 }).waitFor();
    const settings = ada.getByRole('form', { name: 'Check-in settings' });
    const before = (await server.api('GET', `/v1/checkins/${ids.weekly}/detail/`)).questions;
    expect(before.map((q: { question_type: string }) => q.question_type)).toEqual(['text', 'text', 'text', 'numeric']);
    await settings.getByLabel('Name', { exact: true }).fill('Weekly team sync');
    // The last question (the week's score) moves first; the third is removed; a multiple-choice one is added.
    await settings.getByRole('button', { name: 'Move question 4 up' }).click();
    await settings.getByRole('button', { name: 'Move question 3 up' }).click();
    await settings.getByRole('button', { name: 'Move question 2 up' }).click();
    await settings.getByRole('button', { name: 'Remove question 4' }).click();
    await settings.getByRole('button', { name: 'Add a question' }).click();
    const added = settings.getByRole('group', { name: 'Question 4' });
    await added.getByLabel('Question', { exact: true }).fill('Where did you work from?');
    await added.getByLabel('Answer type').selectOption('multiple_choice');
    await added.getByLabel('Options (one a line)').fill('Home\nOffice\n\nOn the road');
    await added.getByLabel('Required').uncheck();
    await settings.getByRole('group', { name: 'Question 3' }).getByLabel('An answer reports a blocker').check();
    await settings.getByLabel('Reminders to those who have not answered').fill('2');
    await settings.getByLabel('Minutes between reminders').fill('45');
    await settings.getByLabel('How often').selectOption({ label: 'Every 2 weeks' });
    await settings.getByLabel('Private: participants read only their own answers').check();
    await settings.getByRole('group', { name: 'Who takes part' }).getByLabel('Platform').check();
    await settings.getByRole('group', { name: 'Who takes part' }).getByLabel('Mia Member').check();
    expect(await axe(ada)).toEqual([]);
    await settings.getByRole('button', { name: 'Save changes' }).click();
    await ada.getByRole('status').getByText('Changes saved.').waitFor();

    const detail = await server.api('GET', `/v1/checkins/${ids.weekly}/detail/`);
    expect(detail).toMatchObject({
      name: 'Weekly team sync', frequency: 2, reminders_max_count: 2, reminders_frequency_time: 45, privacy: 'private',
      participants: { users: expect.arrayContaining([expect.objectContaining({ uuid: ids.mia }), expect.objectContaining({ uuid: ids.ada })]), teams: [{ uuid: ids.team, name: 'Platform' }] },
    });
    expect(detail.questions.map((q: { uuid: string; question_type: string; required: boolean; is_blocker: boolean }) => [q.uuid, q.question_type, q.required, q.is_blocker])).toEqual([
      [before[3].uuid, 'numeric', false, false],
      [before[0].uuid, 'text', true, false],
      [before[1].uuid, 'text', true, true],
      [expect.any(String), 'multiple_choice', false, false],
    ]);
    expect(detail.questions[3].choices).toEqual([{ label: 'Home', value: 'Home' }, { label: 'Office', value: 'Office' }, { label: 'On the road', value: 'On the road' }]);
    await ada.getByRole('heading', { name: 'Weekly team sync', level: 1 }).waitFor();

    // A refusal from the API shows on the page and keeps what was typed.
    await settings.getByRole('group', { name: 'Question 4' }).getByLabel('Options (one a line)').fill('Only one');
    await settings.getByRole('button', { name: 'Save changes' }).click();
    await ada.getByRole('alert').getByText(/A multiple-choice question needs at least 2 options/).waitFor();
    expect(await settings.getByRole('group', { name: 'Question 4' }).getByLabel('Options (one a line)').inputValue()).toBe('Only one');
  });

  it('pauses, resumes and archives a check-in', async () => {
    await ada.getByRole('button', { name: 'Pause' }).click();
    await ada.getByText('Paused: nobody is asked until you resume it.').waitFor();
    expect((await server.api('GET', `/v1/checkins/${ids.weekly}/`)).active).toBe(false);
    await ada.getByRole('button', { name: 'Resume' }).click();
    await ada.getByText('Resumed: people are asked again on its days.').waitFor();
    expect((await server.api('GET', `/v1/checkins/${ids.weekly}/`)).active).toBe(true);
    ada.once('dialog', (dialog) => void dialog.accept());
    await ada.getByRole('button', { name: 'Archive' }).click();
    await ada.getByRole('heading', { name: 'Check-ins', level: 1 }).waitFor();
    await ada.getByRole('link', { name: 'Daily', exact: true }).waitFor();
    expect(await ada.getByRole('link', { name: 'Weekly team sync' }).count()).toBe(0);
    await ada.getByLabel('Show archived check-ins').check();
    await ada.getByRole('row', { name: /Weekly team sync.*Archived/ }).waitFor();
    expect((await server.api('GET', `/v1/checkins/${ids.weekly}/`)).is_archived).toBe(true);
  });

  it('lets a manager set one up on a phone, in Portuguese, without sideways scrolling; members do not see Check-ins', async () => {
    const manny = await signIn(PHONE, 'manny@acme.test', { email: /E-mail de trabalho/, send: /Enviar um código/, code: /Código de seis dígitos/, verify: /^Entrar$/ });
    await manny.getByRole('link', { name: 'Check-ins', exact: true }).click();
    await manny.getByRole('heading', { name: 'Check-ins', level: 1 }).waitFor();
    const form = manny.getByRole('region', { name: 'Novo check-in' });
    await form.getByLabel('Nome', { exact: true }).fill('Retro');
    await form.getByLabel('Modelo').selectOption({ label: 'Retrospective' });
    expect(await form.getByLabel('Fuso horário').inputValue()).toBe('America/Sao_Paulo');
    await form.getByRole('button', { name: 'Criar check-in' }).click();
    await form.getByText('Check-in "Retro" criado.').waitFor();
    expect(await checkinNamed('Retro')).toMatchObject({ frequency_type: 'biweekly', schedule: { days: [5], timezone: 'America/Sao_Paulo' } });
    expect(await overflow(manny)).toBeLessThanOrEqual(0);
    expect(await axe(manny)).toEqual([]);
    await manny.getByRole('link', { name: 'Retro' }).click();
    await manny.getByRole('form', { name: 'Configurações do check-in' }).waitFor();
    expect(await overflow(manny)).toBeLessThanOrEqual(0);
    expect(await axe(manny)).toEqual([]);

    const mia = await signIn(PHONE, 'mia@acme.test', { email: /E-mail de trabalho/, send: /Enviar um código/, code: /Código de seis dígitos/, verify: /^Entrar$/ });
    await mia.getByRole('navigation').waitFor();
    expect(await mia.getByRole('link', { name: 'Check-ins', exact: true }).count()).toBe(0);
  });
});
