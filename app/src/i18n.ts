import { signal } from '@preact/signals';
import { en } from './strings/en.ts';
import { es } from './strings/es.ts';
import { pt } from './strings/pt.ts';

export type Lang = 'en' | 'es' | 'pt';
export const LANGS: readonly Lang[] = ['en', 'es', 'pt'];
export type Key = keyof typeof en;
const TABLES: Record<Lang, Record<Key, string>> = { en, es, pt };

/**
 * The interface language: the one the person chose in the app (kept in this browser: the API has no language
 * field on a person), else the browser's first of en/es/pt, else English.
 */
export function initialLang(): Lang {
  const chosen = localStorage.getItem('rollcall.lang');
  if (chosen && (LANGS as string[]).includes(chosen)) return chosen as Lang;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.slice(0, 2).toLowerCase();
    if ((LANGS as string[]).includes(base)) return base as Lang;
  }
  return 'en';
}

export const lang = signal<Lang>(initialLang());

export function setLang(next: Lang): void {
  localStorage.setItem('rollcall.lang', next);
  document.documentElement.lang = next;
  lang.value = next;
}

/** A string of the current language, with `{name}` placeholders filled. */
export function t(key: Key, values: Record<string, string | number> = {}): string {
  const text = TABLES[lang.value][key] ?? en[key];
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ''));
}

/** A day as YYYY-MM-DD in this browser's time zone (today by default), as the API writes dates. */
export const localDay = (d = new Date()) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

export function formatDate(iso: string): string {
  return new Intl.DateTimeFormat(lang.value, { dateStyle: 'medium' }).format(new Date(iso.length === 10 ? `${iso}T12:00:00Z` : iso));
}

/** A moment (an invitation's expiry) in the person's language and time zone. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(lang.value, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
