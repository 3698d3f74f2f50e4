import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as yup from 'yup';
import { accepts } from './fast-validation.ts';
import { healthSchema, reportSchema } from '../features/agents/schema.ts';

const FEATURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../features');

/** Every yup object schema exported by a feature's schema.ts (features/<area>/ or deeper), by "area.name". */
async function appSchemas(): Promise<[string, yup.AnyObjectSchema][]> {
  const found: [string, yup.AnyObjectSchema][] = [];
  const schemaFiles = (fs.readdirSync(FEATURES, { recursive: true }) as string[]).filter((f) => path.basename(f) === 'schema.ts').sort();
  for (const relative of schemaFiles) {
    const area = path.dirname(relative).split(path.sep).join('/');
    const file = path.join(FEATURES, relative);
    const module = (await import(file)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      if (value instanceof yup.ObjectSchema) found.push([`${area}.${name}`, value]);
    }
  }
  return found;
}

/** A small deterministic PRNG, so a failure names a value that can be reproduced. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

// Strings that satisfy the app's patterns (uuid, e-mail, date, URL, time zone, time), besides plain ones.
const GOOD_STRINGS = ['a', 'Stand-up', '0190c6f2-7a3b-7c1d-8e2f-3a4b5c6d7e8f', 'ada@example.com', '2026-01-15', '2026-01-15T09:00:00Z', 'https://example.com/hook', 'Europe/Madrid', '09:00', 'text', 'daily'];
const WRONG_TYPES = [undefined, null, 5, 'str', true, {}, []];

/** Values shaped by the schema's description: mostly well-typed, sometimes wrong, below the top (parseBody only passes objects on). */
function sample(description: yup.SchemaDescription, rnd: () => number, depth = 0): unknown {
  if (depth > 0 && rnd() < 0.12) return WRONG_TYPES[Math.floor(rnd() * WRONG_TYPES.length)];
  const d = description as yup.SchemaDescription & { oneOf: unknown[]; fields?: Record<string, yup.SchemaDescription>; innerType?: yup.SchemaDescription };
  if (d.oneOf.length > 0 && rnd() < 0.8) return d.oneOf[Math.floor(rnd() * d.oneOf.length)];
  const max = (d.tests.find((t) => t.name === 'max')?.params as { max?: number } | undefined)?.max;
  const min = (d.tests.find((t) => t.name === 'min')?.params as { min?: number } | undefined)?.min;
  switch (d.type) {
    case 'string': {
      const r = rnd();
      if (r < 0.1) return '';
      if (r < 0.2 && max !== undefined) return 'x'.repeat(max + (rnd() < 0.5 ? 0 : 1));
      if (r < 0.25 && min !== undefined) return 'x'.repeat(Math.max(0, min - 1));
      return GOOD_STRINGS[Math.floor(rnd() * GOOD_STRINGS.length)];
    }
    case 'number':
      return [0, 1, -1, 1.5, 7, 1e9, 59, 60, 100][Math.floor(rnd() * 9)];
    case 'boolean':
      return rnd() < 0.5;
    case 'array': {
      const length = rnd() < 0.1 && max !== undefined ? max + 1 : Math.floor(rnd() * 3);
      return Array.from({ length: depth > 4 ? 0 : length }, () => (d.innerType ? sample(d.innerType, rnd, depth + 1) : GOOD_STRINGS[0]));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      const fields = Object.entries(d.fields ?? {});
      if (fields.length === 0) return rnd() < 0.5 ? {} : { any: 'thing', n: 1 };
      for (const [key, field] of fields) {
        if (rnd() < 0.25) continue; // absent
        out[key] = sample(field, rnd, depth + 1);
      }
      return out;
    }
    default:
      return GOOD_STRINGS[0];
  }
}

function yupAccepts(schema: yup.AnyObjectSchema, value: unknown): boolean {
  try {
    schema.validateSync(value, { strict: true, abortEarly: false });
    return true;
  } catch {
    return false;
  }
}

describe('fast body validation (compiled from the yup schemas)', () => {
  it('accepts only what yup accepts, and only values cast() leaves unchanged, on every schema of the app', async () => {
    const schemas = await appSchemas();
    expect(schemas.length).toBeGreaterThan(20);
    let fastAccepted = 0;
    for (const [name, schema] of schemas) {
      const rnd = random(name.length * 7919 + 17);
      const description = schema.describe();
      for (let i = 0; i < 400; i++) {
        const value = sample(description, rnd);
        if (!accepts(schema, value)) continue;
        fastAccepted++;
        expect({ name, value, yup: yupAccepts(schema, value) }).toEqual({ name, value, yup: true });
        let cast: unknown;
        try {
          cast = schema.cast(value, { stripUnknown: false });
        } catch (err) {
          cast = `${name} ${JSON.stringify(value)} ${String(err)}`;
        }
        expect({ name, cast }).toEqual({ name, cast: value });
      }
    }
    // The fast path must actually take a good share of valid bodies, or it is only overhead.
    expect(fastAccepted).toBeGreaterThan(500);
  });

  it('takes the agent report and health bodies, and leaves every refusal to yup', () => {
    const report = { agent_name: 'bot', content: 'Built', structured: { completed: ['a'], in_progress: [], blockers: [] }, metadata: { run: 1 }, is_milestone: false, co_authors: ['ada@example.com'] };
    expect(accepts(reportSchema, report)).toBe(true);
    expect(accepts(healthSchema, { agent_name: 'bot', ok: true, message: null })).toBe(true);
    expect(accepts(reportSchema, { ...report, content: '' })).toBe(false); // required string
    expect(accepts(reportSchema, { ...report, content: 'x'.repeat(50_001) })).toBe(false);
    expect(accepts(reportSchema, { ...report, structured: { completed: Array(201).fill('a') } })).toBe(false);
    expect(accepts(reportSchema, { ...report, is_milestone: 'yes' })).toBe(false); // strict: no coercion
    expect(accepts(healthSchema, { agent_name: 'bot' })).toBe(false); // ok is required
  });

  it('does not compile what it cannot describe: custom tests, conditions, defaults to fill in', () => {
    const custom = yup.object({ a: yup.string().test('odd', 'odd', () => true) });
    expect(accepts(custom, { a: 'x' })).toBe(false);
    const conditional = yup.object({ a: yup.string(), b: yup.string().when('a', { is: 'x', then: (s) => s.required() }) });
    expect(accepts(conditional, { a: 'y' })).toBe(false);
    const defaulted = yup.object({ a: yup.string().default('d') });
    expect(accepts(defaulted, {})).toBe(false);
    expect(accepts(defaulted, { a: 'given' })).toBe(true);
  });
});
