import dns from 'node:dns';
import net from 'node:net';

/**
 * Where outbound requests may go (CONTRACT §10): HTTPS only, and never to a private, loopback, link-local,
 * CGNAT, IPv4-mapped or otherwise special address, unless ALLOW_PRIVATE_WEBHOOKS=true. Checked when a URL is
 * registered and again when the connection is made (DNS may answer differently the second time).
 */
const blocked = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(network, prefix, 'ipv4');
const blocked6 = new net.BlockList();
for (const [network, prefix] of [
  ['::', 127], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['2002::', 16],
  ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) blocked6.addSubnet(network, prefix, 'ipv6');

/** True for every address a webhook may not reach (anything that is not a public unicast address). */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  const family = net.isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family === 6) {
    // IPv4-mapped and IPv4-compatible forms (::ffff:a00:1, ::ffff:127.0.0.1): always refused.
    if (/^(0{0,4}:){0,5}:?ffff:/.test(bare) || /^::ffff:/.test(bare) || /^::(\d|[0-9a-f]{1,4}:[0-9a-f]{1,4}$)/.test(bare)) return true;
    return blocked6.check(bare, 'ipv6');
  }
  return true;
}

export interface ResolvedAddress {
  address: string;
  family: number;
}
/** DNS resolution, injectable so tests can play a rebinding resolver. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;
export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export class DestinationNotAllowed extends Error {
  readonly code = 'destination_not_allowed';
  constructor(message: string) {
    super(message);
  }
}

export const hostOf = (url: URL): string => url.hostname.replace(/^\[|\]$/g, '');

/**
 * The registration check: a reason the URL is refused, or null. Resolves the host name and refuses when any
 * address it resolves to is forbidden.
 */
export async function refuseUrl(raw: string, options: { allowPrivate: boolean; resolve?: Resolver }): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Enter a valid URL.';
  }
  // ALLOW_PRIVATE_WEBHOOKS lifts the address rule only; with it on, the refusal says so, since an http:// URL to
  // 127.0.0.1 is what a developer tries first.
  if (url.protocol !== 'https:') return options.allowPrivate ? 'Must be an HTTPS URL (ALLOW_PRIVATE_WEBHOOKS allows private addresses, not http://).' : 'Must be an HTTPS URL.';
  if (url.username || url.password) return 'Must not carry a user name or password.';
  if (options.allowPrivate) return null;
  const host = hostOf(url);
  if (net.isIP(host)) return isForbiddenAddress(host) ? 'Must not point to a private, loopback or link-local address.' : null;
  let addresses: ResolvedAddress[];
  try {
    addresses = await (options.resolve ?? systemResolver)(host);
  } catch {
    return 'The host name could not be resolved.';
  }
  if (addresses.length === 0) return 'The host name could not be resolved.';
  if (addresses.some((a) => isForbiddenAddress(a.address))) return 'Must not point to a private, loopback or link-local address.';
  return null;
}

/** Connect-time check of a URL whose host is an IP literal (sockets skip DNS lookup for those). */
export function assertLiteralAllowed(url: URL, allowPrivate: boolean): void {
  if (url.protocol !== 'https:') throw new DestinationNotAllowed('only https:// destinations are allowed');
  const host = hostOf(url);
  if (!allowPrivate && net.isIP(host) && isForbiddenAddress(host)) {
    throw new DestinationNotAllowed(`${host} is a private, loopback or link-local address`);
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | ResolvedAddress[], family?: number) => void;

/** A `lookup` for net/tls.connect that refuses host names resolving to forbidden addresses. */
export function checkingLookup(resolve: Resolver, allowPrivate: boolean) {
  return function lookup(hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void {
    resolve(hostname).then(
      (found) => {
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family) || 0;
        const addresses = family ? found.filter((a) => a.family === family) : found;
        if (addresses.length === 0) {
          const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          err.code = 'ENOTFOUND';
          return callback(err, '');
        }
        if (!allowPrivate && addresses.some((a) => isForbiddenAddress(a.address))) {
          return callback(new DestinationNotAllowed(`${hostname} resolves to a private, loopback or link-local address`), '');
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (err) => callback(err, ''),
    );
  };
}
