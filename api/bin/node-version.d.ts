/** Types of node-version.js (plain JavaScript: it must run on any Node, before TypeScript can load). */
export function supportedRange(): string;
export function satisfies(version: string, range: string): boolean;
export function minimumVersion(range: string): string;
export function unsupportedNodeMessage(version?: string, range?: string): string | null;
