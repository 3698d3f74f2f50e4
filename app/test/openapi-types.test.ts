/**
 * The app's API types (src/api-schema.d.ts) are what the API's OpenAPI document says now: a change to an
 * openapi.ts that is not followed by `npm run openapi -w app` fails here, and once run, `npm run typecheck -w app`
 * shows every place in the app the change breaks.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { generateTypes, TYPES_FILE } from '../openapi-types.ts';

it('src/api-schema.d.ts is generated from the current OpenAPI document (else: npm run openapi -w app)', async () => {
  expect(readFileSync(TYPES_FILE, 'utf8') === (await generateTypes()), 'src/api-schema.d.ts is stale: run npm run openapi -w app').toBe(true);
});
