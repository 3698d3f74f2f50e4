import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../lib/logger.ts';
import { AccessLog } from './access-log.ts';

describe('AccessLog', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function setup(options?: { maxDelayMs?: number; maxChars?: number }) {
    const chunks: string[] = [];
    const logger = createLogger('info', { write: (chunk: string) => void chunks.push(chunk) });
    return { chunks, log: new AccessLog(logger, options) };
  }

  it('holds lines until maxDelayMs after the first, then writes them as one chunk', () => {
    vi.useFakeTimers();
    const { chunks, log } = setup({ maxDelayMs: 100 });
    log.write('{"a":1}\n');
    vi.advanceTimersByTime(60);
    log.write('{"a":2}\n');
    expect(chunks).toEqual([]);
    vi.advanceTimersByTime(40);
    expect(chunks).toEqual(['{"a":1}\n{"a":2}\n']);
    vi.advanceTimersByTime(1000);
    expect(chunks).toHaveLength(1);
  });

  it('writes at once when maxChars are pending, and everything on flush()', () => {
    vi.useFakeTimers();
    const { chunks, log } = setup({ maxChars: 16 });
    log.write('{"line":1}\n');
    expect(chunks).toEqual([]);
    log.write('{"line":2}\n');
    expect(chunks).toEqual(['{"line":1}\n{"line":2}\n']);
    log.write('{"line":3}\n');
    log.flush();
    expect(chunks).toEqual(['{"line":1}\n{"line":2}\n', '{"line":3}\n']);
    log.flush();
    vi.advanceTimersByTime(1000);
    expect(chunks).toHaveLength(2);
  });
});
