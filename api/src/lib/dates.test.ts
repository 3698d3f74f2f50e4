import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isCalendarDate, localDate, parseDateTime } from './dates.ts';

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

describe('strict dates and date-times', () => {
  it('takes only days and instants that exist', () => {
    for (const day of ['2026-01-31', '2024-02-29', '2026-12-31', '0001-01-01']) expect([day, isCalendarDate(day)]).toEqual([day, true]);
    for (const day of ['2026-02-29', '2026-02-30', '2026-13-01', '2026-00-10', '2026-04-31', '2026-1-01', '10-03-2026', 'yesterday', '']) {
      expect([day, isCalendarDate(day)]).toEqual([day, false]);
    }
    expect(parseDateTime('2026-03-10T15:00:00Z')?.toISOString()).toBe('2026-03-10T15:00:00.000Z');
    expect(parseDateTime('2024-02-29T23:59:59.999Z')?.toISOString()).toBe('2024-02-29T23:59:59.999Z');
    for (const value of ['2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z', '9999-12-31T99:99:99Z', '2026-03-10T24:00:00Z', '2026-03-10T15:00:60Z', '2026-03-10T15:00Z', '2026-03-10T15:00:00+01:00', '2026-03-10']) {
      expect([value, parseDateTime(value)]).toEqual([value, null]);
    }
  });

  it('agrees with the calendar on every day of a leap year and a common one (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1970, max: 2400 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), (year, month, day) => {
        const text = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
        const real = month >= 1 && month <= 12 && day >= 1 && new Date(Date.UTC(year, month - 1, day)).getUTCMonth() === month - 1;
        expect(isCalendarDate(text)).toBe(real);
        expect(parseDateTime(`${text}T12:00:00Z`) !== null).toBe(real);
      }),
    );
  });
});
