/**
 * The strings the search widget shows. They live here (not in src/i18n/ui.ts) because the embeddable
 * bundle has to carry them for pages that are not ours; the site's search form and search page reuse them.
 */
export type WidgetLang = 'en' | 'es' | 'pt';

export interface WidgetStrings {
  label: string;
  placeholder: string;
  button: string;
  /** "{n} results" */
  many: string;
  one: string;
  none: string;
  /** Shown when a query finds nothing: "No results for “{q}”." */
  noneFor: string;
  /** Heading of the search page's results: "Results for “{q}”" */
  resultsFor: string;
  /** Link offered with an empty result. */
  browseHelp: string;
  /** Marker on an English entry shown to a Spanish or Portuguese reader (never shown in English). */
  inEnglish: string;
  post: string;
  help: string;
}

export const WIDGET_STRINGS: Record<WidgetLang, WidgetStrings> = {
  en: {
    label: 'Search the blog and help center', placeholder: 'Search…', button: 'Search',
    many: '{n} results', one: '1 result', none: 'No results', noneFor: 'No results for “{q}”.',
    resultsFor: 'Results for “{q}”', browseHelp: 'Browse the help center', inEnglish: 'In English',
    post: 'Blog', help: 'Help',
  },
  es: {
    label: 'Buscar en el blog y el centro de ayuda', placeholder: 'Buscar…', button: 'Buscar',
    many: '{n} resultados', one: '1 resultado', none: 'Sin resultados', noneFor: 'No hay resultados para «{q}».',
    resultsFor: 'Resultados para «{q}»', browseHelp: 'Ver el centro de ayuda', inEnglish: 'En inglés',
    post: 'Blog', help: 'Ayuda',
  },
  pt: {
    label: 'Pesquisar no blog e na central de ajuda', placeholder: 'Pesquisar…', button: 'Pesquisar',
    many: '{n} resultados', one: '1 resultado', none: 'Nenhum resultado', noneFor: 'Nenhum resultado para “{q}”.',
    resultsFor: 'Resultados para “{q}”', browseHelp: 'Ver a central de ajuda', inEnglish: 'Em inglês',
    post: 'Blog', help: 'Ajuda',
  },
};

/** Fill `{name}` placeholders. */
export function fill(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(vars[name] ?? `{${name}}`));
}
