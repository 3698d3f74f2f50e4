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
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (res.ok) return parsed as T;
    const { message, code } = describe(parsed, res.status);
    const details = { status: res.status, code, body: parsed };
    if (res.status === 401) throw new ClientError(EXIT.unauthenticated, `${message}${code ? ` (${code})` : ''} Sign in with \`rollcall login\`, or set ROLLCALL_API_KEY.`, details);
    if (res.status === 403) throw new ClientError(EXIT.forbidden, `${message}${code ? ` (${code})` : ''}`, details);
    if (res.status === 429) {
      const wait = res.headers.get('retry-after');
      throw new ClientError(EXIT.throttled, `${message}${wait ? ` Try again in ${wait} seconds.` : ''}`, details);
    }
    if (res.status >= 500) throw new ClientError(EXIT.unavailable, `the server failed: ${message}${code ? ` (${code})` : ''}`, details);
    throw new ClientError(EXIT.refused, `${message}${code ? ` (${code})` : ''}`, details);
  }
}
