/**
 * /api/posts.json: the spec's blog post records, every published post of the three languages, newest first.
 * Built from published() (native entries only), so English fallback copies never appear here.
 */
import { published, langOf, slugOf } from '../../lib/entries.ts';
import { postRecord } from '../../lib/records.ts';

export async function GET() {
  const records = (await published('blog')).map((e) => postRecord(e.id, langOf(e), slugOf(e), e.data));
  return new Response(JSON.stringify(records), { headers: { 'Content-Type': 'application/json' } });
}
