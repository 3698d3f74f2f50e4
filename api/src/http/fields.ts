import * as yup from 'yup';
import { isCalendarDate, isDateTime } from '../lib/dates.ts';
import { isValidTimeZone } from '../lib/time.ts';

/** Body fields the features' schemas share. Each keeps yup's own tests where it can (fast-validation.ts compiles those). */

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** yup's own uuid() predates version 7; ours are v7 (CONTRACT §2). */
export const uuidField = () => yup.string().matches(UUID_PATTERN, { message: 'Must be a valid UUID.', excludeEmptyString: false });

/** A `YYYY-MM-DD` day that exists (lib/dates.ts). */
export const dateField = () =>
  yup.string().test('date', 'Must be a date as YYYY-MM-DD.', (value) => value === undefined || value === null || isCalendarDate(value));

/** A UTC date-time `YYYY-MM-DDTHH:MM:SS[.fff]Z` that exists (lib/dates.ts). */
export const dateTimeField = () =>
  yup
    .string()
    .test('date-time', 'Must be a UTC date-time as YYYY-MM-DDTHH:MM:SSZ.', (value) => value === undefined || value === null || isDateTime(value));

export const timezoneField = () =>
  yup.string().test('timezone', 'Must be an IANA time zone, for example Europe/Madrid.', (value) => value === undefined || isValidTimeZone(value));
