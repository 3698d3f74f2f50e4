/**
 * The OpenAPI document, from every feature's openapi.ts. Loaded by the app on the first GET /v1/openapi.json
 * only (the descriptions are a good part of the source text, and every TypeScript file loaded costs memory for
 * type stripping); `rollcall precompile` loads it to fill the compile cache.
 */
import { features } from '../features/index.ts';
import type { OpenApiPart } from '../http/feature.ts';
import { buildOpenApi } from '../http/openapi/document.ts';
import { planDescription } from '../http/plan/openapi.ts';

/** Every feature's part, in the features' order; the OpenAPI test checks the operations against the routers. */
export async function loadParts(): Promise<OpenApiPart[]> {
  return Promise.all(features.flatMap((feature) => (feature.openapi ? [feature.openapi()] : [])));
}

export async function buildDocument(publicUrl: string | null): Promise<unknown> {
  const parts = await loadParts();
  const operations = parts.flatMap((part) => part.operations);
  return buildOpenApi(
    operations,
    Object.assign({}, ...parts.map((part) => part.schemas ?? {})),
    `${publicUrl ?? ''}/`,
    parts.flatMap((part) => part.tags ?? []),
    planDescription(operations),
  );
}
