/** /api/help.json: the spec's help article records, every published article, by section then priority. */
import { published, langOf, slugOf } from '../../lib/entries.ts';
import { helpRecord } from '../../lib/records.ts';

export async function GET() {
  const records = (await published('help')).map((e) => helpRecord(e.id, langOf(e), slugOf(e), e.data));
  return new Response(JSON.stringify(records), { headers: { 'Content-Type': 'application/json' } });
}
