import * as yup from 'yup';
import { isPlainObject } from '../lib/json.ts';

/**
 * A fast accept path for request bodies, compiled from the yup schemas themselves (yup stays the only place a
 * rule is written). yup's validate() costs 10–40 µs for a small body (31 µs for an agent report, measured),
 * most of it promises and closures per field; this check costs about a microsecond.
 *
 * It may only say "valid": `accepts(schema, value)` is true only when the value passes yup's strict validation
 * and `schema.cast()` would return it unchanged. Anything it does not fully understand (a custom test, a
 * condition, a default it would have to fill in, a type it does not know) answers false, and the caller runs
 * yup, which then produces the exact error messages. Being stricter than yup only costs time; being looser
 * would let bad input in, so every rule below errs towards false. A test checks this against yup on every
 * schema of the app (fast-validation.test.ts).
 */
type Check = (value: unknown) => boolean;

const never: Check = () => false;
const compiled = new WeakMap<yup.Schema, Check>();

export function accepts(schema: yup.Schema, value: unknown): boolean {
  let check = compiled.get(schema);
  if (!check) {
    check = compile(schema) ?? never;
    compiled.set(schema, check);
  }
  return check(value);
}

interface TestDescription {
  name?: string;
  params?: Record<string, unknown>;
}

/** One rule per yup test name this module understands; a schema with any other test is not compiled. */
function valueTest(type: string, test: TestDescription): Check | null | 'skip' {
  const params = test.params ?? {};
  switch (test.name) {
    case 'required':
      // Absent values are handled by the caller; here only yup's "non-empty string" part remains.
      return type === 'string' ? (v) => v !== '' : 'skip';
    case 'max':
      if (typeof params.max !== 'number') return null;
      if (type === 'string' || type === 'array') return (v) => (v as { length: number }).length <= (params.max as number);
      if (type === 'number') return (v) => (v as number) <= (params.max as number);
      return null;
    case 'min':
      if (typeof params.min !== 'number') return null;
      if (type === 'string' || type === 'array') return (v) => (v as { length: number }).length >= (params.min as number);
      if (type === 'number') return (v) => (v as number) >= (params.min as number);
      return null;
    case 'integer':
      return type === 'number' ? (v) => Number.isInteger(v) : null;
    case 'json-object':
      return type === 'mixed' ? isPlainObject : null;
    case 'matches': {
      const regex = params.regex;
      if (type !== 'string' || !(regex instanceof RegExp)) return null;
      const excludeEmpty = params.excludeEmptyString === true;
      return (v) => (excludeEmpty && v === '') || (v as string).search(regex) !== -1;
    }
    default:
      return null;
  }
}

const TYPE_CHECKS: Record<string, Check> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
  object: (v) => v !== null && typeof v === 'object' && !Array.isArray(v),
  array: (v) => Array.isArray(v),
  // Anything; its tests decide (only jsonObjectField's is understood).
  mixed: () => true,
};

/** The transforms a schema of each type starts with; one more (trim, a date-time's normal form) can change the value. */
const BASE_TRANSFORMS: Record<string, number> = Object.fromEntries(
  [yup.string(), yup.number(), yup.boolean(), yup.mixed(), yup.object(), yup.array()].map((s) => [s.type, s.transforms.length]),
);

function compile(schema: yup.Schema): Check | null {
  // Conditions (when) and lazy schemas are resolved per value by yup; they are not described statically.
  if (!(schema instanceof yup.Schema) || (schema as unknown as { conditions: unknown[] }).conditions.length > 0) return null;
  const description = schema.describe() as yup.SchemaDescription & { oneOf: unknown[]; notOneOf: unknown[] };
  const isType = TYPE_CHECKS[description.type];
  if (!isType || description.notOneOf.length > 0) return null;
  if (schema.transforms.length !== BASE_TRANSFORMS[description.type]) return null;
  const hasRequired = description.tests.some((t) => t.name === 'required');
  const allowsUndefined = description.optional && !hasRequired;
  const allowsNull = description.nullable && !hasRequired;

  const tests: Check[] = [];
  for (const test of description.tests as TestDescription[]) {
    const check = valueTest(description.type, test);
    if (check === null) return null;
    if (check !== 'skip') tests.push(check);
  }
  const oneOf = description.oneOf;
  if (oneOf.some((v) => v !== null && typeof v === 'object')) return null; // references
  if (oneOf.length > 0) tests.push((v) => oneOf.includes(v));

  let children: Check | null = null;
  if (schema instanceof yup.ObjectSchema) children = compileFields(schema);
  else if (schema instanceof yup.ArraySchema) children = compileItems(schema);
  if (children === null && (schema instanceof yup.ObjectSchema || schema instanceof yup.ArraySchema)) return null;

  return (value) => {
    if (value === undefined) return allowsUndefined;
    if (value === null) return allowsNull;
    if (!isType(value)) return false;
    for (const test of tests) if (!test(value)) return false;
    return children === null || children(value);
  };
}

/** Each declared field; an absent field must have no default (cast would fill it in). */
function compileFields(schema: yup.ObjectSchema<yup.AnyObject>): Check | null {
  const entries: [string, Check, boolean][] = [];
  for (const [key, field] of Object.entries(schema.fields as Record<string, yup.Schema>)) {
    const check = compile(field);
    if (!check) return null;
    entries.push([key, check, field.getDefault() === undefined]);
  }
  return (value) => {
    const object = value as Record<string, unknown>;
    for (const [key, check, noDefault] of entries) {
      const field = Object.hasOwn(object, key) ? object[key] : undefined;
      if (field === undefined && !noDefault) return false;
      if (!check(field)) return false;
    }
    return true;
  };
}

function compileItems(schema: yup.ArraySchema<unknown[] | undefined, yup.AnyObject>): Check | null {
  if (!schema.innerType) return () => true;
  const item = compile(schema.innerType as yup.Schema);
  if (!item) return null;
  return (value) => (value as unknown[]).every((v) => item(v));
}
