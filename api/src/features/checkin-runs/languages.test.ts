import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendDuePrompts, sendDueReminders, sendDueReports } from './feature.ts';
import { createCheckin, linkIn, startLoopApp } from './loop-fixtures.ts';
import type { LoopApp } from './loop-fixtures.ts';

describe('Prompts, reminders, report e-mails and the answer page in each person\'s language (issue 36)', () => {
  let app: LoopApp;
  beforeEach(async () => {
    app = await startLoopApp();
    app.t.clock.set('2026-03-10T07:00:00.000Z');
  });
  afterEach(async () => app.close());

  it('writes to Mia in Spanish and Paula in Portuguese, Otto (no language chosen) in English', async () => {
    const { t, p, sink } = app;
    const paula = await t.seedUser(p.org.uuid, { email: 'paula@acme.test', firstName: 'Paula' });
    expect((await t.request('PATCH', '/v1/me/', { key: p.member.key, body: { language: 'es' } })).status).toBe(200);
    expect((await t.request('PATCH', '/v1/me/', { key: paula.key, body: { language: 'pt' } })).status).toBe(200);
    await createCheckin(t, p, {
      reminders_max_count: 1, reminders_frequency_time: 60, time_for_report: '17:00',
      participants: { user_uuids: [p.member.user.uuid, p.other.user.uuid, paula.user.uuid] },
    });
    t.clock.set('2026-03-10T08:00:00.000Z');
    expect(await sendDuePrompts(t.deps)).toBe(3);
    t.clock.set('2026-03-10T09:00:00.000Z');
    expect(await sendDueReminders(t.deps)).toBe(3);
    t.clock.set('2026-03-10T16:00:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(1);
    await t.deps.delivery.runDue();
    const mails = (to: string) => sink.messages.filter((m) => m.envelopeTo[0] === to);
    const [miaPrompt, miaReminder, miaReport] = mails('mia@acme.test');
    expect(miaPrompt.subject).toBe('Daily del 2026-03-10');
    expect(miaPrompt.text).toContain('Es la hora de Daily (2026-03-10).\n\n1. What did you do yesterday?');
    expect(miaPrompt.text).toContain('Responder en la web: http://rollcall.example.com/checkins/answer/');
    expect(miaPrompt.text).toContain('O responde a este correo: un párrafo por pregunta, en orden (o líneas numeradas 1. 2. 3.).');
    expect(miaReminder.subject).toBe('Recordatorio: Daily del 2026-03-10');
    expect(miaReminder.text).toContain('Un recordatorio: Daily del 2026-03-10 espera tus respuestas.');
    expect(miaReport.subject).toBe('Informe de Daily del 2026-03-10');
    expect(miaReport.text).toContain('0 de 3 respondieron.');
    expect(miaReport.text).toContain('Aún sin responder: Mia Member, Otto Member, Paula Member');
    const [paulaPrompt, paulaReminder, paulaReport] = mails('paula@acme.test');
    expect(paulaPrompt.subject).toBe('Daily de 2026-03-10');
    expect(paulaPrompt.text).toContain('Hora de Daily (2026-03-10).');
    expect(paulaReminder.subject).toBe('Lembrete: Daily de 2026-03-10');
    expect(paulaReport.subject).toBe('Relatório de Daily de 2026-03-10');
    expect(paulaReport.text).toContain('Ainda sem resposta: Mia Member, Otto Member, Paula Member');
    const [ottoPrompt, ottoReminder, ottoReport] = mails('otto@acme.test');
    expect(ottoPrompt.subject).toBe('Daily for 2026-03-10');
    expect(ottoReminder.subject).toBe('Reminder: Daily for 2026-03-10');
    expect(ottoReport.subject).toBe('Daily report for 2026-03-10');
    expect(ottoReport.text).toContain('0 of 3 answered.');

    // The answer page follows the person's language over the browser's; ?lang= still wins.
    const miaPage = await fetch(linkIn(t, miaPrompt.text), { headers: { 'accept-language': 'en-US,en;q=0.9' } });
    expect(miaPage.status).toBe(200);
    const html = await miaPage.text();
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('Guardar mis respuestas');
    const asked = await fetch(`${linkIn(t, miaPrompt.text)}?lang=pt`);
    expect(await asked.text()).toContain('<html lang="pt">');
    const ottoPage = await fetch(linkIn(t, ottoPrompt.text), { headers: { 'accept-language': 'pt-BR' } });
    expect(await ottoPage.text()).toContain('<html lang="pt">');
  });
});
