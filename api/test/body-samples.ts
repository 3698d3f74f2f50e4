import fc from 'fast-check';
import type * as yup from 'yup';

/**
 * Request bodies generated from the yup schemas the routes validate with (fast-check arbitraries), and the bad
 * variants the robustness test sends: prototype-named keys at every level, free-form objects included, deep
 * nesting, impossible dates in every date field, wrong types.
 */

export const PROTOTYPE_NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', '__proto__'];
export const IMPOSSIBLE_DATES = ['2026-02-30', '2026-13-01T00:00:00Z', '9999-12-31T99:99:99Z', '2027-02-29T12:00:00Z', '2026-02-30T10:00:00+02:00', '24:00'];
const WRONG_TYPES: unknown[] = [5, -1.5, true, 'text', [], {}, null, ['a', 1], { nested: { deeper: [] } }];

type Description = yup.SchemaDescription & {
  oneOf: unknown[];
  fields?: Record<string, Description>;
  innerType?: Description;
  tests: { name?: string; params?: Record<string, unknown> }[];
};

/** What a generated body gets: the ids of real objects (so some bodies reach the code behind the lookups). */
export interface SampleContext {
  uuids: string[];
}

const test = (d: Description, name: string) => d.tests.find((t) => t.name === name)?.params ?? (d.tests.some((t) => t.name === name) ? {} : undefined);

