import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** The server version, from api/package.json. */
export const VERSION: string = (require('../../package.json') as { version: string }).version;
