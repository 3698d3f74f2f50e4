import type { AnyObjectSchema, SchemaDescription } from 'yup';

export type JsonSchema = Record<string, unknown>;

type Described = SchemaDescription & {
  fields?: Record<string, Described>;
  innerType?: Described;
  tests: { name?: string; params?: Record<string, unknown> }[];
};

/** yup test name → JSON Schema format (`date` and `date-time` are the tests of http/fields.ts). */
const FORMATS: Record<string, string> = { email: 'email', url: 'uri', uuid: 'uuid', datetime: 'date-time', 'date-time': 'date-time', date: 'date' };

/** Request-body schemas in the OpenAPI document come from the same yup schemas that validate them. */
function convert(d: Described): JsonSchema {
  const out: JsonSchema = {};
  const tests = Object.fromEntries(d.tests.filter((t) => t.name).map((t) => [t.name!, t.params ?? {}]));
  switch (d.type) {
    case 'object': {
      const fields = d.fields ?? {};
      out.type = 'object';
      if (Object.keys(fields).length > 0) {
        out.properties = Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, convert(field)]));
        const required = Object.entries(fields).filter(([, f]) => !f.optional).map(([name]) => name);
        if (required.length) out.required = required;
        out.additionalProperties = false;
      }
      break;
    }
    case 'array':
      out.type = 'array';
      if (d.innerType) out.items = convert(d.innerType);
      if (tests.max) out.maxItems = tests.max.max;
      if (tests.min) out.minItems = tests.min.min;
      break;
    case 'string':
      out.type = 'string';
      if (tests.max) out.maxLength = tests.max.max;
      if (tests.min) out.minLength = tests.min.min;
      for (const [test, format] of Object.entries(FORMATS)) if (tests[test]) out.format = format;
      break;
    case 'number':
      out.type = tests.integer ? 'integer' : 'number';
      if (tests.min) out.minimum = tests.min.min;
      if (tests.max) out.maximum = tests.max.max;
      break;
    case 'boolean':
      out.type = 'boolean';
      break;
    case 'mixed':
      // jsonObjectField (http/fields.ts): a free-form object; other mixed fields take any JSON value.
      if (tests['json-object']) out.type = 'object';
      break;
    default:
      break;
  }
  const choices = (d.oneOf ?? []).filter((v) => v !== undefined && v !== null);
  // A nullable choice takes null too: an enum without it would refuse what the type allows.
  if (choices.length) out.enum = d.nullable ? [...choices, null] : choices;
  if (d.nullable && typeof out.type === 'string') out.type = [out.type, 'null'];
  if (d.label) out.description = d.label;
  return out;
}

export function yupToJsonSchema(schema: AnyObjectSchema): JsonSchema {
  return convert(schema.describe() as Described);
}
