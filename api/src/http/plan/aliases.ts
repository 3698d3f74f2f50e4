import type { AnyObjectSchema, Schema } from 'yup';
import { ValidationFailed, invalidFilter } from '../../lib/errors.ts';

/**
 * Field aliases of a Plan body: the DailyBot client's names beside ours (`user_uuid` for `user`). An alias is a
 * name in the schema, nothing more: the registrar folds each one into the field it names before the handler
 * runs, so one service serves both spellings. Both at once with different values is refused (400
 * `invalid_filter_value`); a required field stays required under either name.
 */
interface AliasSet {
  /** Alias → the field the service reads. */
  aliases: Record<string, string>;
  required: Set<string>;
}

const registered = new WeakMap<AnyObjectSchema, AliasSet>();

/** `schema` that also takes each alias (`{ user_uuid: 'user' }`) as the field it names. */
export function withAliases<S extends AnyObjectSchema>(schema: S, aliases: Record<string, string>): S {
  const fields = schema.fields as Record<string, Schema>;
  const required = new Set<string>();
  const shape: Record<string, Schema> = {};
  for (const [alias, name] of Object.entries(aliases)) {
    const field = fields[name];
    if (!field) throw new Error(`alias ${alias}: the schema has no field ${name}`);
    if (!field.describe().optional) required.add(name);
    shape[name] = field.optional();
    shape[alias] = field.optional();
  }
  const aliased = schema.shape(shape) as unknown as S;
  registered.set(aliased, { aliases, required });
  return aliased;
}

/** The body with every alias folded into the field it names (a body of a schema without aliases is returned as is). */
export function foldAliases<T>(schema: AnyObjectSchema | undefined, body: T): T {
  const set = schema && registered.get(schema);
  if (!set || body === null || typeof body !== 'object') return body;
  const out = { ...(body as Record<string, unknown>) };
  for (const [alias, name] of Object.entries(set.aliases)) {
    if (!Object.hasOwn(out, alias)) continue;
    if (Object.hasOwn(out, name) && JSON.stringify(out[name]) !== JSON.stringify(out[alias])) {
      throw invalidFilter(alias, `${alias} and ${name} are the same field: send one of them.`);
    }
    out[name] = out[alias];
    delete out[alias];
  }
  for (const name of set.required) {
    if (out[name] === undefined) {
      const alias = Object.keys(set.aliases).find((a) => set.aliases[a] === name) ?? name;
      throw new ValidationFailed({ [alias]: ['This field is required.'] });
    }
  }
  return out as T;
}
