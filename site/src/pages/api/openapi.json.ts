/** /api/openapi.json: the version 1.0.0 description of the two index endpoints (spec "Versioning" item 4). */
import { openApiDocument } from '../../lib/openapi.ts';

export function GET() {
  return new Response(JSON.stringify(openApiDocument(), null, 2), { headers: { 'Content-Type': 'application/json' } });
}
