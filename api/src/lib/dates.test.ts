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
    for (const day of ['2026-01-31', '2024-02-29', '2000-02-29', '0000-02-29', '2026-12-31', '0001-01-01']) expect([day, isCalendarDate(day)]).toEqual([day, true]);
    for (const day of ['2026-02-29', '2100-02-29', '2026-02-30', '2026-13-01', '2026-00-10', '2026-04-31', '2026-1-01', '10-03-2026', 'yesterday', '']) {
      expect([day, isCalendarDate(day)]).toEqual([day, false]);
    }
    expect(parseDateTime('2026-03-10T15:00:00Z')?.toISOString()).toBe('2026-03-10T15:00:00.000Z');
    expect(parseDateTime('2024-02-29T23:59:59.999Z')?.toISOString()).toBe('2024-02-29T23:59:59.999Z');
    for (const value of [
      '2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z', '9999-12-31T99:99:99Z', '2026-03-10T24:00:00Z', '2026-03-10T15:00:60Z',
      '2026-03-10T15:00Z', '2026-03-10', '2026-03-10 15:00:00Z', '2026-03-10T15:00:00', '2026-03-10T15:00:00+24:00',
      '2026-03-10T15:00:00+01:60', '2026-03-10T15:00:00+0100', '2026-03-10T15:00:00.Z', '2026-03-10T15:00:00.1234567890Z',
      '+275760-09-13T00:00:00Z', '0000-01-01T00:00:00+00:01', '9999-12-31T23:59:59-00:01', '２０２６-03-10T15:00:00Z',
    ]) {
      expect([value, parseDateTime(value)]).toEqual([value, null]);
    }
  });

  it('reads offsets and fractions as the instant they name, in the API\'s own form', () => {
    for (const [value, instant] of [
      ['2026-03-10T17:00:00+02:00', '2026-03-10T15:00:00.000Z'],
      ['2026-03-10T09:30:00-05:30', '2026-03-10T15:00:00.000Z'],
      ['2026-03-10T15:00:00-00:00', '2026-03-10T15:00:00.000Z'],
      ['2026-03-01T00:30:00+01:00', '2026-02-28T23:30:00.000Z'],
      ['2024-02-29T23:00:00-01:00', '2024-03-01T00:00:00.000Z'],
      ['2026-03-10T15:00:00.5Z', '2026-03-10T15:00:00.500Z'],
      ['2026-03-10T15:00:00.123456+00:00', '2026-03-10T15:00:00.123Z'],
      ['0000-01-01T00:00:00Z', '0000-01-01T00:00:00.000Z'],
      ['9999-12-31T23:59:59.999999999Z', '9999-12-31T23:59:59.999Z'],
      ['0099-12-31T23:59:59+00:00', '0099-12-31T23:59:59.000Z'],
    ]) {
      expect([value, parseDateTime(value)?.toISOString()]).toEqual([value, instant]);
    }
  });

  it('agrees with the calendar on every day of a leap year and a common one (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), (year, month, day) => {
        const text = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
        // Date.UTC reads years 0–99 as 1900–1999: the Gregorian calendar repeats every 400 years.
        const shifted = 2000 + (year % 400);
        const real = month >= 1 && month <= 12 && day >= 1 && new Date(Date.UTC(shifted, month - 1, day)).getUTCMonth() === month - 1;
        expect(isCalendarDate(text)).toBe(real);
        expect(parseDateTime(`${text}T12:00:00Z`) !== null).toBe(real);
      }),
      { seed: 14, numRuns: 2000 },
    );
  });

  /** Strings shaped like date-times, each field sometimes out of range (with whether it names a real instant), and anything at all. */
  const twoDigits = (max: number) => fc.integer({ min: 0, max });
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const ZONES: [zone: string, valid: boolean][] = [['Z', true], ['+00:00', true], ['-00:00', true], ['+02:00', true], ['-05:30', true], ['+23:59', true], ['-24:00', false], ['+05:60', false], ['z', false], ['', false]];
  const dateTimeLike: fc.Arbitrary<{ value: string; real?: boolean }> = fc.oneof(
    fc
      .tuple(
        fc.integer({ min: 0, max: 9999 }), twoDigits(13), twoDigits(32), twoDigits(25), twoDigits(61), twoDigits(61),
        fc.option(fc.stringMatching(/^\.\d{0,10}$/), { nil: '' }),
        fc.constantFrom(...ZONES),
      )
      .map(([y, mo, d, h, mi, s, fraction, [zone, zoneValid]]) => {
        const value = `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}${fraction}${zone}`;
        // An independent reading of the calendar: Date.UTC on the same day of the 400-year cycle.
        const dayExists = mo >= 1 && mo <= 12 && d >= 1 && new Date(Date.UTC(2000 + (y % 400), mo - 1, d)).getUTCDate() === d;
        const fractionValid = fraction === '' || (fraction.length >= 2 && fraction.length <= 10);
        const inRange = !Number.isNaN(Date.parse(value)) && Date.parse(value) >= Date.parse('0000-01-01T00:00:00Z') && Date.parse(value) <= Date.parse('9999-12-31T23:59:59.999Z');
        return { value, real: dayExists && h <= 23 && mi <= 59 && s <= 59 && fractionValid && zoneValid && inRange };
      }),
    fc.string({ maxLength: 40 }).map((value) => ({ value })),
    fc.date({ min: new Date(-62_167_219_200_000), max: new Date(253_402_300_799_999), noInvalidDate: true }).map((d) => ({ value: d.toISOString(), real: true })),
  );

  it('parses any string to a real instant that reads back as itself, or refuses it (property)', () => {
    fc.assert(
      fc.property(dateTimeLike, ({ value, real }) => {
        const parsed = parseDateTime(value);
        if (real !== undefined) expect([value, parsed !== null]).toEqual([value, real]);
        if (parsed === null) return;
        // The instant is the one the text names (V8's own ISO reader agrees where the text is valid) …
        expect(parsed.getTime()).toBe(Date.parse(value));
        // … and the API's form of it reads back as the same instant, in the same form.
        expect(parseDateTime(parsed.toISOString())?.toISOString()).toBe(parsed.toISOString());
      }),
      { seed: 14, numRuns: 5000 },
    );
  });
});
