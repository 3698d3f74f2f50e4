import { createRequire } from 'node:module';

/**
 * Public holidays (issue 36), from date-holidays: the maintained calendars of some 200 countries and their regions,
 * rules included (Easter, "Monday after", substitute days), which a table of our own would get wrong within a year.
 * A calendar is an ISO 3166 country code, optionally with the library's region code: `ES`, `ES-MD`, `US-NY`.
 *
 * The library holds every country's rules in memory (about 10 MB, 0.3 s to load), so it loads on first use: an
 * instance whose check-ins and people name no calendar never loads it. Each calendar's days are worked out once a
 * year and kept (a bounded map).
 */

interface HolidayEntry { date: string; name: string; type: string }
interface HolidaysInstance {
  getCountries(lang?: string): Record<string, string> | undefined;
  getStates(country: string, lang?: string): Record<string, string> | undefined;
  getHolidays(year: number, lang?: string): HolidayEntry[];
}
type HolidaysClass = new (country?: string, state?: string, options?: { types?: string[]; languages?: string[] }) => HolidaysInstance;

let library: HolidaysClass | null = null;
function load(): HolidaysClass {
  // Synchronous, once: body validation (http/fields.ts) checks a calendar code where it cannot wait.
  library ??= createRequire(import.meta.url)('date-holidays') as HolidaysClass;
  return library;
}

const FORM = /^([A-Za-z]{2})(?:-([A-Za-z0-9]{1,3}))?$/;

const known = new Map<string, string | null>();

/** A calendar code as it is stored (upper case), or null when the library has no such country or region. */
export function canonicalCalendar(code: string): string | null {
  let found = known.get(code);
  if (found === undefined) {
    found = lookUp(code);
    if (known.size > 2000) known.clear();
    known.set(code, found);
  }
  return found;
}

function lookUp(code: string): string | null {
  const match = FORM.exec(code);
  if (!match) return null;
  const country = match[1].toUpperCase();
  const region = match[2]?.toUpperCase();
  const directory = new (load())();
  if (!Object.hasOwn(directory.getCountries() ?? {}, country)) return null;
  if (region !== undefined && !Object.hasOwn(directory.getStates(country) ?? {}, region)) return null;
  return region === undefined ? country : `${country}-${region}`;
}

/** Public holidays by local day (`YYYY-MM-DD` → name), per calendar and year. */
const years = new Map<string, Map<string, string>>();

function holidaysOf(calendar: string, year: number): Map<string, string> {
  const key = `${calendar} ${year}`;
  let days = years.get(key);
  if (!days) {
    const [country, region] = calendar.split('-');
    const calendarOf = new (load())(country, region, { types: ['public'], languages: ['en'] });
    days = new Map();
    // `date` is the local day of the calendar ("2026-05-02 00:00:00"); a holiday that starts in the afternoon (some
    // countries' eves) still names its day.
    for (const h of calendarOf.getHolidays(year) ?? []) if (h.type === 'public' && !days.has(h.date.slice(0, 10))) days.set(h.date.slice(0, 10), h.name);
    if (years.size > 2000) years.clear(); // calendar codes come from stored settings; stay bounded
    years.set(key, days);
  }
  return days;
}

/** The public holiday a person has on their local `date`: their own calendar wins over the check-in's. Null: none. */
export function holidayFor(own: string | null | undefined, checkins: string | null | undefined, date: string): string | null {
  const calendar = own ?? checkins;
  return calendar ? holidayOn(calendar, date) : null;
}

/** The public holiday on local day `date` (`YYYY-MM-DD`) in `calendar`, by its English name; null on a working day. */
export function holidayOn(calendar: string, date: string): string | null {
  if (canonicalCalendar(calendar) !== calendar) return null; // a stored value the library no longer knows: no holidays
  return holidaysOf(calendar, Number(date.slice(0, 4))).get(date) ?? null;
}
