import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROLLCALL } from '../src/commands.ts';
import { runCommandLine, walk } from '../src/lib/command-line.ts';
import type { Command, Node } from '../src/lib/command-line.ts';
import { rollcall, tempDir } from './processes.ts';

/** `rollcall …argv` through the command's own parser, its output kept. */
async function run(argv: string[]) {
  const out = { stdout: '', stderr: '' };
  const code = await runCommandLine(ROLLCALL, argv, { stdout: (text) => (out.stdout += text), stderr: (text) => (out.stderr += text) });
  return { code, ...out };
}

const isCommand = (node: Node): node is Command => !('commands' in node);
const everything = walk(ROLLCALL);
const commands = everything.filter((entry): entry is { words: string[]; node: Command } => isCommand(entry.node));
const name = (words: string[]) => ['rollcall', ...words].join(' ');
/** The usage line a command's help and usage errors show: `Usage: rollcall admin backup DIR`. */
const usageOf = (words: string[], command: Command) => `Usage: ${[...['rollcall', ...words], command.usage].filter(Boolean).join(' ')}`;

/**
 * Every command and group of the `rollcall` table (read from it, so a new command is covered as it is added)
 * takes --help and -h, and answers a wrong command line with one line naming what is wrong and its usage, exit 2.
 */
describe('the rollcall command line, for every command and group', () => {
  it(`covers the table: ${commands.length} commands in ${everything.length - commands.length} groups`, () => {
    expect(commands.map((c) => name(c.words))).toEqual(expect.arrayContaining(['rollcall serve', 'rollcall admin backup', 'rollcall admin outbox', 'rollcall admin org create', 'rollcall login', 'rollcall checkins today', 'rollcall mcp']));
  });

  it.each(everything.map((e) => [name(e.words), e] as const))('%s --help, -h and `rollcall help …` print its usage, exit 0', async (_, { words, node }) => {
    const help = await run([...words, '--help']);
    expect(help.stderr).toBe('');
    expect(help.code).toBe(0);
    expect(help.stdout.startsWith(`${name(words)}: ${node.summary}\n\nUsage:`)).toBe(true);
    if (isCommand(node)) expect(help.stdout).toContain(`\n${usageOf(words, node)}\n`);
    // A group's help lists every command under it.
    else for (const command of commands.filter((c) => words.every((w, i) => c.words[i] === w))) expect(help.stdout).toContain(`\n  ${name(command.words)}`);
    expect(await run([...words, '-h'])).toEqual(help);
    expect(await run(['help', ...words])).toEqual(help);
    // Asked for help, a command line that could not run still gets it.
    expect(await run([...words, '--no-such-option', '--help'])).toEqual(help);
  });

  it.each(everything.map((e) => [name(e.words), e] as const))('%s with an unknown option names it, then its usage, exit 2', async (_, { words, node }) => {
    for (const option of ['--no-such-option', '--no-such-option=1', '-Z']) {
      const wrong = await run([...words, option]);
      expect(wrong.code).toBe(2);
      expect(wrong.stdout).toBe('');
      const [first, second] = wrong.stderr.split('\n');
      expect(first).toBe(`rollcall: unknown option ${option.split('=')[0]}`);
      if (isCommand(node)) expect(wrong.stderr).toBe(`${first}\n${usageOf(words, node)}\n`);
      else expect(second).toBe('Usage:');
    }
  });

  it.each(commands.map((c) => [name(c.words), c] as const))('%s refuses an option without its value, a value to a switch, an argument too many (exit 2)', async (_, { words, node }) => {
    const usage = `${usageOf(words, node)}\n`;
    for (const [option, spec] of Object.entries(node.options ?? {})) {
      const wrong = spec.type === 'string' ? await run([...words, `--${option}`]) : await run([...words, `--${option}=yes`]);
      expect(wrong).toEqual({ code: 2, stdout: '', stderr: `rollcall: --${option} ${spec.type === 'string' ? 'needs a value' : 'takes no value'}\n${usage}` });
    }
    const allowed = node.positionals ?? 0;
    if (allowed !== Infinity) {
      const extra = await run([...words, ...Array.from({ length: allowed }, (_, i) => `a${i}`), 'one-too-many']);
      expect(extra).toEqual({ code: 2, stdout: '', stderr: `rollcall: unexpected argument "one-too-many"\n${usage}` });
    }
  });

  it('answers an unknown or missing sub-command with the commands it has (exit 2)', async () => {
    const unknown = await run(['admin', 'frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^rollcall: unknown command "rollcall admin frobnicate"\nUsage:\n {2}rollcall admin org create /);
    const missing = await run(['admin', 'org']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^rollcall: rollcall admin org needs a command\nUsage:\n {2}rollcall admin org create [^\n]*\n[^\n]*\n {2}rollcall admin org plan ORG PLAN/);
    expect((await run(['frobnicate'])).stderr).toMatch(/^rollcall: unknown command "rollcall frobnicate"\nUsage:\n {2}rollcall serve /);
    // The bare command is its help.
    expect(await run([])).toEqual(await run(['--help']));
  });

  it('prints the help of the commands the issue named from the installed entry, without a database or a valid configuration', () => {
    const dataDir = path.join(tempDir(), 'never-created');
    for (const argv of [['admin', '--help'], ['admin', 'backup', '--help'], ['admin', 'outbox', '-h'], ['serve', '--help'], ['migrate', '-h']]) {
      const help = rollcall(argv, { DATA_DIR: dataDir, PORT: 'eighty' });
      expect(help.stderr, argv.join(' ')).toBe('');
      expect(help.status).toBe(0);
      expect(help.stdout.startsWith(`rollcall ${argv[0]}`)).toBe(true);
    }
    const wrong = rollcall(['admin', 'outbox', '--bogus'], { DATA_DIR: dataDir });
    expect(wrong).toMatchObject({ status: 2, stdout: '', stderr: 'rollcall: unknown option --bogus\nUsage: rollcall admin outbox [--last N] [--to ADDRESS]\n' });
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});
