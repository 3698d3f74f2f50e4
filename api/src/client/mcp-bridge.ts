import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ClientError, EXIT } from './api.ts';
import type { Credential } from './api.ts';
import type { CommandContext } from './context.ts';

/**
 * `rollcall mcp`: a stdio MCP server for agents that only launch local commands (docs/mcp.md). Every message read
 * on stdin is forwarded to the server's /mcp (Streamable HTTP) with the credential: `--key`, else
 * ROLLCALL_API_KEY, else the `rollcall login` session; every answer goes back on stdout. Stdout carries the
 * protocol only: anything else goes to stderr. Runs until stdin closes.
 */
export async function mcpBridge(ctx: CommandContext, flags: { key?: string; url?: string }): Promise<void> {
  const credential: Credential | null = flags.key ? { kind: 'api_key', value: flags.key.trim(), from: '--key' } : ctx.credential;
  if (!credential) throw new ClientError(EXIT.unauthenticated, `not signed in to ${ctx.apiUrl}: pass --key, set ROLLCALL_API_KEY, or run \`rollcall login\`.`);
  const headers: Record<string, string> = credential.kind === 'api_key' ? { 'X-API-KEY': credential.value } : { Authorization: `Bearer ${credential.value}` };
  const agentName = process.env.ROLLCALL_AGENT_NAME;
  // The header is percent-encoded UTF-8 (as the API reads it), so a name such as "Café bot" travels intact.
  if (agentName) headers['X-Service-Agent-Name'] = encodeURIComponent(agentName);

  const upstream = new StreamableHTTPClientTransport(new URL('/mcp', `${ctx.apiUrl}/`), { requestInit: { headers } });
  const local = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    local.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  local.onmessage = (message: JSONRPCMessage) => {
    upstream.send(message).catch((err: unknown) => {
      // A request gets its answer even when the server cannot be reached or refuses the credential.
      if ('id' in message && 'method' in message) {
        void local.send({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: `${ctx.apiUrl}/mcp: ${err instanceof Error ? err.message : String(err)}` } });
      } else {
        process.stderr.write(`rollcall mcp: ${err instanceof Error ? err.message : String(err)}\n`);
      }
    });
  };
  upstream.onmessage = (message) => void local.send(message);
  upstream.onerror = (err) => process.stderr.write(`rollcall mcp: ${err.message}\n`);
  await upstream.start();
  await local.start();
  await closed;
  await upstream.close();
}