/** A value that often passes the schema: the right type, its choices, lengths, formats; by name where the schema is silent. */
function validValue(d: Description, name: string, context: SampleContext, depth: number): fc.Arbitrary<unknown> {
  const choices = (d.oneOf ?? []).filter((v) => v !== undefined && v !== null);
  if (choices.length > 0) return fc.constantFrom(...choices);
  switch (d.type) {
    case 'string': {
      const max = test(d, 'max')?.max as number | undefined;
      const min = test(d, 'min')?.min as number | undefined;
      const matches = test(d, 'matches')?.regex as RegExp | undefined;
      if (test(d, 'date')) return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((x) => x.toISOString().slice(0, 10));
      if (test(d, 'date-time')) return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((x) => x.toISOString());
      if (test(d, 'timezone')) return fc.constantFrom('UTC', 'Europe/Madrid', 'America/Bogota', 'Asia/Kathmandu');
      if (matches?.source.includes('[0-9a-f]{8}')) return fc.oneof(fc.constantFrom(...context.uuids), fc.uuid({ version: 7 }));
      if (matches) return fc.stringMatching(matches).filter((s) => s.length >= (min ?? 0) && s.length <= (max ?? Infinity));
      if (test(d, 'email') || /email/.test(name)) return fc.constantFrom('new@acme.test', 'ada@example.com');
      if (test(d, 'url') || /url$/.test(name)) return fc.constantFrom('https://203.0.113.10/hook', 'https://hooks.example.test/x');
      if (test(d, 'event')) return fc.constantFrom('followups.response.completed', 'kudos.posted', 'tasks.*');
      return fc.string({ minLength: Math.max(min ?? 0, 1), maxLength: Math.min(max ?? 24, 24) }).filter((s) => s.trim().length > 0);
    }
    case 'number': {
      const min = test(d, 'min')?.min as number | undefined;
      const max = test(d, 'max')?.max as number | undefined;
      return test(d, 'integer') ? fc.integer({ min: min ?? -5, max: max ?? 1000 }) : fc.double({ min: min ?? -5, max: max ?? 1000, noNaN: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'object': {
      const fields = Object.entries(d.fields ?? {});
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, field] of fields) record[key] = validValue(field, key, context, depth + 1);
      const requiredKeys = fields.filter(([, f]) => !f.optional).map(([key]) => key);
      return fc.record(record, { requiredKeys });
    }
    case 'array': {
      const max = Math.min((test(d, 'max')?.max as number | undefined) ?? 3, 3);
      const min = Math.min((test(d, 'min')?.min as number | undefined) ?? 0, max);
      return d.innerType && depth < 6 ? fc.array(validValue(d.innerType, name, context, depth + 1), { minLength: min, maxLength: max }) : fc.constant([]);
    }
    case 'mixed':
      return test(d, 'json-object') ? fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }) : fc.jsonValue({ maxDepth: 2 });
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Places in a generated body where the robustness test plants its bad input. */
interface Sites {
  /** Objects whose keys the schema declares: a prototype-named key there is an unknown field. */
  declared: unknown[][];
  /** Free-form objects (jsonObjectField): prototype-named keys there are legitimate. */
  freeForm: unknown[][];
  /** Date and date-time fields. */
  dates: unknown[][];
  /** Every field. */
  fields: unknown[][];
}

function sitesOf(d: Description, value: unknown, path: unknown[], sites: Sites): Sites {
  if (path.length > 0) sites.fields.push(path);
  if (d.type === 'object' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    sites.declared.push(path);
    for (const [key, field] of Object.entries(d.fields ?? {})) {
      const child = (value as Record<string, unknown>)[key];
      if (Object.hasOwn(value, key) || test(field, 'date') || test(field, 'date-time')) sitesOf(field, child, [...path, key], sites);
    }
  } else if (d.type === 'array' && Array.isArray(value) && d.innerType) {
    value.forEach((item, i) => sitesOf(d.innerType!, item, [...path, i], sites));
  } else if (d.type === 'mixed' && test(d, 'json-object')) {
    sites.freeForm.push(path);
  } else if (d.type === 'string' && (test(d, 'date') || test(d, 'date-time'))) {
    sites.dates.push(path);
  }
  return sites;
}

/** A copy of `body` with `value` at `path`; a `__proto__` key is written as an own key, as JSON.parse makes it. */
function setAt(body: unknown, path: unknown[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const copy = (Array.isArray(body) ? [...body] : { ...(body as Record<string, unknown>) }) as Record<string, unknown>;
  const current = Object.hasOwn(copy, head as string) ? copy[head as string] : {};
  Object.defineProperty(copy, head as string, { value: setAt(current, rest, value), enumerable: true, writable: true, configurable: true });
  return copy;
}

/** No 5xx; `refused`: a 4xx (a 2xx means the bad value was taken); `bad-request`: exactly 400, whatever the route. */
export type Expectation = 'no-5xx' | 'refused' | 'bad-request';
export interface BodyCase {
  what: string;
  raw: string;
  expect: Expectation;
}

/** `levels` objects inside one another, as text (JSON.stringify itself would recurse that deep). */
export const deepJson = (levels: number) => '{"d":'.repeat(levels) + '1' + '}'.repeat(levels);

/**
 * Bodies for one route: generated from its schema, each with one bad variant chosen by fast-check. A prototype-
 * named key in a declared object, or an impossible date, must be refused (a 2xx means it was taken); JSON nested
 * 100 levels, or a NUL character anywhere, is a 400 before anything else; everything else must not be a 5xx.
 */
export function bodyCases(schema: yup.AnyObjectSchema, context: SampleContext, seed: number, count: number): BodyCase[] {
  const d = schema.describe() as Description;
  // Deep nesting is refused before routing, the same on every route: it needs fewer cases than the rest.
  const weighted = (value: string, weight: number) => ({ arbitrary: fc.constant(value), weight });
  const mutation = fc.oneof(weighted('valid', 3), weighted('unknown-key', 3), weighted('free-form-key', 2), weighted('impossible-date', 3), weighted('wrong-type', 3), weighted('deep', 1), weighted('nul', 1));
  const arbitrary = fc.tuple(validValue(d, '', context, 0), mutation, fc.nat(), fc.constantFrom(...PROTOTYPE_NAMES), fc.constantFrom(...IMPOSSIBLE_DATES), fc.constantFrom(...WRONG_TYPES));
  return fc.sample(arbitrary, { seed, numRuns: count }).map(([base, kind, pick, protoName, date, wrong]) => {
    const sites = sitesOf(d, base, [], { declared: [], freeForm: [], dates: [], fields: [] });
    const at = <T>(list: T[]) => list[pick % list.length];
    switch (kind) {
      case 'unknown-key': {
        const path = at(sites.declared);
        return { what: `${protoName} in ${path.join('.') || 'the body'}`, raw: JSON.stringify(setAt(base, [...path, protoName], 'x')), expect: 'refused' };
      }
      case 'free-form-key': {
        if (sites.freeForm.length === 0) break;
        const path = at(sites.freeForm);
        const inner = setAt({}, [protoName], { [protoName]: [1] });
        return { what: `${protoName} inside ${path.join('.')}`, raw: JSON.stringify(setAt(base, [...path, protoName], inner)), expect: 'no-5xx' };
      }
      case 'impossible-date': {
        if (sites.dates.length === 0) break;
        const path = at(sites.dates);
        return { what: `${date} as ${path.join('.')}`, raw: JSON.stringify(setAt(base, path, date)), expect: 'refused' };
      }
      case 'wrong-type': {
        if (sites.fields.length === 0) break;
        const path = at(sites.fields);
        return { what: `${JSON.stringify(wrong)} as ${path.join('.')}`, raw: JSON.stringify(setAt(base, path, wrong)), expect: 'no-5xx' };
      }
      case 'deep': {
        const path = sites.fields.length > 0 ? at(sites.fields) : ['deep'];
        const marker = '"__deep__"';
        const raw = JSON.stringify(setAt(base, path, '__deep__')).replace(marker, deepJson(100));
        return { what: `100 levels as ${path.join('.')}`, raw, expect: 'bad-request' };
      }
      case 'nul': {
        const path = sites.fields.length > 0 ? at(sites.fields) : ['nul'];
        return { what: `a NUL character as ${path.join('.')}`, raw: JSON.stringify(setAt(base, path, 'a\u0000b')), expect: 'bad-request' };
      }
    }
    return { what: 'a generated body', raw: JSON.stringify(base), expect: 'no-5xx' };
  });
}

/** Query parameters every list may read (CONTRACT §2), besides those a route documents. */
const COMMON_PARAMETERS = ['page', 'page_size', 'limit', 'offset', 'since', 'until', 'start_date', 'end_date', 'date', 'search', 'ordering'];
const QUERY_VALUES = [
  ...PROTOTYPE_NAMES, ...IMPOSSIBLE_DATES, '-1', '0', '1e309', 'NaN', '99999999999999999999', 'true', 'maybe', '', 'a', 'x'.repeat(300),
  '%00', 'ab%00cd', '%E0%A4%A', '-created_at', '-__proto__', '-', 'not-a-uuid', '0190c6f2-7a3b-7c1d-8e2f-3a4b5c6d7e8f,nope', '[]', '{"a":1}',
  'me', 'nobody', 'secret',
];

/** Query strings for one route: one to three parameters (its own, the common ones, or prototype-named ones), junk values, sometimes repeated. */
export function queryCases(documented: string[], seed: number, count: number): string[] {
  const names = [...new Set([...documented, ...COMMON_PARAMETERS, ...PROTOTYPE_NAMES])];
  const pair = fc.tuple(fc.constantFrom(...names), fc.constantFrom(...QUERY_VALUES)).map(([name, value]) => `${encodeURIComponent(name)}=${/^%|,/.test(value) ? value : encodeURIComponent(value)}`);
  const queries = fc.sample(fc.array(pair, { minLength: 1, maxLength: 3 }), { seed, numRuns: count }).map((pairs) => `?${pairs.join('&')}`);
  // Each documented parameter with the values that broke things before: a prototype name, an impossible date.
  return [...queries, ...documented.flatMap((name) => [`?${name}=constructor`, `?${name}=2026-02-30`, `?${name}=__proto__&${name}=x`])];
}

/** Path parameters that are not ids at all. */
export const PATH_JUNK = ['__proto__', 'constructor', 'not-a-uuid', '%00', '%E0%A4%A', '..%2F..%2Fetc%2Fpasswd', 'x'.repeat(300)];
