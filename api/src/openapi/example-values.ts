/**
 * Recorded examples show documentation values, not the test run's: the tests' servers and receivers listen on
 * 127.0.0.1 at a random port, and their addresses are made up in `.test` domains, some with a random suffix and
 * some in capitals (to test case folding). `npm run examples` passes every recorded body through this before
 * writing it, so the reference never shows `https://127.0.0.1:32953/hook` or `OTTO@acme.test`:
 * - the API's own URLs (plain http on a loopback address) become `https://rollcall.example.com`;
 * - a receiver's (https on a loopback address: webhooks and workflow requests) becomes `https://hooks.example.com`;
 * - e-mail addresses are lower-case, and a `.test` domain becomes one under example.com, its random suffix dropped
 *   (`mia@acme-0-5218952233259092.test` → `mia@acme.example.com`).
 */
const LOOPBACK_URL = /\b(https?):\/\/(?:127\.0\.0\.1|localhost|\[::1\])(?::\d+)?/g;
const EMAIL = /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+\b/g;

function documentationEmail(address: string): string {
  const [local, domain] = address.toLowerCase().split('@');
  if (!domain.endsWith('.test')) return `${local}@${domain}`;
  const name = domain.slice(0, -'.test'.length).replace(/(-\d+)+$/, '');
  return `${local}@${name}.example.com`;
}

export function documentationText(text: string): string {
  return text
    .replace(LOOPBACK_URL, (_url, scheme: string) => (scheme === 'http' ? 'https://rollcall.example.com' : 'https://hooks.example.com'))
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
