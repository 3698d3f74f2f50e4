/** Small readers over the built site and the content folder, shared by the test files. */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { SITE_ROOT } from './build.ts';

export const CONTENT_ROOT = join(SITE_ROOT, '..', 'content');
export const LANGS = ['en', 'es', 'pt'] as const;

export function readJson<T = unknown>(dir: string, path: string): T {
  return JSON.parse(readFileSync(join(dir, path), 'utf8')) as T;
}

export function readText(dir: string, path: string): string {
  return readFileSync(join(dir, path), 'utf8');
}

export interface ContentFile {
  collection: 'blog' | 'help';
  lang: string;
  slug: string;
  draft: boolean;
  /** Top-level front matter fields, as written (lists `[a, b]` as arrays). Enough for the fields tests read. */
  data: Record<string, string | string[]>;
}

function frontMatter(text: string): Record<string, string | string[]> {
  const data: Record<string, string | string[]> = {};
  for (const line of (text.split(/^---$/m)[1] ?? '').split('\n')) {
    const m = /^(\w+):\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    const value = m[2]!;
    data[m[1]!] = value.startsWith('[') ? value.slice(1, -1).split(',').map((v) => v.trim()).filter(Boolean) : value;
  }
  return data;
}

/** Every MDX file of the real content folder, with its draft flag read from the front matter. */
export function contentFiles(root = CONTENT_ROOT): ContentFile[] {
  const out: ContentFile[] = [];
  for (const collection of ['blog', 'help'] as const) {
    for (const lang of LANGS) {
      const dir = join(root, collection, lang);
      if (!existsSync(dir)) continue;
      for (const file of readdirSync(dir).filter((f) => f.endsWith('.mdx'))) {
        const data = frontMatter(readFileSync(join(dir, file), 'utf8'));
        out.push({ collection, lang, slug: file.replace(/\.mdx$/, ''), draft: data.draft === 'true', data });
      }
    }
  }
  return out;
}

/** Every built HTML file, as a path relative to the site root. */
export function htmlFiles(dir: string, sub = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(dir, sub), { withFileTypes: true })) {
    const rel = sub ? `${sub}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...htmlFiles(dir, rel));
    else if (entry.name.endsWith('.html')) out.push(rel);
  }
  return out;
}
