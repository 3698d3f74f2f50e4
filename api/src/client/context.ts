import { Api, ClientError, EXIT, normalizeApiUrl } from './api.ts';
import type { Credential } from './api.ts';
import { readSession, sessionFile } from './session.ts';
import type { Session } from './session.ts';
import type { Terminal } from './terminal.ts';

/** What every client command works with: where the server is, which credential to send, how to print. */
export interface CommandContext {
  terminal: Terminal;
  json: boolean;
  apiUrl: string;
  session: Session | null;
  sessionFile: string;
  credential: Credential | null;
  /** The API with the credential; refuses (exit 3) when there is none. */
  api(): Api;
  /** The API without a credential (sign-in). */
  anonymous(): Api;
}

export const DEFAULT_API_URL = 'http://localhost:8080';

/**
 * The server: `--api-url`, else ROLLCALL_API_URL, else ROLLCALL_URL, else the signed-in session's, else
 * http://localhost:8080. The credential: ROLLCALL_API_KEY (for agents and scripts), else the session's token.
 */
export function commandContext(terminal: Terminal, flags: { json?: boolean; 'api-url'?: string }, env: NodeJS.ProcessEnv = process.env): CommandContext {
  const file = sessionFile(env);
  const session = readSession(file);
  const apiUrl = normalizeApiUrl(flags['api-url'] || env.ROLLCALL_API_URL || env.ROLLCALL_URL || session?.api_url || DEFAULT_API_URL);
  const credential: Credential | null = env.ROLLCALL_API_KEY
    ? { kind: 'api_key', value: env.ROLLCALL_API_KEY.trim(), from: 'ROLLCALL_API_KEY' }
    : session && normalizeApiUrl(session.api_url) === apiUrl
      ? { kind: 'bearer', value: session.token, from: file }
      : null;
  return {
    terminal,
    json: flags.json === true,
    apiUrl,
    session,
    sessionFile: file,
    credential,
    api() {
      if (!credential) {
        const elsewhere = session ? ` (your session is for ${session.api_url})` : '';
        throw new ClientError(EXIT.unauthenticated, `not signed in to ${apiUrl}${elsewhere}: run \`rollcall login\`, or set ROLLCALL_API_KEY.`);
      }
      return new Api(apiUrl, credential);
    },
    anonymous: () => new Api(apiUrl, null),
  };
}
