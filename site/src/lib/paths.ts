/** getStaticPaths helper for the per-language routes. */
import { LANGS } from '../i18n/langs.ts';

export function langPaths() {
  return LANGS.map((lang) => ({ params: { lang } }));
}
