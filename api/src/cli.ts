#!/usr/bin/env node
import { ConfigError, StartupError } from './lib/config.ts';
import { CommandFailure, runCommandLine } from './lib/command-line.ts';
import { ROLLCALL } from './commands.ts';

// The `rollcall` command: the table in commands.ts says what each command line runs; here its failures are
// reported as one line each (exit 2 for a usage error, printed with the command's usage by runCommandLine).

function fail(message: string, code = 1): never {
  process.stderr.write(`rollcall: ${message}\n`);
  process.exit(code);
}

const output = { stdout: (text: string) => process.stdout.write(text), stderr: (text: string) => process.stderr.write(text) };

runCommandLine(ROLLCALL, process.argv.slice(2), output).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof CommandFailure) fail(err.message, err.exit);
    if (err instanceof ConfigError) fail(`configuration error: ${err.message}`);
    if (err instanceof StartupError) fail(err.message);
    // By name: the module that defines it is loaded only by the commands that open a database.
    if (err instanceof Error && err.name === 'EncryptionKeyError') fail(`cannot open the database: ${err.message}`);
    fail(err instanceof Error ? (err.stack ?? err.message) : String(err));
  },
);
