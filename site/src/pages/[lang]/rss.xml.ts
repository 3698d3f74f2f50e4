/** /<lang>/rss.xml: the posts written in that language (fallback copies are not new content). */
import rss from '@astrojs/rss';
import type { APIContext } from 'astro';
import { LANG_NAMES, type Lang } from '../../i18n/langs.ts';
import { t } from '../../i18n/ui.ts';
import { localizedFor } from '../../lib/entries.ts';
import { langPaths } from '../../lib/paths.ts';

export const getStaticPaths = langPaths;

export async function GET(context: APIContext) {
  const lang = context.params.lang as Lang;
  const posts = (await localizedFor('blog', lang)).filter((p) => !p.fallback);
  return rss({
    title: `${t(lang, 'siteName')} ${t(lang, 'navBlog')} (${LANG_NAMES[lang]})`,
    description: t(lang, 'blogIntro'),
    site: context.site ?? context.url.origin,
    items: posts.map(({ slug, entry }) => ({
      title: entry.data.title,
      description: entry.data.description,
      pubDate: entry.data.pubDate,
      link: `/${lang}/blog/${slug}/`,
      categories: entry.data.tags ?? [],
    })),
    customData: `<language>${lang}</language>`,
  });
}
