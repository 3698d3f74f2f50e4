import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ClientError, EXIT, refusalOf } from './api.ts';
import type { Credential } from './api.ts';
import type { CommandContext } from './context.ts';

/**
 * `rollcall mcp`: a stdio MCP server for agents that only launch local commands (docs/mcp.md). Every message read
 * on stdin is forwarded to the server's /mcp (Streamable HTTP) with the credential: `--key`, else
 * ROLLCALL_API_KEY, else the `rollcall login` session; every answer goes back on stdout. Stdout carries the
 * protocol only: anything else goes to stderr. Runs until stdin closes, and the requests read by then are answered.
 */
export async function mcpBridge(ctx: CommandContext, flags: { key?: string; url?: string }): Promise<void> {
  const credential: Credential | null = flags.key ? { kind: 'api_key', value: flags.key.trim(), from: '--key' } : ctx.credential;
  if (!credential) throw new ClientError(EXIT.unauthenticated, `not signed in to ${ctx.apiUrl}: pass --key, set ROLLCALL_API_KEY, or run \`rollcall login\`.`);
  const headers: Record<string, string> = credential.kind === 'api_key' ? { 'X-API-KEY': credential.value } : { Authorization: `Bearer ${credential.value}` };
  const agentName = process.env.ROLLCALL_AGENT_NAME;
  // The header is percent-encoded UTF-8 (as the API reads it), so a name such as "Café bot" travels intact.
  if (agentName) headers['X-Service-Agent-Name'] = encodeURIComponent(agentName);

  // The server's refusals, by the id of the request refused, said as every client command says them (client/api.ts):
  // the transport's own error carries only the raw body, whose 401 detail names no reason.
  const refusals = new Map<unknown, ClientError>();
  const answered = new WeakSet<Error>();
  const upstream = new StreamableHTTPClientTransport(new URL('/mcp', `${ctx.apiUrl}/`), {
    requestInit: { headers },
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      if (!res.ok && init?.method === 'POST' && typeof init.body === 'string') {
        const refused = await refusalOf(res, credential, ctx.apiUrl);
        for (const sent of [JSON.parse(init.body)].flat() as { id?: unknown }[]) if (sent.id !== undefined) refusals.set(sent.id, refused);
      }
      return res;
    },
  });
  const local = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    local.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  // What was read and is still on its way: when stdin ends (a script that pipes its requests in), the bridge answers
  // them before it closes, rather than aborting them.
  const inFlight = new Set<Promise<void>>();
  local.onmessage = (message: JSONRPCMessage) => {
    const forwarded = upstream.send(message).catch((err: unknown) => {
      if (err instanceof Error) answered.add(err);
      const id = 'id' in message ? message.id : undefined;
      const refused = refusals.get(id);
      refusals.delete(id);
      const said = refused?.message ?? `${ctx.apiUrl}/mcp: ${err instanceof Error ? err.message : String(err)}`;
      process.stderr.write(`rollcall mcp: ${said}\n`);
      // A request gets its answer even when the server cannot be reached or refuses the credential.
      if (id !== undefined && 'method' in message) return local.send({ jsonrpc: '2.0', id, error: { code: -32000, message: said } });
    });
    inFlight.add(forwarded);
    void forwarded.finally(() => inFlight.delete(forwarded));
  };
  upstream.onmessage = (message) => void local.send(message);
  // The transport reports a failed send here too, just before the send rejects: said once, by the send's handler.
  upstream.onerror = (err) => setImmediate(() => answered.has(err) || process.stderr.write(`rollcall mcp: ${err.message}\n`));
  await upstream.start();
  await local.start();
  await closed;
  await Promise.allSettled(inFlight);
  await upstream.close();
}
