/** Where the Model Context Protocol endpoint answers (Streamable HTTP): the method matrix's, which admits it. */
export { MCP_PATH } from '../auth/method-matrix.ts';
