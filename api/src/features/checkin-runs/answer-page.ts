import { createHash } from 'node:crypto';
import { bool, readJson } from '../../lib/json.ts';
import { fullName } from '../../lib/names.ts';
import { escapeHtml } from '../../lib/html.ts';
import type { AnswerView } from './answer-service.ts';
import { LANGUAGES } from '../../lib/personal-settings.ts';
import type { Language } from '../../lib/personal-settings.ts';
import { RESOLVED } from './answer-service.ts';
import { MOOD_FACES, answerWords, kindOf, scaleSteps } from '../checkins/question-kinds.ts';
import type { QuestionRow } from '../../db/tables.ts';

/**
 * The web answer page: plain HTML that works without JavaScript, readable on a phone, in the reader's language
 * (en, es, pt) and the site's colours. Its only style is the inline sheet below, allowed by its hash in the
 * Content-Security-Policy; it runs no script and cannot be framed.
 */

const TEXT = {
  en: {
    title: 'Check-in', for: 'for', hello: 'Hi', save: 'Save my answers', saved: 'Saved. You can change your answers until the report is sent.',
    yes: 'Yes', no: 'No', unanswered: 'No answer', required: 'required', invalidTitle: 'This link does not work',
    invalid: 'This answer link is wrong or has expired. Use the link in your latest check-in e-mail, or answer with the rollcall command or the API.',
    closed: 'The report for this day has been sent, so these answers can no longer change here.', problems: 'Some answers could not be saved:',
    forgery: 'This form could not be checked (it may be old, or cookies are off). Open the link again and resend your answers.',
    yours: 'Your answers', from: 'Answering as', needed: 'Answer this required question:',
    lastTime: 'Last time', onlyIf: 'Only if', is: 'is', stillBlocked: 'Still blocked?', resolved: 'Resolved', since: 'since',
  },
  es: {
    title: 'Check-in', for: 'del', hello: 'Hola', save: 'Guardar mis respuestas', saved: 'Guardado. Puedes cambiar tus respuestas hasta que se envíe el informe.',
    yes: 'Sí', no: 'No', unanswered: 'Sin respuesta', required: 'obligatoria', invalidTitle: 'Este enlace no funciona',
    invalid: 'Este enlace de respuesta es incorrecto o ha caducado. Usa el enlace de tu último correo de check-in, o responde con el comando rollcall o la API.',
    closed: 'El informe de este día ya se envió: estas respuestas ya no se pueden cambiar aquí.', problems: 'Algunas respuestas no se pudieron guardar:',
    forgery: 'No se pudo comprobar este formulario (puede ser antiguo, o las cookies están desactivadas). Abre el enlace de nuevo y vuelve a enviar tus respuestas.',
    yours: 'Tus respuestas', from: 'Respondes como', needed: 'Responde esta pregunta obligatoria:',
    lastTime: 'La última vez', onlyIf: 'Solo si', is: 'es', stillBlocked: '¿Sigues bloqueado?', resolved: 'Resuelto', since: 'desde',
  },
  pt: {
    title: 'Check-in', for: 'de', hello: 'Olá', save: 'Salvar minhas respostas', saved: 'Salvo. Você pode alterar suas respostas até o relatório ser enviado.',
    yes: 'Sim', no: 'Não', unanswered: 'Sem resposta', required: 'obrigatória', invalidTitle: 'Este link não funciona',
    invalid: 'Este link de resposta está errado ou expirou. Use o link do seu último e-mail de check-in, ou responda com o comando rollcall ou a API.',
    closed: 'O relatório deste dia já foi enviado: estas respostas não podem mais ser alteradas aqui.', problems: 'Algumas respostas não puderam ser salvas:',
    forgery: 'Não foi possível verificar este formulário (pode ser antigo, ou os cookies estão desligados). Abra o link de novo e reenvie suas respostas.',
    yours: 'Suas respostas', from: 'Respondendo como', needed: 'Responda esta pergunta obrigatória:',
    lastTime: 'Da última vez', onlyIf: 'Só se', is: 'for', stillBlocked: 'Ainda bloqueado?', resolved: 'Resolvido', since: 'desde',
  },
} satisfies Record<Language, Record<string, string>>;

