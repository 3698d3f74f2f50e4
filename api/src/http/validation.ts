import * as yup from 'yup';
import { defaultLocale } from 'yup';
import type { Context, Next } from 'koa';
import { ValidationFailed, unknownField } from '../lib/errors.ts';
import { accepts } from './fast-validation.ts';

/** The schema that applies to `value` (a lazy schema, or one with conditions, is resolved against it). */
const resolved = (schema: yup.Schema, value: unknown, parent: unknown): yup.Schema =>
  schema.resolve({ value, parent }) as yup.Schema;

/**
 * The first body field the schema does not declare, as a dotted path ("schedule.foo", "questions.0.bar"). Keys
 * are looked up as the schema's own fields: `constructor` or `toString` are unknown fields like any other, not
 * members every object inherits.
 */
function findUnknownField(schema: yup.Schema, value: unknown, prefix: string): string | null {
  if (schema instanceof yup.ObjectSchema) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    const fields = schema.fields as Record<string, yup.Schema>;
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (!Object.hasOwn(fields, key)) return path;
      const nested = findUnknownField(resolved(fields[key], child, value), child, path);
      if (nested) return nested;
    }
    return null;
  }
  if (schema instanceof yup.ArraySchema && Array.isArray(value) && schema.innerType) {
    for (let i = 0; i < value.length; i++) {
      const nested = findUnknownField(resolved(schema.innerType as yup.Schema, value[i], value), value[i], `${prefix}.${i}`);
      if (nested) return nested;
    }
  }
  return null;
}

const checkedSchemas = new WeakSet<yup.Schema>();

/**
 * Refuses an object schema without fields: yup's cast looks an object's keys up through the prototype chain
 * (`constructor` is then a field, `__proto__` replaces the prototype), so a free-form object is
 * `jsonObjectField()` (http/fields.ts), which takes any keys as given. Checked once per schema: when a route is
 * built (validateBody), or when parseBody first meets it (routes that call it themselves, such as the Plan's).
 */
export function assertBodySchema(schema: yup.Schema): void {
  if (checkedSchemas.has(schema)) return;
  assertNoFieldlessObjects(schema, '');
  checkedSchemas.add(schema);
}

function assertNoFieldlessObjects(schema: yup.Schema, path: string): void {
  if (schema instanceof yup.ObjectSchema) {
    const fields = Object.entries(schema.fields as Record<string, yup.Schema>);
    if (fields.length === 0) {
      throw new Error(`${path || 'the body'}: an object schema without fields; use jsonObjectField() from http/fields.ts for a free-form object, noBody for no body`);
    }
    for (const [key, child] of fields) assertNoFieldlessObjects(child, path ? `${path}.${key}` : key);
  } else if (schema instanceof yup.ArraySchema && schema.innerType) {
    assertNoFieldlessObjects(schema.innerType as yup.Schema, `${path}.0`);
  }
}

type Params = Record<string, unknown>;
const article = (type: unknown) => (type === 'array' ? 'an array' : type === 'object' ? 'an object' : `a ${type}`);

/**
 * Messages a person can act on, in the style of the field map the spec shows ("field": ["message"]), for yup's
 * built-in checks: each is keyed by the template yup writes by default. The wording is applied here, where a
 * yup error becomes the answer, instead of through yup.setLocale: the locale is captured when a schema is
 * built, so setting it would have to happen before any schema module loads (an import side effect).
 */
const OUR_WORDING: [template: unknown, message: (params: Params) => string][] = [
  [defaultLocale.mixed?.required, () => 'This field is required.'],
  [defaultLocale.mixed?.defined, () => 'This field is required.'],
  [defaultLocale.mixed?.notNull, () => 'This field may not be null.'],
  [defaultLocale.mixed?.notType, ({ type }) => `Must be ${article(type)}.`],
  [defaultLocale.mixed?.oneOf, ({ values }) => `Must be one of: ${values}.`],
  [defaultLocale.string?.max, ({ max }) => `Ensure this field has no more than ${max} characters.`],
  [defaultLocale.string?.min, ({ min }) => `Ensure this field has at least ${min} characters.`],
  [defaultLocale.string?.email, () => 'Enter a valid e-mail address.'],
  [defaultLocale.string?.url, () => 'Enter a valid URL.'],
  [defaultLocale.string?.uuid, () => 'Must be a valid UUID.'],
  [defaultLocale.string?.matches, () => 'Invalid format.'],
  [defaultLocale.number?.min, ({ min }) => `Ensure this value is greater than or equal to ${min}.`],
  [defaultLocale.number?.max, ({ max }) => `Ensure this value is less than or equal to ${max}.`],
  [defaultLocale.number?.integer, () => 'A whole number is required.'],
  [defaultLocale.array?.max, ({ max }) => `Ensure this list has no more than ${max} items.`],
  [defaultLocale.array?.min, ({ min }) => `Ensure this list has at least ${min} items.`],
];

/** Our wording of a problem yup reported with its default message; a schema's own message is kept as written. */
function wordingOf(problem: yup.ValidationError): string[] {
  const params = problem.params as Params | undefined;
  if (!params) return problem.errors;
  for (const [template, message] of OUR_WORDING) {
    if (template !== undefined && yup.ValidationError.formatError(template as string, params) === problem.message) return [message(params)];
  }
  return problem.errors;
}

function toFieldMap(error: yup.ValidationError): Record<string, string[]> {
  const fields: Record<string, string[]> = Object.create(null);
  const problems = error.inner.length > 0 ? error.inner : [error];
  for (const problem of problems) {
    const key = problem.path ? problem.path.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '') : 'non_field_errors';
    (fields[key] ??= []).push(...wordingOf(problem));
  }
  return fields;
}

/**
 * Validates a request body against a yup object schema: unknown fields are refused (400 `unknown_field`),
 * types are checked strictly (JSON "5" is not the number 5), and every problem is reported with its path.
 * Returns the value with the schema's defaults applied.
 */
export async function parseBody<S extends yup.AnyObjectSchema>(schema: S, input: unknown): Promise<yup.InferType<S>> {
  assertBodySchema(schema);
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new ValidationFailed({ non_field_errors: ['Expected a JSON object.'] });
  }
  const unknown = findUnknownField(schema, input, '');
  if (unknown) throw unknownField(unknown);
  // Most bodies are valid: the compiled check accepts them without yup's per-field promises (fast-validation.ts).
  if (accepts(schema, input)) return input as yup.InferType<S>;
  try {
    await schema.validate(input, { strict: true, abortEarly: false });
  } catch (err) {
    if (err instanceof yup.ValidationError) throw new ValidationFailed(toFieldMap(err));
    throw err;
  }
  return schema.cast(input, { stripUnknown: false }) as yup.InferType<S>;
}

/** Write endpoints that take no body still refuse fields (CONTRACT §2: unknown_field on every write endpoint). */
export function noBody(ctx: Context, next: Next): Promise<void> {
  const body = ctx.request.body as unknown;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const [first] = Object.keys(body);
    if (first !== undefined) throw unknownField(first);
  }
  return next();
}

/** Middleware form: the parsed body lands in `ctx.state.body`. */
export function validateBody<S extends yup.AnyObjectSchema>(schema: S) {
  assertBodySchema(schema);
  return async function validate(ctx: Context, next: Next): Promise<void> {
    ctx.state.body = await parseBody(schema, ctx.request.body ?? {});
    await next();
  };
}
