import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { ClientError, EXIT } from './api.ts';
import { login, logout, me, status } from './account-commands.ts';
import { checkins } from './checkin-commands.ts';
import { commandContext } from './context.ts';
import { Terminal } from './terminal.ts';
import { health, messages, report, update } from './work-commands.ts';
import { mcpBridge } from './mcp-bridge.ts';

/**
 * `rollcall` as a client of a Rollcall server (docs/cli.md): sign in with an e-mailed code, or use an API key
 * from ROLLCALL_API_KEY, then talk to the API. Every command takes --json and --api-url.
 */
export const CLIENT_USAGE = `Client commands (a Rollcall server at --api-url, ROLLCALL_API_URL or ROLLCALL_URL; default http://localhost:8080):
  rollcall login [--email E] [--code C] [--organization ORG]   sign in with a code sent by e-mail
  rollcall logout                         revoke the session on the server and forget it here
  rollcall status                         who you are signed in as, and the check-ins waiting for you today
  rollcall me                             your user
  rollcall checkins today                 what you still have to answer today, each with its web answer link
  rollcall update [--done T]… [--doing T]… [--blocked T]… [TEXT]   a stand-up update into today's check-ins
  rollcall report --agent NAME [--done T]… [--doing T]… [--blocked T]… [--milestone] [TEXT]
  rollcall health --agent NAME [--unhealthy] [--message M]
  rollcall messages --agent NAME [--all] [--mark-read]
  rollcall mcp [--url URL] [--key KEY]    an MCP server on stdin/stdout, forwarding to the server's /mcp
Every client command takes --json. ROLLCALL_API_KEY (an API key) is used instead of a session when set;
ROLLCALL_AGENT_NAME stands in for --agent. Exit codes: 0 done, 1 refused by the server, 2 usage, 3 not signed
in or credential refused, 4 not allowed (role, plan), 5 rate limited, 6 server unreachable or failing.`;

type Options = NonNullable<ParseArgsConfig['options']>;
const COMMON: Options = { json: { type: 'boolean' }, 'api-url': { type: 'string' }, help: { type: 'boolean', short: 'h' } };
const LINES: Options = { done: { type: 'string', multiple: true }, doing: { type: 'string', multiple: true }, blocked: { type: 'string', multiple: true } };

const COMMANDS: Record<string, { options: Options; positionals: boolean }> = {
  login: { options: { email: { type: 'string' }, code: { type: 'string' }, organization: { type: 'string' } }, positionals: false },
  logout: { options: {}, positionals: false },
  status: { options: {}, positionals: false },
  me: { options: {}, positionals: false },
  checkins: { options: {}, positionals: true },
  update: { options: { ...LINES, message: { type: 'string', short: 'm' } }, positionals: true },
  report: { options: { ...LINES, agent: { type: 'string' }, milestone: { type: 'boolean' } }, positionals: true },
  health: { options: { agent: { type: 'string' }, unhealthy: { type: 'boolean' }, degraded: { type: 'boolean' }, message: { type: 'string', short: 'm' } }, positionals: false },
  messages: { options: { agent: { type: 'string' }, all: { type: 'boolean' }, 'mark-read': { type: 'boolean' } }, positionals: false },
  mcp: { options: { url: { type: 'string' }, key: { type: 'string' } }, positionals: false },
};

/** Runs one client command; resolves to its exit code (failures are printed, never thrown). */
export async function runClient(command: string, args: string[]): Promise<number> {
  const terminal = new Terminal();
  try {
    const spec = COMMANDS[command];
    let parsed;
    try {
      parsed = parseArgs({ args, options: { ...COMMON, ...spec.options }, allowPositionals: spec.positionals, strict: true });
    } catch (err) {
      throw new ClientError(EXIT.usage, `${(err as Error).message}\n\n${CLIENT_USAGE}`);
    }
    const flags = parsed.values as Record<string, never>;
    if (flags.help) {
      terminal.print(CLIENT_USAGE);
      return EXIT.ok;
    }
    const ctx = commandContext(terminal, command === 'mcp' ? { ...flags, 'api-url': (flags as { url?: string }).url ?? (flags as { 'api-url'?: string })['api-url'] } : flags);
    switch (command) {
      case 'login': await login(ctx, flags); break;
      case 'logout': await logout(ctx); break;
      case 'status': await status(ctx); break;
      case 'me': await me(ctx); break;
      case 'checkins': await checkins(ctx, parsed.positionals); break;
      case 'update': await update(ctx, flags, parsed.positionals); break;
      case 'report': await report(ctx, flags, parsed.positionals); break;
      case 'health': await health(ctx, flags); break;
      case 'messages': await messages(ctx, flags); break;
      case 'mcp': await mcpBridge(ctx, flags); break;
    }
    return EXIT.ok;
  } catch (err) {
    if (err instanceof ClientError) {
      terminal.error(err.message);
      return err.exit;
    }
    terminal.error(err instanceof Error ? err.message : String(err));
    return EXIT.refused;
  } finally {
    terminal.close();
  }
}
