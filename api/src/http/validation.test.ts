import { describe, expect, it } from 'vitest';
import * as yup from 'yup';
import { ApiError } from '../lib/errors.ts';
import { jsonObjectField } from './fields.ts';
import { parseBody, validateBody } from './validation.ts';

const refusal = async (promise: Promise<unknown>) => promise.then(() => null, (err: unknown) => (err instanceof ApiError ? [err.code, err.extra] : err));

describe('body validation: own fields only', () => {
  const schema = yup.object({
    name: yup.string().required(),
    settings: yup.object({ colour: yup.string() }),
    items: yup.array(yup.lazy(() => yup.object({ id: yup.number() }))),
    metadata: jsonObjectField().nullable(),
  });

  it('refuses prototype-named keys at every declared level, through lazy schemas too, and keeps them inside free-form objects', async () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
      expect(await refusal(parseBody(schema, JSON.parse(`{"name": "x", "${name}": 1}`)))).toEqual(['unknown_field', { parameter: name }]);
      expect(await refusal(parseBody(schema, JSON.parse(`{"name": "x", "settings": {"${name}": 1}}`)))).toEqual(['unknown_field', { parameter: `settings.${name}` }]);
      expect(await refusal(parseBody(schema, JSON.parse(`{"name": "x", "items": [{"id": 1}, {"${name}": 1}]}`)))).toEqual(['unknown_field', { parameter: `items.1.${name}` }]);
      const free = JSON.parse(`{"name": "x", "metadata": {"${name}": {"${name}": 2}}}`);
      expect(JSON.stringify((await parseBody(schema, free)).metadata)).toBe(JSON.stringify(free.metadata));
      await expect(parseBody(schema, { ...free, name: 5 })).rejects.toMatchObject({ fields: { name: ['Must be a string.'] } });
    }
  });

  it('refuses, when a route is built, an object schema without fields (use jsonObjectField)', async () => {
    expect(() => validateBody(yup.object({ metadata: yup.object().nullable() }))).toThrow(/metadata: an object schema without fields; use jsonObjectField\(\)/);
    expect(() => validateBody(yup.object({ rows: yup.array(yup.object()) }))).toThrow(/rows\.0: an object schema without fields/);
    expect(() => validateBody(yup.object({}))).toThrow(/the body: an object schema without fields/);
    expect(() => validateBody(schema)).not.toThrow();
    // A route that calls parseBody itself meets the same check on first use.
    await expect(parseBody(yup.object({ payload: yup.object() }), { payload: {} })).rejects.toThrow(/payload: an object schema without fields/);
  });
});
