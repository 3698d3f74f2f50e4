import net from 'node:net';
import { isForbiddenAddress } from '../outbound/address-policy.ts';

/**
 * Recorded examples show documentation values, not the test run's: the tests' servers and receivers listen on
 * 127.0.0.1 at a random port, and their addresses are made up in `.test` domains, some with a random suffix and
 * some in capitals (to test case folding). `npm run examples` passes every recorded string (keys too) through this
 * before writing it, so the reference never shows `https://127.0.0.1:32953/hook`, `127.0.0.1` or `OTTO@acme.test`:
 * - the API's own URLs (plain http on a loopback or private address, or localhost) become
 *   `https://rollcall.example.com`;
 * - a receiver's (https on such an address: webhooks and workflow requests) becomes `https://hooks.example.com`;
 * - such an address anywhere else in a string, with or without a port, becomes `hooks.example.com`: a name taken
 *   from a receiver's URL (a webhook's default name is its URL's host). "Such an address" is any the outbound
 *   policy refuses as not public (outbound/address-policy.ts), so no private one escapes by its range;
 * - e-mail addresses are lower-case, and a `.test` domain becomes one under example.com, its random suffix dropped
 *   (`mia@acme-0-5218952233259092.test` → `mia@acme.example.com`).
 */
const HOST = String.raw`(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9A-Fa-f:.]+\]|localhost)`;
const URL_ON_HOST = new RegExp(String.raw`\b(https?):\/\/(${HOST})(?::\d+)?`, 'g');
/** A host standing alone: not part of a longer number, name or address (`v1.2.3.4.5`, `a.localhost.dev`). */
const BARE_HOST = new RegExp(String.raw`(?<![\w.:\[\]-])(${HOST}|(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f.]*)(?::\d+)?(?![\w.:\]-])`, 'g');
const EMAIL = /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+\b/g;

/** localhost, or an IP address that is not a public one (loopback, private, link-local, …). */
const isLocal = (host: string): boolean => {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare.toLowerCase() === 'localhost' || (net.isIP(bare) !== 0 && isForbiddenAddress(bare));
};

function documentationEmail(address: string): string {
  const [local, domain] = address.toLowerCase().split('@');
  if (!domain.endsWith('.test')) return `${local}@${domain}`;
  const name = domain.slice(0, -'.test'.length).replace(/(-\d+)+$/, '');
  return `${local}@${name}.example.com`;
}

export function documentationText(text: string): string {
  return text
    .replace(URL_ON_HOST, (url, scheme: string, host: string) => (!isLocal(host) ? url : scheme === 'http' ? 'https://rollcall.example.com' : 'https://hooks.example.com'))
    .replace(BARE_HOST, (found, host: string) => (isLocal(host) ? 'hooks.example.com' : found))
    .replace(EMAIL, documentationEmail);
}

/** Every string of a JSON value (keys included) in documentation values. */
export function documentationValues<T>(value: T): T {
  if (typeof value === 'string') return documentationText(value) as T;
  if (Array.isArray(value)) return value.map((item) => documentationValues(item)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [documentationText(key), documentationValues(item)])) as T;
  }
  return value;
}
