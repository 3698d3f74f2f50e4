/**
 * The few strings the search widget shows. They live here (not in src/i18n/ui.ts) because the embeddable
 * bundle has to carry them for pages that are not ours; the site's search form reuses them.
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
  post: string;
  help: string;
}

export const WIDGET_STRINGS: Record<WidgetLang, WidgetStrings> = {
  en: { label: 'Search the blog and help center', placeholder: 'Search…', button: 'Search', many: '{n} results', one: '1 result', none: 'No results', post: 'Blog', help: 'Help' },
  es: { label: 'Buscar en el blog y el centro de ayuda', placeholder: 'Buscar…', button: 'Buscar', many: '{n} resultados', one: '1 resultado', none: 'Sin resultados', post: 'Blog', help: 'Ayuda' },
  pt: { label: 'Pesquisar no blog e na central de ajuda', placeholder: 'Pesquisar…', button: 'Pesquisar', many: '{n} resultados', one: '1 resultado', none: 'Nenhum resultado', post: 'Blog', help: 'Ajuda' },
};
