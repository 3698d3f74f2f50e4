import type { Command, Options, Parsed } from '../lib/command-line.ts';
import { ClientError, EXIT } from './api.ts';
import { login, logout, me, status } from './account-commands.ts';
import { checkins } from './checkin-commands.ts';
import { commandContext } from './context.ts';
import type { CommandContext } from './context.ts';
import { Terminal } from './terminal.ts';
import { health, messages, report, update } from './work-commands.ts';

/**
 * `rollcall` as a client of a Rollcall server (docs/cli.md): sign in with an e-mailed code, or use an API key
 * from ROLLCALL_API_KEY, then talk to the API. Every command takes --json and --api-url. cli.ts puts these
 * commands in the `rollcall` table (commands.ts), whose parser hands each its checked options.
 */
export const CLIENT_NOTES = `Client commands talk to a Rollcall server at --api-url, ROLLCALL_API_URL or ROLLCALL_URL (default
http://localhost:8080). Every client command takes --json. ROLLCALL_API_KEY (an API key) is used instead of a
session when set; ROLLCALL_AGENT_NAME stands in for --agent.
Exit codes: 0 done, 1 refused by the server, 2 usage, 3 not signed in or credential refused, 4 not allowed (role,
plan), 5 rate limited, 6 server unreachable or failing.`;

const COMMON: Options = { json: { type: 'boolean' }, 'api-url': { type: 'string' } };
const LINES: Options = { done: { type: 'string', multiple: true }, doing: { type: 'string', multiple: true }, blocked: { type: 'string', multiple: true } };

type Flags = Record<string, never>;

/** One client command: its line in the table, and what it does with the context and the parsed command line. */
function client(usage: string, summary: string, options: Options, positionals: number, work: (ctx: CommandContext, flags: Flags, words: string[]) => Promise<void>): Command {
  return { usage, summary, options: { ...COMMON, ...options }, positionals, notes: CLIENT_NOTES, run: (parsed) => runClient(parsed, work) };
}

/** The client commands, by the word that names each (`rollcall login`, `rollcall checkins today`). */
export const CLIENT_COMMANDS = {
  login: client('[--email E] [--code C] [--organization ORG]', 'sign in with a code sent by e-mail', { email: { type: 'string' }, code: { type: 'string' }, organization: { type: 'string' } }, 0, (ctx, flags) => login(ctx, flags)),
  logout: client('', 'revoke the session on the server and forget it here', {}, 0, (ctx) => logout(ctx)),
  status: client('', 'who you are signed in as, and the check-ins waiting for you today', {}, 0, (ctx) => status(ctx)),
  me: client('', 'your user', {}, 0, (ctx) => me(ctx)),
  checkins: {
    summary: 'the check-ins waiting for your answer',
    notes: CLIENT_NOTES,
    commands: { today: client('', 'what you still have to answer today, each with its web answer link', {}, 0, (ctx) => checkins(ctx)) },
  },
  update: client('[--done T]… [--doing T]… [--blocked T]… [TEXT]', "a stand-up update into today's check-ins", { ...LINES, message: { type: 'string', short: 'm' } }, Infinity, (ctx, flags, words) => update(ctx, flags, words)),
  report: client('--agent NAME [--done T]… [--doing T]… [--blocked T]… [--milestone] [TEXT]', 'an agent report', { ...LINES, agent: { type: 'string' }, milestone: { type: 'boolean' } }, Infinity, (ctx, flags, words) => report(ctx, flags, words)),
  health: client('--agent NAME [--unhealthy] [--message M]', 'an agent health check; prints the messages it hands over', { agent: { type: 'string' }, unhealthy: { type: 'boolean' }, degraded: { type: 'boolean' }, message: { type: 'string', short: 'm' } }, 0, (ctx, flags) => health(ctx, flags)),
  messages: client('--agent NAME [--all] [--mark-read]', "an agent's unread messages (all with --all)", { agent: { type: 'string' }, all: { type: 'boolean' }, 'mark-read': { type: 'boolean' } }, 0, (ctx, flags) => messages(ctx, flags)),
  // The MCP SDK is loaded by this command only.
  mcp: client('[--url URL] [--key KEY]', "an MCP server on stdin/stdout, forwarding to the server's /mcp", { url: { type: 'string' }, key: { type: 'string' } }, 0, async (ctx, flags) => (await import('./mcp-bridge.ts')).mcpBridge(ctx, flags)),
};

/** Runs one client command; resolves to its exit code (failures are printed, never thrown). */
async function runClient(parsed: Parsed, work: (ctx: CommandContext, flags: Flags, words: string[]) => Promise<void>): Promise<number> {
  const terminal = new Terminal();
  try {
    const flags = parsed.values as Flags;
    const { url, 'api-url': apiUrl } = parsed.values as { url?: string; 'api-url'?: string };
    await work(commandContext(terminal, { json: parsed.values.json === true, 'api-url': url ?? apiUrl }), flags, parsed.positionals);
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
