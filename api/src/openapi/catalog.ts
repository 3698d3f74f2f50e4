/**
 * The OpenAPI document, from every feature's openapi.ts and the examples recorded from the tests. Loaded by the
 * app on the first GET /v1/openapi.json only (the descriptions are a good part of the source text, and every
 * TypeScript file loaded costs memory for type stripping); `rollcall precompile` loads it to fill the compile
 * cache.
 */
import fs from 'node:fs';
import path from 'node:path';
import { features } from '../features/index.ts';
import type { OpenApiPart } from '../http/feature.ts';
import { buildOpenApi } from '../http/openapi/document.ts';
import { planDescription, planTags } from '../http/plan/openapi.ts';
import { CHANGELOG } from '../features/meta/changelog.ts';
import type { OperationExample } from '../http/openapi/types.ts';

/** One JSON file per operation, named by its operationId; `npm run examples -w api` writes them. */
export const EXAMPLES_DIR = path.join(import.meta.dirname, 'examples');

/** Every feature's part, in the features' order; the OpenAPI test checks the operations against the routers. */
export async function loadParts(): Promise<OpenApiPart[]> {
  return Promise.all(features.flatMap((feature) => (feature.openapi ? [feature.openapi()] : [])));
}

export function loadExamples(dir = EXAMPLES_DIR): Record<string, OperationExample> {
  const examples: Record<string, OperationExample> = {};
  if (!fs.existsSync(dir)) return examples;
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.json')).sort()) {
    examples[file.slice(0, -'.json'.length)] = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as OperationExample;
  }
  return examples;
}

export async function buildDocument(publicUrl: string | null): Promise<unknown> {
  const parts = await loadParts();
  const operations = parts.flatMap((part) => part.operations);
  return buildOpenApi(
    operations,
    Object.assign({}, ...parts.map((part) => part.schemas ?? {})),
    `${publicUrl ?? ''}/`,
    {
      tags: [...parts.flatMap((part) => part.tags ?? []), ...planTags(operations)],
      examples: loadExamples(),
      moreDescription: planDescription(operations),
      version: CHANGELOG[0].version,
    },
  );
}