/**
 * The reader's language: `?lang=` when given, else the one the person chose (PATCH /v1/me/), else the first of en,
 * es, pt in Accept-Language, else English.
 */
export function pickLanguage(query: unknown, acceptLanguage: string | undefined, chosen: string | null = null): Language {
  if (typeof query === 'string' && (LANGUAGES as readonly string[]).includes(query)) return query as Language;
  if (chosen !== null && (LANGUAGES as readonly string[]).includes(chosen)) return chosen as Language;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^q=([\d.]+)$/.exec(p.trim())).find(Boolean);
      return { lang: tag.split('-')[0], q: q ? Number(q[1]) : 1 };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q);
  return (ranked.find((entry) => (LANGUAGES as readonly string[]).includes(entry.lang))?.lang as Language | undefined) ?? 'en';
}

const CSS = `:root{--fg:#1b1f24;--muted:#57606a;--bg:#fff;--line:#d8dee4;--accent:#0b5cad;--soft:#f3f6f9;--notice:#fff8db;--focus:#ffbf47;--on-accent:#fff;color-scheme:light dark;font:1.0625rem/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9da7b1;--bg:#0d1117;--line:#30363d;--accent:#6cb6ff;--soft:#161b22;--notice:#3b2e00;--on-accent:#0d1117}}
*{box-sizing:border-box}body{margin:0;color:var(--fg);background:var(--bg)}main{max-width:40rem;margin:0 auto;padding:1.25rem 1rem 3rem}
header{border-bottom:1px solid var(--line);padding:.75rem 1rem;font-weight:700}h1{font-size:1.5rem;line-height:1.25;margin:.5rem 0}
.muted{color:var(--muted)}.intro{white-space:pre-wrap}fieldset{border:1px solid var(--line);border-radius:6px;margin:1rem 0;padding:.75rem 1rem}
legend{font-weight:600;padding:0 .25rem}textarea,input[type=number]{width:100%;font:inherit;padding:.5rem;border:1px solid var(--muted);border-radius:4px;background:var(--bg);color:var(--fg)}
textarea{min-height:6rem}label.choice{display:block;padding:.2rem 0}button{font:inherit;font-weight:600;padding:.6rem 1.2rem;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--on-accent);cursor:pointer}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}.note{background:var(--notice);border-radius:6px;padding:.75rem 1rem;margin:1rem 0}
.answer{white-space:pre-wrap;background:var(--soft);border-radius:4px;padding:.5rem .75rem}
.scale{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:center}.scale label.choice{display:inline-block}.ends{display:flex;justify-content:space-between;font-size:.9rem}
p.hint{margin:.25rem 0;font-size:.95rem}`;

/** The Content-Security-Policy of every answer page: its one inline style sheet, forms to itself, no script, no framing. */
export const ANSWER_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(CSS).digest('base64')}'`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

function page(lang: Language, title: string, body: string): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · Rollcall</title>
<style>${CSS}</style>
</head>
<body>
<header>Rollcall</header>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The page for a link that does not work: the same for malformed, unknown, expired and forged links. */
export function invalidPage(lang: Language): string {
  const t = TEXT[lang];
  return page(lang, t.invalidTitle, `<h1>${escapeHtml(t.invalidTitle)}</h1>\n<p>${escapeHtml(t.invalid)}</p>`);
}

/** The page when the form's anti-forgery value is missing or wrong. */
export function forgeryPage(lang: Language, retryPath: string): string {
  const t = TEXT[lang];
  return page(lang, t.invalidTitle, `<h1>${escapeHtml(t.invalidTitle)}</h1>\n<p>${escapeHtml(t.forgery)}</p>\n<p><a href="${escapeHtml(retryPath)}">${escapeHtml(t.title)}</a></p>`);
}

