import * as yup from 'yup';
import { uuidField } from '../../../http/fields.ts';
import { invalidFilter } from '../../../lib/errors.ts';

/**
 * `scope`: the boards and projects a route (or a report) covers; absent or null for every org-visible one. The
 * DailyBot client's shape names one kind at a time: `{type: "boards" | "projects", uuids}`, or `{type: "all"}`
 * for the whole organization (scopeOf reads either).
 */
export const scopeField = () =>
  yup
    .object({
      boards: yup.array(uuidField().required()).max(50),
      projects: yup.array(uuidField().required()).max(50),
      type: yup.string().oneOf(['all', 'boards', 'projects'] as const),
      uuids: yup.array(uuidField().required()).max(50),
    })
    .nullable()
    .default(undefined);

export type ScopeInput = yup.InferType<ReturnType<typeof scopeField>>;

/** A scope as stored (`{boards, projects}`, or null: everything org-visible), whichever shape it was sent in. */
export function scopeOf(input: ScopeInput): { boards?: string[]; projects?: string[] } | null {
  if (!input) return null;
  const { type, uuids, boards, projects } = input;
  if (type === undefined) return uuids === undefined ? { boards, projects } : scopeProblem('uuids goes with type ("boards" or "projects").');
  if (boards !== undefined || projects !== undefined) return scopeProblem('Send type and uuids, or boards and projects, not both.');
  if (type === 'all') return (uuids ?? []).length ? scopeProblem('type "all" names no uuids.') : null;
  return { [type]: uuids ?? [] };
}

const scopeProblem = (detail: string): never => {
  throw invalidFilter('scope', detail);
};

/**
 * Where a route sends: a chat channel's external_id or "email"; the DailyBot client sends it as an object,
 * `{"id": …}` (or `external_id`) for a channel and `{"type": "email"}` for e-mail.
 */
export type ChannelInput = string | { id?: string; external_id?: string; type?: string };
const channelField = () =>
  yup.mixed<ChannelInput>().test('channel', 'A channel\'s external_id or "email", or an object naming one: {"id": "C123"} or {"type": "email"}.', (value) => value === undefined || channelOf(value) !== null);

/** The channel as a route stores it, or null when the value names none. */
export function channelOf(value: ChannelInput | undefined): string | null {
  if (typeof value === 'string') return value.length >= 1 && value.length <= 200 ? value : null;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  if (value.type === 'email') return 'email';
  const id = value.external_id ?? value.id;
  return typeof id === 'string' && id.length >= 1 && id.length <= 200 ? id : null;
}

/** Route fields; `kinds` (a list of one kind) is the DailyBot client's way of naming `kind`. */
const routeFields = () => ({
  kind: yup.string().max(64),
  kinds: yup.array(yup.string().max(64).required()).min(1).max(1, 'A route sends one kind: make one route per kind.'),
  channel: channelField(),
  scope: scopeField(),
  name: yup.string().max(200).nullable(),
  enabled: yup.boolean(),
});

export const createRouteSchema = yup.object(routeFields());
export type CreateRouteInput = yup.InferType<typeof createRouteSchema>;

export const updateRouteSchema = yup.object(routeFields());
export type UpdateRouteInput = yup.InferType<typeof updateRouteSchema>;
