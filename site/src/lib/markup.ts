/**
 * The markup of a list entry's link and of a help label, as strings. EntryLink.astro and Label.astro render
 * these, and the help sidebar (src/components/HelpSidebar.astro) builds its whole list from them once per
 * language and section: every help page shows its section's list, and rendering it as components on each
 * page made the 6,000-entry build benchmark about 15 % slower (sections of ~170 articles × 3,000 pages).
 */
import type { Label } from '../i18n/help-labels.ts';
import type { Lang } from '../i18n/langs.ts';
import { t, widgetStrings } from '../i18n/ui.ts';
import type { HelpSection } from './help-center.ts';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ENTITIES[c]!);

/** A label, marked with its language when it is not the page's. */
export function labelHtml(label: Label): string {
  return label.lang ? `<span lang="${label.lang}">${escapeHtml(label.text)}</span>` : escapeHtml(label.text);
}

/**
 * A link to a post or help article. An English entry standing in for a missing translation is marked twice:
 * its title carries lang="en" (screen readers switch voice) and a visible "In English" badge follows it, in
 * the page's language.
 */
export function entryLinkHtml(lang: Lang, href: string, title: string, fallback: boolean): string {
  const link = fallback
    ? `<a href="${escapeHtml(href)}" hreflang="en"><span lang="en">${escapeHtml(title)}</span></a>`
    : `<a href="${escapeHtml(href)}"><span>${escapeHtml(title)}</span></a>`;
  return fallback ? `${link} <span class="badge" data-in-english>${escapeHtml(widgetStrings(lang).inEnglish)}</span>` : link;
}

const sidebars = new Map<string, string>();

/** The inside of a help article's sidebar: its section's clusters and articles (built once per section). */
export function helpSidebarHtml(lang: Lang, section: HelpSection): string {
  const key = `${lang}/${section.id}`;
  let html = sidebars.get(key);
  if (html === undefined) {
    html = `<h2 id="sidebar-title">${labelHtml(section.label)}</h2>`;
    for (const cluster of section.clusters) {
      html += `<h3>${labelHtml(cluster.label)}</h3><ul>`;
      for (const { slug, entry, fallback } of cluster.items) html += `<li>${entryLinkHtml(lang, `/${lang}/help/${slug}/`, entry.data.title, fallback)}</li>`;
      html += '</ul>';
    }
    html += `<a class="all" href="/${lang}/help/">${escapeHtml(t(lang, 'browseHelp'))}</a>`;
    sidebars.set(key, html);
  }
  return html;
}
