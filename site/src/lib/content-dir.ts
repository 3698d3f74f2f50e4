/**
 * Where the MDX lives. Defaults to the repository's content/ next to site/; CONTENT_DIR overrides it so the
 * build-failure test and the benchmark can build generated content without touching the real folder.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SITE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function contentRoot(): string {
  return process.env.CONTENT_DIR ? resolve(process.env.CONTENT_DIR) : resolve(SITE_ROOT, '../content');
}

export function contentDir(collection: 'blog' | 'help'): string {
  return resolve(contentRoot(), collection);
}
