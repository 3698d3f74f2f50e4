/**
 * The client's HTTP calls to a Rollcall server, and the exit codes its failures map to (docs/cli.md lists them).
 */
export const EXIT = {
  ok: 0,
  /** The server refused the request (a 4xx not listed below), or something else went wrong. */
  refused: 1,
  /** The command line itself is wrong: unknown command or flag, missing argument. */
  usage: 2,
  /** Not signed in, or the credential was refused (401). */
  unauthenticated: 3,
  /** Signed in but not allowed: role, plan or credential kind (403). */
  forbidden: 4,
  /** Rate limited (429): the message says when to try again. */
  throttled: 5,
  /** The server could not be reached, or failed (5xx). */
  unavailable: 6,
} as const;

/** A failure the command reports as one line on stderr and its exit code. */
export class ClientError extends Error {
  readonly exit: number;
  readonly status: number | null;
  readonly code: string | null;
  readonly body: unknown;
  constructor(exit: number, message: string, details: { status?: number; code?: string | null; body?: unknown } = {}) {
    super(message);
    this.exit = exit;
    this.status = details.status ?? null;
    this.code = details.code ?? null;
    this.body = details.body;
  }
}

export type Credential = { kind: 'api_key'; value: string; from: string } | { kind: 'bearer'; value: string; from: string };

/** The server's base address without a trailing slash or `/v1` (both spellings are accepted from the user). */
export const normalizeApiUrl = (url: string): string => url.trim().replace(/\/+$/, '').replace(/\/v1$/, '');

/**
 * What a 401 means for the credential this client sent, in one line saying what to do. The server's detail is the
 * same for every 401 ("Authentication credentials were not provided.", CONTRACT §4) and its code tells them
 * apart; said as it is, it would tell someone who did give a key that they gave none.
 */
export function credentialRefusal(code: string | null, credential: Credential | null, server: string): string {
  const login = 'sign in again with `rollcall login`';
  if (credential?.kind === 'api_key') {
    const key = `the API key from ${credential.from}`;
    if (code === 'credential_malformed') return `${key} is malformed: an API key is rk_ and 40 letters and digits (credential_malformed).`;
    if (code === 'invalid_credentials') return `${key} is unknown to ${server}: revoked, regenerated, or made on another server; check the key, or create a new one (invalid_credentials).`;
    if (code === 'credential_expired') return `${key} has expired; create a new one (credential_expired).`;
  } else if (credential) {
    const session = `the session in ${credential.from}`;
    if (code === 'credential_malformed') return `${session} is malformed; ${login} (credential_malformed).`;
    if (code === 'invalid_credentials') return `${session} is no longer valid on ${server} (signed out, or revoked); ${login} (invalid_credentials).`;
    if (code === 'credential_expired') return `${session} has expired; ${login} (credential_expired).`;
  }
  return `${server} refused the request${code ? ` (${code})` : ''}: sign in with \`rollcall login\`, or set ROLLCALL_API_KEY.`;
}

/** The `detail` and `code` of an error body, or its field map as one line. */
function describe(body: unknown, status: number): { message: string; code: string | null } {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    if (typeof record.detail === 'string') return { message: record.detail, code: typeof record.code === 'string' ? record.code : null };
    // A request-body field map: {"field": ["message"]}.
    const fields = Object.entries(record).map(([field, messages]) => `${field}: ${Array.isArray(messages) ? messages.join(' ') : String(messages)}`);
    if (fields.length) return { message: fields.join('; '), code: null };
  }
  return { message: `HTTP ${status}`, code: null };
}

export class Api {
  readonly baseUrl: string;
  readonly credential: Credential | null;
  constructor(baseUrl: string, credential: Credential | null) {
    this.baseUrl = normalizeApiUrl(baseUrl);
    this.credential = credential;
  }

  /** Calls `path` (under /v1/) and returns the parsed body; any failure is a ClientError with its exit code. */
  async call<T = unknown>(method: string, path: string, body?: unknown, options: { anonymous?: boolean } = {}): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'rollcall-cli' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (!options.anonymous && this.credential) {
      if (this.credential.kind === 'api_key') headers['x-api-key'] = this.credential.value;
      else headers.authorization = `Bearer ${this.credential.value}`;
    }
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(60_000) });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new ClientError(EXIT.unavailable, `cannot reach ${this.baseUrl}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
    }
    const text = await res.text();
    const parsed = parseBody(text);
    if (res.ok) return parsed as T;
    throw refusal(res, parsed, this.credential, this.baseUrl);
  }
}

function parseBody(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** The ClientError a server's refusal is: its exit code, and one line saying what it means and what to do. */
export function refusal(res: Response, body: unknown, credential: Credential | null, server: string): ClientError {
  const { message, code } = describe(body, res.status);
  const details = { status: res.status, code, body };
  if (res.status === 401) return new ClientError(EXIT.unauthenticated, credentialRefusal(code, credential, server), details);
  if (res.status === 403) return new ClientError(EXIT.forbidden, `${message}${code ? ` (${code})` : ''}`, details);
  if (res.status === 429) {
    const wait = res.headers.get('retry-after');
    return new ClientError(EXIT.throttled, `${message}${wait ? ` Try again in ${wait} seconds.` : ''}`, details);
  }
  if (res.status >= 500) return new ClientError(EXIT.unavailable, `the server failed: ${message}${code ? ` (${code})` : ''}`, details);
  return new ClientError(EXIT.refused, `${message}${code ? ` (${code})` : ''}`, details);
}

/** A refused response read for its error body, the response itself left unread for its caller. */
export async function refusalOf(res: Response, credential: Credential | null, server: string): Promise<ClientError> {
  return refusal(res, parseBody(await res.clone().text()), credential, server);
}
