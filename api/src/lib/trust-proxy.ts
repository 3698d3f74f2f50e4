import { BlockList, isIP } from 'node:net';

/**
 * TRUST_PROXY: which connections may tell the API, in X-Forwarded-For, -Proto and -Host, who the client is and
 * which address it asked for. Unset (or `false`, `0`): none, every X-Forwarded-* header is ignored. A whole
 * number N: the N nearest hops are proxies (1: one proxy in front). Otherwise a comma-separated list of proxy
 * addresses and CIDR ranges, IPv4 or IPv6, and the names `loopback`, `linklocal` and `uniquelocal`.
 */
export type TrustProxy = null | { hops: number } | { addresses: string[] };

/** The ranges behind the names the list may use (as Express's `trust proxy` names them). */
const NAMED: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is 10.0.0.1. */
export function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1] : address;
}

function addRange(list: BlockList, entry: string): void {
  const [address, prefixText, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) throw new Error(`"${entry}" is not an address or a CIDR range`);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (prefixText === undefined) return list.addAddress(address, type);
  const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : -1;
  if (prefix < 0 || prefix > (family === 4 ? 32 : 128)) throw new Error(`"${entry}" has a prefix length out of range`);
  list.addSubnet(address, prefix, type);
}

/** Reads TRUST_PROXY; throws with what is wrong (the config names the variable). */
export function parseTrustProxy(value: string | null): TrustProxy {
  if (value === null || /^(false|off|no|0)$/i.test(value)) return null;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 32) throw new Error(`expected at most 32 hops, got ${hops}`);
    return { hops };
  }
  if (/^(true|on|yes)$/i.test(value)) throw new Error('name the proxies (addresses, CIDR ranges, loopback, linklocal, uniquelocal) or a hop count; trusting every client would let anyone choose their address');
  const addresses = value.split(',').map((entry) => entry.trim()).filter(Boolean).flatMap((entry) => NAMED[entry.toLowerCase()] ?? [entry]);
  if (addresses.length === 0) throw new Error('expected proxy addresses, CIDR ranges or a hop count');
  const list = new BlockList();
  for (const entry of addresses) addRange(list, entry); // throws on an entry that is neither
  return { addresses };
}

/** Whether the connection `hop` steps from the server (0: the peer of the socket), at `address`, is a trusted proxy. */
export function proxyTrust(trust: TrustProxy): (address: string, hop: number) => boolean {
  if (trust === null) return () => false;
  if ('hops' in trust) {
    const { hops } = trust;
    return (_address, hop) => hop < hops;
  }
  const list = new BlockList();
  for (const entry of trust.addresses) addRange(list, entry);
  return (address) => {
    const plain = plainAddress(address);
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
  };
}
