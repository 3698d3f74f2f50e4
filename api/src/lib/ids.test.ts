import { beforeAll, describe, expect, it, vi } from 'vitest';

describe('uuidv7', () => {
  // A generator of its own: the one the worker process shares has made ids at later times already (other test
  // files run in the same process, vitest.config.ts), and keeps its order by never going back.
  let uuidv7: typeof import('./ids.ts').uuidv7;
  let isUuid: typeof import('./ids.ts').isUuid;
  beforeAll(async () => {
    vi.resetModules();
    ({ uuidv7, isUuid } = await import('./ids.ts'));
  });

  it('is a version 7, variant 10 UUID carrying the millisecond timestamp', () => {
    const id = uuidv7(Date.parse('2026-03-10T15:00:00.000Z'));
    expect(isUuid(id)).toBe(true);
    expect(id[14]).toBe('7');
    expect(['8', '9', 'a', 'b']).toContain(id[19]);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(Date.parse('2026-03-10T15:00:00.000Z'));
  });

  it('keeps creation order within one millisecond and when the clock stands still', () => {
    const at = Date.parse('2026-03-10T15:00:00.000Z') + 1000;
    const ids = Array.from({ length: 10_000 }, () => uuidv7(at));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
