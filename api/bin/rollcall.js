#!/usr/bin/env node
// The `rollcall` command. Node 24 runs the TypeScript source directly (type stripping); no build step.
import '../src/cli.ts';
