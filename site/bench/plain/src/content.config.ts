// Same collections as the real site, without the schemas' refinements: just the glob loader.
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { resolve } from 'node:path';

const base = (name: string) => resolve(process.env.CONTENT_DIR!, name);
const id = ({ entry }: { entry: string }) => entry.replace(/\.mdx$/, '');

export const collections = {
  blog: defineCollection({ loader: glob({ pattern: '**/*.mdx', base: base('blog'), generateId: id }) }),
  help: defineCollection({ loader: glob({ pattern: '**/*.mdx', base: base('help'), generateId: id }) }),
};
