#!/usr/bin/env node
// The `rollcall` command. Node 24 runs the TypeScript source directly (type stripping); no build step.
import module from 'node:module';

// Reuse each module's type-stripped and compiled form across starts (NODE_COMPILE_CACHE or the OS temp dir).
module.enableCompileCache?.();
await import('../src/cli.ts');
