#!/usr/bin/env node
// The `rollcall` command. Node runs the TypeScript source directly (type stripping); no build step.
import module from 'node:module';
import { unsupportedNodeMessage } from './node-version.js';

// Before any .ts file: an older Node cannot load one, and would say so with a stack trace.
const unsupported = unsupportedNodeMessage();
if (unsupported) {
  process.stderr.write(`${unsupported}\n`);
  process.exit(1);
}

// Reuse each module's type-stripped and compiled form across starts (NODE_COMPILE_CACHE or the OS temp dir).
module.enableCompileCache?.();
await import('../src/cli.ts');
