/**
 * Display names for the help center's taxonomy, through the same i18n layer as the rest of the chrome.
 *
 * The index records are per language: a Spanish article writes `section: Primeros pasos` in its own front
 * matter, and its record says so. Two cases still need a dictionary:
 *  - an English article shown as the fallback copy on a Spanish or Portuguese page carries its English
 *    `section`/`cluster` ("Self-hosting", "Operations"); the page shows the language's name for them instead,
 *    so the fallback joins the translated articles' group rather than opening an English one;
 *  - `feature_area` and `platforms` are identifiers shared by every language ("self-hosting", "macos"), shown
 *    under a label of the language.
 *
 * A section or cluster written by translated articles must match the name here (test/translations.test.ts
 * checks it), and every English section and cluster needs an entry: a missing one shows the English name,
 * marked lang="en", and that test fails.
 */
import { DEFAULT_LANG, type Lang } from './langs.ts';

type Translations = Record<Exclude<Lang, 'en'>, string>;

/** English section name → its name in the other languages. */
export const SECTION_NAMES: Record<string, Translations> = {
  'Getting started': { es: 'Primeros pasos', pt: 'Primeiros passos' },
  'API and authentication': { es: 'API y autenticación', pt: 'API e autenticação' },
  Agents: { es: 'Agentes', pt: 'Agentes' },
  'Command line': { es: 'Línea de comandos', pt: 'Linha de comando' },
  'Self-hosting': { es: 'Autoalojamiento', pt: 'Auto-hospedagem' },
  'Web app': { es: 'Aplicación web', pt: 'Aplicativo web' },
};

/** English cluster name → its name in the other languages. */
export const CLUSTER_NAMES: Record<string, Translations> = {
  Installation: { es: 'Instalación', pt: 'Instalação' },
  'Your team': { es: 'Tu equipo', pt: 'Sua equipe' },
  'API keys': { es: 'Claves de API', pt: 'Chaves de API' },
  Limits: { es: 'Límites', pt: 'Limites' },
  Integrations: { es: 'Integraciones', pt: 'Integrações' },
  Reporting: { es: 'Informes', pt: 'Relatórios' },
  Health: { es: 'Salud', pt: 'Saúde' },
  Messaging: { es: 'Mensajería', pt: 'Mensagens' },
  'Operator commands': { es: 'Comandos de operador', pt: 'Comandos de operador' },
  Client: { es: 'Cliente', pt: 'Cliente' },
  Operations: { es: 'Operación', pt: 'Operação' },
  'Using the app': { es: 'Usar la aplicación', pt: 'Usar o aplicativo' },
  'Connecting agents': { es: 'Conectar agentes', pt: 'Conectar agentes' },
};

/** `feature_area` identifier → its label in each language. */
export const FEATURE_AREA_NAMES: Record<string, Record<Lang, string>> = {
  agents: { en: 'Agents', es: 'Agentes', pt: 'Agentes' },
  api: { en: 'API', es: 'API', pt: 'API' },
  authentication: { en: 'Authentication', es: 'Autenticación', pt: 'Autenticação' },
  chat: { en: 'Chat', es: 'Chat', pt: 'Chat' },
  'check-ins': { en: 'Check-ins', es: 'Check-ins', pt: 'Check-ins' },
  cli: { en: 'Command line', es: 'Línea de comandos', pt: 'Linha de comando' },
  'self-hosting': { en: 'Self-hosting', es: 'Autoalojamiento', pt: 'Auto-hospedagem' },
  webhooks: { en: 'Webhooks', es: 'Webhooks', pt: 'Webhooks' },
};

/** `platforms` identifiers are product names, the same in every language; only their spelling is fixed. */
export const PLATFORM_NAMES: Record<string, string> = {
  api: 'API', cli: 'CLI', discord: 'Discord', docker: 'Docker', google_chat: 'Google Chat', linux: 'Linux', macos: 'macOS', mattermost: 'Mattermost', microsoft_teams: 'Microsoft Teams', slack: 'Slack', windows: 'Windows',
};

/** A label and, when it is not in the page's language, the language it is in (for a lang attribute). */
export interface Label {
  text: string;
  lang?: Lang;
}

/**
 * How to show a section or cluster value written by an entry in `entryLang` on a page in `pageLang`: as
 * written when the languages agree, else the dictionary's name, else the English value marked as English.
 */
function place(names: Record<string, Translations>, value: string, entryLang: Lang, pageLang: Lang): Label {
  if (entryLang === pageLang) return { text: value };
  const translated = pageLang === DEFAULT_LANG ? undefined : names[value]?.[pageLang as Exclude<Lang, 'en'>];
  return translated ? { text: translated } : { text: value, lang: entryLang };
}

export const sectionLabel = (value: string, entryLang: Lang, pageLang: Lang) => place(SECTION_NAMES, value, entryLang, pageLang);
export const clusterLabel = (value: string, entryLang: Lang, pageLang: Lang) => place(CLUSTER_NAMES, value, entryLang, pageLang);

export function featureAreaLabel(value: string, lang: Lang): Label {
  const names = FEATURE_AREA_NAMES[value];
  return names ? { text: names[lang] } : { text: value };
}

export function platformLabel(value: string): string {
  return PLATFORM_NAMES[value] ?? value;
}
