/**
 * The three site languages. English is the source language: a page missing in Spanish or
 * Portuguese falls back to the English entry (see src/lib/entries.ts).
 */
export const LANGS = ['en', 'es', 'pt'] as const;
export type Lang = (typeof LANGS)[number];
export const DEFAULT_LANG: Lang = 'en';

export const LANG_NAMES: Record<Lang, string> = {
  en: 'English',
  es: 'Español',
  pt: 'Português',
};

/** BCP 47 tags used for <html lang>, hreflang and date formatting. */
export const LANG_TAGS: Record<Lang, string> = { en: 'en', es: 'es', pt: 'pt' };

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGS as readonly string[]).includes(value);
}

/** Where the browser remembers the language a reader chose (src/scripts/site.ts writes, / reads it). */
export const LANG_KEY = 'rollcall:lang';
