import { describe, expect, it } from 'vitest';
import { localDate } from './dates.ts';

describe('localDate', () => {
  it('turns at local midnight in zones with quarter- and half-hour offsets, also when asked again within the quarter hour', () => {
    // Asia/Kathmandu is UTC+5:45: local midnight of 2026-03-11 is 2026-03-10T18:15Z.
    for (const [instant, day] of [
      ['2026-03-10T18:14:59.999Z', '2026-03-10'],
      ['2026-03-10T18:00:00.000Z', '2026-03-10'],
      ['2026-03-10T18:15:00.000Z', '2026-03-11'],
      ['2026-03-10T18:29:59.999Z', '2026-03-11'],
      ['2026-03-10T18:14:00.000Z', '2026-03-10'],
    ]) {
      expect([instant, localDate(new Date(instant), 'Asia/Kathmandu')]).toEqual([instant, day]);
    }
    // America/St_Johns is UTC-2:30 in summer: local midnight of 2026-07-02 is 2026-07-02T02:30Z.
    expect(localDate(new Date('2026-07-02T02:29:59.000Z'), 'America/St_Johns')).toBe('2026-07-01');
    expect(localDate(new Date('2026-07-02T02:30:00.000Z'), 'America/St_Johns')).toBe('2026-07-02');
    expect(localDate(new Date('2026-07-02T02:30:00.000Z'), 'UTC')).toBe('2026-07-02');
    expect(localDate(new Date('2026-07-02T02:30:00.000Z'), 'America/Bogota')).toBe('2026-07-01');
  });
});
