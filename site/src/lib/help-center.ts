/**
 * The help center's outline for one language: sections, then clusters, then articles, as the help index,
 * the home page and the search page show it. Sections come in the order of their most important article
 * (lowest priority number), so "Getting started" leads without hard-coding names. Grouping goes by the name
 * shown on the page, so an English fallback joins the translated articles of its section.
 */
import type { Label } from '../i18n/help-labels.ts';
import type { Lang } from '../i18n/langs.ts';
import { helpPlace, localizedFor, tagSlug, type Localized } from './entries.ts';

export interface HelpCluster {
  label: Label;
  items: Localized<'help'>[];
}

export interface HelpSection {
  label: Label;
  /** Anchor on the help index page: /<lang>/help/#<id>. */
  id: string;
  clusters: HelpCluster[];
}

/** The anchor of a section on the help index page. */
export function sectionAnchor(name: string): string {
  return tagSlug(name) || 'section';
}

const rank = (p: string | number | undefined) => (p === undefined || !Number.isFinite(Number(p)) ? Infinity : Number(p));

// Every help page shows its section in the sidebar: work the outline out once per language per build.
const outlines = new Map<Lang, Promise<HelpSection[]>>();

export function helpOutline(lang: Lang): Promise<HelpSection[]> {
  if (!outlines.has(lang)) outlines.set(lang, buildOutline(lang));
  return outlines.get(lang)!;
}

async function buildOutline(lang: Lang): Promise<HelpSection[]> {
  const sections = new Map<string, { label: Label; clusters: Map<string, HelpCluster>; rank: number }>();
  // localizedFor keeps the index order (section, then priority), so clusters and articles come out in order.
  for (const item of await localizedFor('help', lang)) {
    const { section, cluster } = helpPlace(item);
    let s = sections.get(section.text);
    if (!s) sections.set(section.text, (s = { label: section, clusters: new Map(), rank: Infinity }));
    s.rank = Math.min(s.rank, rank(item.entry.data.priority));
    let c = s.clusters.get(cluster.text);
    if (!c) s.clusters.set(cluster.text, (c = { label: cluster, items: [] }));
    c.items.push(item);
  }
  return [...sections.values()]
    .sort((a, b) => a.rank - b.rank)
    .map((s) => ({ label: s.label, id: sectionAnchor(s.label.text), clusters: [...s.clusters.values()] }));
}