export interface FormState {
  notice?: 'saved' | 'closed';
  problems?: Record<string, string[]>;
  /** The required questions (uuids) the refused form left empty. */
  unanswered?: string[];
  /** The submitted values, shown again when they were refused. */
  submitted?: Map<string, string[]>;
}

/** An answer in the reader's words: yes and no in their language, choices by label, a scale's number. */
function words(t: { yes: string; no: string }, q: QuestionRow, value: unknown): string {
  if (typeof value === 'boolean') return value ? t.yes : t.no;
  return answerWords(q, value);
}

/** The questions, the person's answers so far, and the form (or, once reported, the answers as text). */
export function answerPage(lang: Language, view: AnswerView, formKey: string, state: FormState = {}): string {
  const t = TEXT[lang];
  const settings = readJson<Record<string, unknown>>(view.checkin.settings, {});
  const intro = typeof settings.custom_template_intro === 'string' ? settings.custom_template_intro : '';
  const outro = typeof settings.custom_template_outro === 'string' ? settings.custom_template_outro : '';
  const parts = [`<h1>${escapeHtml(view.checkin.name)} <span class="muted">${escapeHtml(t.for)} ${escapeHtml(view.date)}</span></h1>`,
    `<p class="muted">${escapeHtml(t.from)} ${escapeHtml(fullName(view.person))}</p>`];
  if (intro) parts.push(`<p class="intro">${escapeHtml(intro)}</p>`);
  if (state.notice === 'saved') parts.push(`<p class="note" role="status">${escapeHtml(t.saved)}</p>`);
  if (state.notice === 'closed' || !view.editable) parts.push(`<p class="note" role="status">${escapeHtml(t.closed)}</p>`);
  const unanswered = new Set(state.unanswered ?? []);
  const problems = [
    ...view.questions.filter((q) => unanswered.has(q.uuid)).map((q) => `${t.needed} ${q.question}`),
    ...Object.values(state.problems ?? {}).flat(),
  ];
  if (problems.length) {
    parts.push(`<div class="note" role="alert"><p>${escapeHtml(t.problems)}</p><ul>${problems.map((p) => `<li>${escapeHtml(p)}</li>`).join('')}</ul></div>`);
  }
  const valueOf = (uuid: string): string[] => {
    const sent = state.submitted?.get(`q.${uuid}`);
    if (sent) return sent;
    const answer = view.answers.get(uuid);
    if (answer === undefined) return [];
    if (Array.isArray(answer)) return answer;
    if (typeof answer === 'boolean') return [answer ? 'yes' : 'no'];
    return [String(answer)];
  };
  if (!view.editable) {
    parts.push(`<h2>${escapeHtml(t.yours)}</h2>`);
    for (const q of view.questions) {
      const value = valueOf(q.uuid).join(', ');
      parts.push(`<h3>${escapeHtml(q.question)}</h3>\n<p class="answer">${escapeHtml(value === 'yes' ? t.yes : value === 'no' ? t.no : value || t.unanswered)}</p>`);
    }
  } else {
    const byPosition = new Map(view.questions.map((q) => [q.position, q]));
    const fields = view.questions.map((q, i) => {
      const name = `q.${q.uuid}`;
      const id = `q${i}`;
      const values = valueOf(q.uuid);
      const kind = kindOf(q);
      const target = kind.showIf ? byPosition.get(kind.showIf.question_index) : undefined;
      const conditional = target !== undefined && target.position < q.position;
      // A question shown on a condition is required only once shown: the server asks for it then, not the browser.
      const required = bool(q.required) && !conditional;
      const label = `${escapeHtml(q.question)}${bool(q.required) ? ` <span class="muted">(${escapeHtml(t.required)})</span>` : ''}`;
      const notes: string[] = [];
      if (conditional) notes.push(`${t.onlyIf} "${target.question}" ${t.is} ${words(t, target, target.question_type === 'multiple_choice' ? [kind.showIf!.equals] : kind.showIf!.equals)}`);
      const last = view.carry.previous?.answers.get(q.uuid);
      if (last !== undefined) notes.push(`${t.lastTime} (${view.carry.previous!.date}): ${words(t, q, last)}`);
      const hints = notes.map((n) => `<p class="hint muted">${escapeHtml(n)}</p>`).join('\n');
      // The browser asks for a required answer before sending (JavaScript or not); the server refuses a blank one.
      const mark = `${required ? ' required' : ''}${unanswered.has(q.uuid) ? ' aria-invalid="true"' : ''}`;
      const steps = scaleSteps(q);
      if (q.question_type === 'multiple_choice' || q.question_type === 'boolean' || steps.length) {
        const choices = q.question_type === 'boolean'
          ? [{ label: t.yes, value: 'yes' }, { label: t.no, value: 'no' }]
          : steps.length
            ? steps.map((n) => ({ label: kind.presentation === 'mood' ? `${MOOD_FACES[n - 1]} ${n}` : String(n), value: String(n) }))
            : readJson<{ label: string; value: string }[]>(q.choices, []);
        const type = q.question_type === 'multiple_choice' && kind.multiple ? 'checkbox' : 'radio';
        // A required radio group needs one choice; checkboxes cannot say "at least one" in HTML (the server does).
        const groupMark = type === 'radio' ? mark : '';
        const inputs = choices.map((c, j) =>
          `<label class="choice" for="${id}-${j}"><input type="${type}" id="${id}-${j}" name="${escapeHtml(name)}" value="${escapeHtml(c.value)}"${values.includes(c.value) ? ' checked' : ''}${groupMark}> ${escapeHtml(c.label)}</label>`).join('\n');
        const ends = steps.length && (kind.minLabel || kind.maxLabel)
          ? `\n<div class="ends muted"><span>${escapeHtml(`${steps[0]}: ${kind.minLabel ?? ''}`)}</span><span>${escapeHtml(`${steps[steps.length - 1]}: ${kind.maxLabel ?? ''}`)}</span></div>`
          : '';
        return `<fieldset><legend>${label}</legend>\n${hints}${hints ? '\n' : ''}${steps.length ? `<div class="scale">\n${inputs}\n</div>` : inputs}${ends}\n</fieldset>`;
      }
      const bounds = `${kind.min !== null ? ` min="${kind.min}"` : ''}${kind.max !== null ? ` max="${kind.max}"` : ''}`;
      const control = q.question_type === 'numeric'
        ? `<input type="number" step="any" inputmode="decimal" id="${id}" name="${escapeHtml(name)}" value="${escapeHtml(values[0] ?? '')}"${bounds}${mark}>`
        : `<textarea id="${id}" name="${escapeHtml(name)}" rows="4"${mark}>${escapeHtml(values[0] ?? '')}</textarea>`;
      return `<fieldset><legend><label for="${id}">${label}</label></legend>\n${hints}${hints ? '\n' : ''}${control}\n</fieldset>`;
    });
    if (view.carry.blockers.length) {
      const boxes = view.carry.blockers.map((b, j) =>
        `<label class="choice" for="blocker-${j}"><input type="checkbox" id="blocker-${j}" name="${RESOLVED}" value="${escapeHtml(b.uuid)}"> ${escapeHtml(`${t.resolved}: "${b.text}" (${t.since} ${b.opened_on})`)}</label>`).join('\n');
      fields.unshift(`<fieldset><legend>${escapeHtml(t.stillBlocked)}</legend>\n${boxes}\n</fieldset>`);
    }
    parts.push(`<form method="post">\n<input type="hidden" name="form_key" value="${escapeHtml(formKey)}">\n${fields.join('\n')}\n<button type="submit">${escapeHtml(t.save)}</button>\n</form>`);
  }
  if (outro) parts.push(`<p class="intro">${escapeHtml(outro)}</p>`);
  return page(lang, `${view.checkin.name} · ${t.title}`, parts.join('\n'));
}
