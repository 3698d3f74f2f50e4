import Mustache from 'mustache';

/**
 * The templates of workflow actions: Mustache (logic-less, no code runs) with a few limits of our own, checked
 * when a workflow is saved, so that a template can neither reach outside the trigger's data nor make a huge
 * text out of a small payload:
 * - variables (`{{payload.x}}`), sections and inverted sections (`{{#payload.ok}}…{{/payload.ok}}`) and
 *   comments only: no partials, no delimiter changes, no unescaped `{{{…}}}` (each field escapes for where its
 *   text goes: HTML for e-mail bodies, JSON strings for JSON request bodies, nothing for chat text);
 * - sections do not nest, and a section repeats at most MAX_ITEMS times;
 * - names are plain property paths, looked up in a copy of the data whose objects and lists have no prototype,
 *   so no built-in (`constructor`, `toString`, `map`…) is reachable; `constructor`, `prototype` and `__proto__`
 *   are refused besides;
 * - at most MAX_TAGS tags per template, and a rendered text of at most MAX_OUTPUT characters.
 */
export type Escaping = 'text' | 'html' | 'json';

export const MAX_TEMPLATE = 10_000;
export const MAX_TAGS = 100;
export const MAX_ITEMS = 100;
export const MAX_OUTPUT = 65_536;

export class TemplateError extends Error {}

const SEGMENT = /^[A-Za-z0-9_-]+$/;
const REFUSED = new Set(['constructor', 'prototype', '__proto__']);

type Token = [string, string, number, number, Token[]?, number?];

// A writer of our own: Mustache's default one caches every template it ever parsed.
const writer = new Mustache.Writer();
(writer as unknown as { templateCache: undefined }).templateCache = undefined;

function checkName(name: string): void {
  if (name === '.') return;
  for (const segment of name.split('.')) {
    if (!SEGMENT.test(segment) || REFUSED.has(segment)) throw new TemplateError(`{{${name}}} is not a name a template can use.`);
  }
}

/** Throws TemplateError with a message for people when `template` breaks a rule above. */
export function checkTemplate(template: string): void {
  if (template.length > MAX_TEMPLATE) throw new TemplateError(`A template has at most ${MAX_TEMPLATE} characters.`);
  let tokens: Token[];
  try {
    tokens = writer.parse(template) as Token[];
  } catch (err) {
    throw new TemplateError(`The template does not parse: ${(err as Error).message}`);
  }
  let tags = 0;
  const walk = (list: Token[], depth: number) => {
    for (const token of list) {
      const [type, value] = token;
      if (type === 'text') continue;
      tags++;
      if (type === 'name' || type === '!') {
        if (type === 'name') checkName(value);
      } else if (type === '#' || type === '^') {
        if (depth > 0) throw new TemplateError('Sections ({{#…}} and {{^…}}) do not nest.');
        checkName(value);
        walk(token[4] ?? [], depth + 1);
      } else if (type === '&') {
        throw new TemplateError('Unescaped tags ({{{…}}} and {{&…}}) are not available; {{…}} escapes for where the text goes.');
      } else if (type === '>') {
        throw new TemplateError('Partials ({{>…}}) are not available.');
      } else {
        throw new TemplateError(`Tags of the kind {{${type}…}} are not available.`);
      }
    }
  };
  walk(tokens, 0);
  if (tags > MAX_TAGS) throw new TemplateError(`A template has at most ${MAX_TAGS} tags.`);
}

/**
 * A copy of JSON data with prototype-less objects and lists (still lists to Array.isArray, so sections repeat
 * over them), lists cut to MAX_ITEMS: what templates render from.
 */
function viewOf(value: unknown, depth = 0): unknown {
  if (depth > 32) return null;
  if (Array.isArray(value)) return Object.setPrototypeOf(value.slice(0, MAX_ITEMS).map((v) => viewOf(v, depth + 1)), null);
  if (value !== null && typeof value === 'object') {
    const copy = Object.create(null) as Record<string, unknown>;
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) copy[key] = viewOf(v, depth + 1);
    return copy;
  }
  return value;
}

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '/': '&#x2F;', '`': '&#x60;', '=': '&#x3D;' };

/**
 * Objects and arrays render as JSON. In JSON bodies a string renders as the inside of a JSON string (write
 * `"{{payload.text}}"`), anything else as JSON text (`{{payload}}` is the whole object). A missing or null value
 * renders as nothing (Mustache's rule).
 */
function escaper(escaping: Escaping) {
  return (value: unknown): string => {
    if (escaping === 'json') return typeof value === 'string' ? JSON.stringify(value).slice(1, -1) : JSON.stringify(value);
    const text = typeof value === 'string' ? value : value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);
    return escaping === 'html' ? text.replace(/[&<>"'`=/]/g, (c) => HTML[c]) : text;
  };
}

/** Renders a checked template against `data` (the run's payload, workflow and run). */
export function renderTemplate(template: string, data: Record<string, unknown>, escaping: Escaping): string {
  checkTemplate(template);
  const output = writer.render(template, viewOf(data), undefined, { escape: escaper(escaping) });
  if (output.length > MAX_OUTPUT) throw new TemplateError(`The rendered text is longer than ${MAX_OUTPUT} characters.`);
  return output;
}
