/**
 * Interface strings. Content lives in ../content; only chrome (navigation, labels, notices) is here.
 * Every language must define every key: the `satisfies` clause makes a missing key a type error.
 */
import type { Lang } from './langs.ts';
import { WIDGET_STRINGS, type WidgetStrings } from '../widget/strings.ts';

const en = {
  siteName: 'Rollcall',
  tagline: 'Self-hosted team check-ins and agent reporting.',
  skipToContent: 'Skip to content',
  navHome: 'Home',
  navBlog: 'Blog',
  navHelp: 'Help center',
  navMain: 'Main',
  language: 'Language',
  searchPageTitle: 'Search',
  searchNoJs: 'Live search needs JavaScript. Every article is listed below: use your browser’s find (Ctrl+F or ⌘F) to look for a word.',
  latestPosts: 'Latest posts',
  allPosts: 'All posts',
  browseHelp: 'Browse the help center',
  readingTime: '{n} min read',
  tags: 'Tags',
  taggedWith: 'Posts tagged “{tag}”',
  helpIntro: 'Guides for running Rollcall and connecting your team and agents to it.',
  blogIntro: 'News, guides and release notes from the Rollcall team.',
  fallbackNotice: 'This page is not yet available in English. You are reading the English version.',
  notFoundTitle: 'Page not found',
  notFoundBody: 'We could not find that page. Try the search box, or start from one of these:',
  chooseLanguage: 'Choose your language',
  rssFeed: 'RSS feed',
  platforms: 'Platforms',
  featureArea: 'Feature area',
  footer: 'Rollcall is free software you can host yourself.',
  breadcrumb: 'Breadcrumb',
} as const;

type Dict = Record<keyof typeof en, string>;

const es = {
  siteName: 'Rollcall',
  tagline: 'Check-ins de equipo e informes de agentes, en tu propio servidor.',
  skipToContent: 'Ir al contenido',
  navHome: 'Inicio',
  navBlog: 'Blog',
  navHelp: 'Centro de ayuda',
  navMain: 'Principal',
  language: 'Idioma',
  searchPageTitle: 'Buscar',
  searchNoJs: 'La búsqueda en vivo necesita JavaScript. Abajo están todos los artículos: usa la búsqueda del navegador (Ctrl+F o ⌘F) para encontrar una palabra.',
  latestPosts: 'Últimas entradas',
  allPosts: 'Todas las entradas',
  browseHelp: 'Ver el centro de ayuda',
  readingTime: '{n} min de lectura',
  tags: 'Etiquetas',
  taggedWith: 'Entradas con la etiqueta «{tag}»',
  helpIntro: 'Guías para operar Rollcall y conectar a tu equipo y a tus agentes.',
  blogIntro: 'Novedades, guías y notas de versión del equipo de Rollcall.',
  fallbackNotice: 'Esta página aún no está traducida al español. Estás leyendo la versión en inglés.',
  notFoundTitle: 'Página no encontrada',
  notFoundBody: 'No encontramos esa página. Prueba con el buscador o empieza por aquí:',
  chooseLanguage: 'Elige tu idioma',
  rssFeed: 'Feed RSS',
  platforms: 'Plataformas',
  featureArea: 'Área',
  footer: 'Rollcall es software libre que puedes alojar tú mismo.',
  breadcrumb: 'Ruta de navegación',
} as const satisfies Dict;

const pt = {
  siteName: 'Rollcall',
  tagline: 'Check-ins de equipe e relatórios de agentes, no seu próprio servidor.',
  skipToContent: 'Pular para o conteúdo',
  navHome: 'Início',
  navBlog: 'Blog',
  navHelp: 'Central de ajuda',
  navMain: 'Principal',
  language: 'Idioma',
  searchPageTitle: 'Pesquisar',
  searchNoJs: 'A pesquisa ao vivo precisa de JavaScript. Todos os artigos estão listados abaixo: use a busca do navegador (Ctrl+F ou ⌘F) para encontrar uma palavra.',
  latestPosts: 'Publicações recentes',
  allPosts: 'Todas as publicações',
  browseHelp: 'Ver a central de ajuda',
  readingTime: '{n} min de leitura',
  tags: 'Tags',
  taggedWith: 'Publicações com a tag “{tag}”',
  helpIntro: 'Guias para operar o Rollcall e conectar sua equipe e seus agentes.',
  blogIntro: 'Novidades, guias e notas de versão da equipe do Rollcall.',
  fallbackNotice: 'Esta página ainda não foi traduzida para o português. Você está lendo a versão em inglês.',
  notFoundTitle: 'Página não encontrada',
  notFoundBody: 'Não encontramos essa página. Tente a pesquisa ou comece por aqui:',
  chooseLanguage: 'Escolha seu idioma',
  rssFeed: 'Feed RSS',
  platforms: 'Plataformas',
  featureArea: 'Área',
  footer: 'O Rollcall é software livre que você mesmo pode hospedar.',
  breadcrumb: 'Trilha de navegação',
} as const satisfies Dict;

export type UiKey = keyof typeof en;
const DICTS: Record<Lang, Dict> = { en, es, pt };

/** Look up an interface string, replacing `{name}` placeholders. */
export function t(lang: Lang, key: UiKey, vars: Record<string, string | number> = {}): string {
  return DICTS[lang][key].replace(/\{(\w+)\}/g, (_, name: string) => String(vars[name] ?? `{${name}}`));
}

/** Strings the search widget needs at runtime; one source shared with the embeddable bundle. */
export function widgetStrings(lang: Lang): WidgetStrings {
  return WIDGET_STRINGS[lang];
}
