import type { Language } from '../../lib/personal-settings.ts';

/**
 * The words of the loop's messages to one person (prompts, reminders, the team report e-mailed to them), in their
 * language (PATCH /v1/me/ `language`; English when they chose none). `{name}` placeholders are filled by `say`.
 * What goes to a channel (the chat report) stays in English: a channel has no one language.
 */
const TEXTS = {
  en: {
    prompt: 'Time for {name} ({date}).',
    reminder: 'A reminder: {name} for {date} is waiting for your answers.',
    answerOnWeb: 'Answer on the web',
    howToReply: 'Or reply to this e-mail: one paragraph per question, in order (or numbered lines 1. 2. 3.).',
    promptSubject: '{name} for {date}',
    reminderSubject: 'Reminder: {name} for {date}',
    reportSubject: '{name} report for {date}',
    counts: '{answered} of {total} answered',
    away: '{count} away',
    onHoliday: '{count} on holiday',
    blocked: 'blocked',
    notFinished: 'not finished',
    answerNumber: 'Answer {n}',
    notAnswered: 'Not answered yet',
    awayList: 'Away',
    holidayList: 'Holiday',
    openBlockers: 'Open blockers',
    late: 'Answered for {date} after that report:',
    yes: 'Yes',
    no: 'No',
  },
  es: {
    prompt: 'Es la hora de {name} ({date}).',
    reminder: 'Un recordatorio: {name} del {date} espera tus respuestas.',
    answerOnWeb: 'Responder en la web',
    howToReply: 'O responde a este correo: un párrafo por pregunta, en orden (o líneas numeradas 1. 2. 3.).',
    promptSubject: '{name} del {date}',
    reminderSubject: 'Recordatorio: {name} del {date}',
    reportSubject: 'Informe de {name} del {date}',
    counts: '{answered} de {total} respondieron',
    away: '{count} ausentes',
    onHoliday: '{count} de festivo',
    blocked: 'bloqueado',
    notFinished: 'sin terminar',
    answerNumber: 'Respuesta {n}',
    notAnswered: 'Aún sin responder',
    awayList: 'Ausentes',
    holidayList: 'Festivo',
    openBlockers: 'Bloqueos abiertos',
    late: 'Respondido para el {date} después de ese informe:',
    yes: 'Sí',
    no: 'No',
  },
  pt: {
    prompt: 'Hora de {name} ({date}).',
    reminder: 'Um lembrete: {name} de {date} espera suas respostas.',
    answerOnWeb: 'Responder na web',
    howToReply: 'Ou responda a este e-mail: um parágrafo por pergunta, em ordem (ou linhas numeradas 1. 2. 3.).',
    promptSubject: '{name} de {date}',
    reminderSubject: 'Lembrete: {name} de {date}',
    reportSubject: 'Relatório de {name} de {date}',
    counts: '{answered} de {total} responderam',
    away: '{count} ausentes',
    onHoliday: '{count} em feriado',
    blocked: 'bloqueado',
    notFinished: 'não terminado',
    answerNumber: 'Resposta {n}',
    notAnswered: 'Ainda sem resposta',
    awayList: 'Ausentes',
    holidayList: 'Feriado',
    openBlockers: 'Bloqueios abertos',
    late: 'Respondido para {date} depois desse relatório:',
    yes: 'Sim',
    no: 'Não',
  },
} satisfies Record<Language, Record<string, string>>;

export type MessageKey = keyof (typeof TEXTS)['en'];

/** A message text in `lang`, with `{name}` placeholders filled. */
export function say(lang: Language, key: MessageKey, values: Record<string, string | number> = {}): string {
  return TEXTS[lang][key].replace(/\{(\w+)\}/g, (_, name: string) => String(Object.hasOwn(values, name) ? values[name] : ''));
}
