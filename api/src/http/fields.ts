import * as yup from 'yup';
import { isCalendarDate, parseDateTime } from '../lib/dates.ts';
import { isPlainObject } from '../lib/json.ts';
import { isValidTimeZone } from '../lib/time.ts';
import { canonicalCalendar } from '../lib/holidays.ts';

/** Body fields the features' schemas share. Each keeps yup's own tests where it can (fast-validation.ts compiles those). */

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** yup's own uuid() predates version 7; ours are v7 (CONTRACT §2). */
export const uuidField = () => yup.string().matches(UUID_PATTERN, { message: 'Must be a valid UUID.', excludeEmptyString: false });

/** A `YYYY-MM-DD` day that exists (lib/dates.ts). */
export const dateField = () =>
  yup.string().test('date', 'Must be a date as YYYY-MM-DD.', (value) => value === undefined || value === null || isCalendarDate(value));

/**
 * A date-time that exists, `YYYY-MM-DDTHH:MM:SS[.fraction]` with `Z` or an offset such as `+02:00` (lib/dates.ts).
 * The service receives it in the API's own form, UTC with milliseconds (`2026-03-10T13:00:00.000Z`), so stored
 * timestamps compare correctly as text.
 */
export const dateTimeField = () =>
  yup
    .string()
    .test('date-time', 'Must be a date-time as YYYY-MM-DDTHH:MM:SSZ (or with an offset, such as +02:00).', (value) => value === undefined || value === null || parseDateTime(value) !== null)
    .transform((value: unknown) => (typeof value === 'string' ? (parseDateTime(value)?.toISOString() ?? value) : value));

export const timezoneField = () =>
  yup.string().test('timezone', 'Must be an IANA time zone, for example Europe/Madrid.', (value) => value === undefined || value === null || isValidTimeZone(value));

/**
 * A public-holiday calendar (lib/holidays.ts): an ISO 3166 country code, optionally with a region (`ES`, `ES-MD`),
 * in any case; the service receives it upper case. Null clears it.
 */
export const holidayCalendarField = () =>
  yup
    .string()
    .nullable()
    .test('holiday-calendar', 'Must be a country code with a public-holiday calendar, optionally with a region, for example ES or ES-MD.', (value) => value === undefined || value === null || (value.length <= 16 && canonicalCalendar(value) !== null))
    .transform((value: unknown) => (typeof value === 'string' && value.length <= 16 ? (canonicalCalendar(value) ?? value) : value));

/**
 * A free-form JSON object (`metadata` and the like), taken and stored as given: any keys, `constructor` and
 * `__proto__` included. Not yup's object(): its cast reads keys through the prototype chain.
 */
export const jsonObjectField = () =>
  yup.mixed<Record<string, unknown>>().test('json-object', 'Must be an object.', (value) => value === undefined || value === null || isPlainObject(value));

/** What an HTTP header value can carry as given: tab, printable ASCII and Latin-1, no space at either end (it would be trimmed). */
const HEADER_VALUE = /^[\x21-\x7e\xa0-\xff](?:[\t\x20-\x7e\xa0-\xff]*[\x21-\x7e\xa0-\xff])?$/;

/** A secret Rollcall sends back as a request header (X-Webhook-Secret, X-BEARER): refused at once if no request could carry it. */
export const headerValueField = (header: string) =>
  yup
    .string()
    .test('header-value', `Must fit in the ${header} header: no line breaks or other control characters, no characters beyond Latin-1, no spaces at either end.`, (value) => value === undefined || value === null || HEADER_VALUE.test(value));
