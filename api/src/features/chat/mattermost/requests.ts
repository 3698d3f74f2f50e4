import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError, badRequest, unauthorized } from '../../../lib/errors.ts';
import { getConnection, receivingConnections, recordTeam } from '../../chat-platform/connection.ts';
import type { ChatConnection } from '../../chat-platform/connection.ts';
import type { ChatRequestDeps } from '../../chat-platform/request-deps.ts';

/**
 * What Mattermost calls (docs/chat.md, "Mattermost"): a button of our messages (its integration URL), an
 * interactive dialog submitted, the `/rollcall` slash command. Mattermost signs none of them, so each carries a
 * proof: the command its token (which Mattermost sends as `Authorization: Token …`, compared in constant time
 * with the connection's), a button and a dialog a value of ours, signed with the connection's own secret
 * (HMAC-SHA256) when the message or the dialog was made.
 */
export const REQUEST_PATHS = {
  actions: '/v1/integrations/mattermost/actions/',
  dialogs: '/v1/integrations/mattermost/dialogs/',
  commands: '/v1/integrations/mattermost/commands/',
} as const;
export type RequestKind = keyof typeof REQUEST_PATHS;

export const MAX_REQUEST_BYTES = 256 * 1024;
/** A call to Mattermost made while its request waits (opening a dialog: its trigger id lasts a few seconds). */
export const IN_REQUEST_TIMEOUT_MS = 2_000;
/** A dialog is answered within this of opening; past it, its state is stale (and nonces are kept longer: chat-platform/nonces.ts). */
const DIALOG_MAX_AGE_MS = 30 * 60_000;

export type MattermostDeps = ChatRequestDeps;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

/** HMAC-SHA256 of the parts with the connection's secret, base64url (43 characters). */
export const signParts = (secret: string, parts: (string | null)[]): string => createHmac('sha256', secret).update(parts.map((p) => p ?? '').join('\n')).digest('base64url');
const same = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

// ---------------------------------------------------------------- a button's context

/** The context a button of ours carries: the organization, what it answers, and their signature. */
export interface ActionContext {
  o: string;
  v: string;
  s: string;
}

export const actionContext = (connection: Pick<ChatConnection, 'organizationUuid' | 'requestSecret'>, value: string): ActionContext => ({
  o: connection.organizationUuid, v: value, s: signParts(connection.requestSecret ?? '', ['action', connection.organizationUuid, value]),
});

// ---------------------------------------------------------------- a dialog's state

/** What a dialog answers (a check-in's day and the prompt, or a test prompt), when it was opened, and a nonce. */
export interface DialogState {
  o: string;
  c: string | null;
  d: string | null;
  p: string | null;
  t: string | null;
  n: string;
  at: number;
}

const stateParts = (s: DialogState) => ['dialog', s.o, s.c, s.d, s.p, s.t, s.n, String(s.at)];
export const dialogState = (secret: string, state: DialogState): string => JSON.stringify({ ...state, s: signParts(secret, stateParts(state)) });

function readState(raw: unknown): (DialogState & { s: string }) | null {
  if (typeof raw !== 'string' || raw.length > 2000) return null;
  let s: unknown;
  try {
    s = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isObject(s)) return null;
  const idOrNull = (v: unknown) => v === null || (typeof v === 'string' && UUID.test(v));
  if (typeof s.o !== 'string' || !UUID.test(s.o) || !idOrNull(s.c) || !idOrNull(s.p) || !idOrNull(s.t)) return null;
  if (!(s.d === null || (typeof s.d === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(s.d)))) return null;
  if (typeof s.n !== 'string' || !/^[A-Za-z0-9]{16,64}$/.test(s.n) || typeof s.at !== 'number' || !Number.isSafeInteger(s.at)) return null;
  if (typeof s.s !== 'string' || !SIGNATURE.test(s.s)) return null;
  return s as unknown as DialogState & { s: string };
}

// ---------------------------------------------------------------- verification

export interface VerifiedRequest<T> {
  connection: ChatConnection;
  body: Record<string, unknown>;
  /** What the signed value says: a button's value, a dialog's state. */
  signed: T;
}

