import { randomFillSync } from 'node:crypto';
import { hostname } from 'node:os';

let lastMs = -1;
let sequence = 0;

// Random bytes are drawn from the CSPRNG 4 KiB at a time (as Node's randomUUID does): one call per 200 ids
// instead of two per id, which showed in the profile of the agent-report hot path.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomSlice(size: number): Buffer {
  if (poolOffset + size > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const slice = Buffer.from(pool.subarray(poolOffset, poolOffset + size));
  poolOffset += size;
  return slice;
}

/**
 * UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, a 12-bit sequence, then random bits. Time-ordered
 * ids keep B-tree inserts at the end of the index and make `ORDER BY uuid` follow creation order; the sequence
 * (RFC 9562 method 1) keeps that order for ids made in the same millisecond by this process.
 */
export function uuidv7(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    sequence = randomSlice(2).readUInt16BE(0) & 0x3ff; // leave headroom before the 12 bits overflow
  } else {
    sequence += 1;
    if (sequence > 0xfff) {
      // More than 4096 ids in one millisecond: borrow the next millisecond rather than lose the order.
      lastMs += 1;
      sequence = 0;
    }
  }
  const ms = lastMs;
  const bytes = randomSlice(16);
  bytes[0] = (ms / 2 ** 40) & 0xff;
  bytes[1] = (ms / 2 ** 32) & 0xff;
  bytes[2] = (ms >>> 24) & 0xff;
  bytes[3] = (ms >>> 16) & 0xff;
  bytes[4] = (ms >>> 8) & 0xff;
  bytes[5] = ms & 0xff;
  bytes[6] = 0x70 | (sequence >>> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_RE.test(value);
}

/**
 * Who is claiming, in the claims several processes make on one database (job firings, delivery leases):
 * host, process id and a random part (process ids repeat across restarts and containers). One per claimant.
 */
export function instanceId(): string {
  return `${hostname()}:${process.pid}:${randomSlice(4).toString('hex')}`.slice(-64);
}
