import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TestApp } from './harness.ts';

/** The SDK's own client, over the real transport to the test app's /mcp, with the API's credential headers. */
export async function connectMcp(t: TestApp, headers: Record<string, string>, clientName = 'rollcall-test'): Promise<Client> {
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers } }));
  return client;
}

export const callTool = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
export const structured = (result: CallToolResult) => result.structuredContent as Record<string, any>;