function parseJson(raw: string): Record<string, unknown> {
  try {
    const json: unknown = JSON.parse(raw);
    if (isObject(json)) return json;
  } catch {
    // below
  }
  throw badRequest('malformed_request', 'The body is not a JSON object.');
}

/** The receiving Mattermost connection of an organization a signed value names. */
async function connectionOf(deps: MattermostDeps, organizationUuid: string): Promise<ChatConnection> {
  const connection = await getConnection(deps.db, deps.box, organizationUuid).catch(() => null);
  if (!connection || connection.platform !== 'mattermost' || !connection.requestSecret) throw unauthorized('invalid_credentials');
  return connection;
}

/** A click on a button of ours: its context must carry our signature of what it answers. */
export async function verifyAction(deps: MattermostDeps, raw: string): Promise<VerifiedRequest<string>> {
  const body = parseJson(raw);
  const context = body.context;
  if (context === undefined || context === null) throw unauthorized('credential_absent');
  if (!isObject(context) || typeof context.o !== 'string' || !UUID.test(context.o) || typeof context.v !== 'string' || context.v.length > 100 || typeof context.s !== 'string' || !SIGNATURE.test(context.s)) {
    throw unauthorized('credential_malformed');
  }
  const connection = await connectionOf(deps, context.o);
  if (!same(signParts(connection.requestSecret!, ['action', context.o, context.v]), context.s)) throw unauthorized('invalid_credentials');
  return { connection, body, signed: context.v };
}

/** A dialog submitted: its state must carry our signature, made when it was opened, at most 30 minutes ago. */
export async function verifyDialog(deps: MattermostDeps, raw: string): Promise<VerifiedRequest<DialogState>> {
  const body = parseJson(raw);
  if (body.state === undefined || body.state === null || body.state === '') throw unauthorized('credential_absent');
  const state = readState(body.state);
  if (!state) throw unauthorized('credential_malformed');
  const connection = await connectionOf(deps, state.o);
  const { s, ...fields } = state;
  if (!same(signParts(connection.requestSecret!, stateParts(fields)), s)) throw unauthorized('invalid_credentials');
  const age = deps.now().getTime() - fields.at;
  if (age > DIALOG_MAX_AGE_MS || age < -60_000) throw unauthorized('credential_expired');
  return { connection, body, signed: fields };
}

const header = (headers: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * The slash command: its token (the `Authorization: Token …` header, else the form's `token`) must be one
 * receiving connection's command token, compared in constant time. A command token belongs to one team's
 * command: the first command ties the connection to its team, and a command from another team is refused.
 */
export async function verifyCommand(deps: MattermostDeps, raw: string, headers: Record<string, string | string[] | undefined>): Promise<VerifiedRequest<null>> {
  const form = Object.fromEntries(new URLSearchParams(raw)) as Record<string, unknown>;
  const auth = header(headers, 'authorization');
  const token = auth?.startsWith('Token ') ? auth.slice(6).trim() : typeof form.token === 'string' ? form.token : undefined;
  if (!token) throw unauthorized('credential_absent');
  if (!/^[A-Za-z0-9]{20,64}$/.test(token)) throw unauthorized('credential_malformed');
  const team = typeof form.team_id === 'string' && /^[a-z0-9]{26}$/.test(form.team_id) ? form.team_id : null;
  const madeBy = (candidates: ChatConnection[]) => candidates.find((c) => c.commandToken && same(c.commandToken, token));
  const connection = madeBy(await receivingConnections(deps.db, deps.box, 'mattermost', team, 'ownTeam'))
    ?? (team ? madeBy(await receivingConnections(deps.db, deps.box, 'mattermost', team, 'otherTeams')) : undefined);
  if (!connection) throw unauthorized('invalid_credentials');
  if (!team || typeof form.user_id !== 'string') throw badRequest('malformed_request', 'The command has no team_id or user_id.');
  if (!connection.externalTeamId) await recordTeam(deps.db, connection.organizationUuid, team);
  else if (connection.externalTeamId !== team) {
    throw new ApiError(403, 'workspace_not_connected', `This command comes from the Mattermost team ${team}, which is not the one connected to Rollcall.`);
  }
  return { connection, body: form, signed: null };
}
