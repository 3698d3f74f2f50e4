/** Where the Model Context Protocol endpoint answers (Streamable HTTP). */
export const MCP_PATH = '/mcp';
