import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';

/**
 * The `rollcall` command's table and the one parser every command goes through (cli.ts runs it): a tree of
 * groups (`admin`, `admin org`) and commands, each with its usage, options and the number of arguments it
 * takes. The table is the only list of commands: the help, the usage errors and the test of every command's
 * `--help` (test/cli-usage.test.ts) are all read from it, so a new command cannot miss any of them.
 */
export type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | string[] | undefined>;

export interface Parsed {
  values: Values;
  positionals: string[];
}

export interface Command {
  /** What follows the command's words, as people type it: `DIR [--force]`. Empty when nothing does. */
  usage: string;
  /** What it does, in a line or two. */
  summary: string;
  options?: Options;
  /** How many arguments it takes (none when absent; `Infinity` for free text). */
  positionals?: number;
  /** Text shared by several commands (what ORG means, the environment, exit codes); also a group's. */
  notes?: string;
  /** Runs the command; resolves to its exit code (0 when nothing is returned). */
  run(parsed: Parsed): Promise<number | void>;
}

export interface Group {
  summary: string;
  commands: Record<string, Node>;
  notes?: string;
}

export type Node = Command | Group;

const isGroup = (node: Node): node is Group => 'commands' in node;

/** A command line that cannot run: printed as one line naming the problem, then the command's usage. */
export class UsageError extends Error {
  readonly usage: string;
  constructor(message: string, usage: string) {
    super(message);
    this.usage = usage;
  }
}

/** A command that ran and failed in a way its user can act on: printed as `rollcall: message`, exit `exit`. */
export class CommandFailure extends Error {
  readonly exit: number;
  constructor(message: string, exit = 1) {
    super(message);
    this.exit = exit;
  }
}

/** Where the help and the errors go; the process's streams, or a test's. */
export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
}

const HELP: Options = { help: { type: 'boolean', short: 'h' } };
const SUMMARY_COLUMN = 41;
const WIDTH = 118;

/** Every command and group under `node`, depth first, each with its words (`['admin', 'org', 'create']`). */
export function walk(node: Node, words: string[] = []): { words: string[]; node: Node }[] {
  const here = { words, node };
  if (!isGroup(node)) return [here];
  return [here, ...Object.entries(node.commands).flatMap(([word, child]) => walk(child, [...words, word]))];
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/** `  rollcall admin backup DIR             online backup: …`, the summary wrapped in its column. */
function usageLine(words: string[], command: Command): string {
  const left = `  ${['rollcall', ...words, command.usage].filter(Boolean).join(' ')}`;
  const [first, ...rest] = wrap(command.summary, WIDTH - SUMMARY_COLUMN);
  const indent = ' '.repeat(SUMMARY_COLUMN);
  const head = left.length < SUMMARY_COLUMN - 1 ? [`${left.padEnd(SUMMARY_COLUMN)}${first}`] : [left, `${indent}${first}`];
  return [...head, ...rest.map((line) => `${indent}${line}`)].join('\n');
}

/** The usage of `node`: its one line for a command, every command's line with its summary for a group. */
function usageOf(node: Node, words: string[]): string {
  if (!isGroup(node)) return ` ${['rollcall', ...words, node.usage].filter(Boolean).join(' ')}`;
  const lines = walk(node, words).flatMap(({ words: w, node: n }) => (isGroup(n) ? [] : [usageLine(w, n)]));
  return `\n${lines.join('\n')}`;
}

/** The help of a command or group: what it is, its usage, and the notes of it, its ancestors and what is under it. */
function helpOf(path: { words: string[]; node: Node }[]): string {
  const { words, node } = path[path.length - 1];
  const notes = [...path.slice(0, -1).map((p) => p.node.notes), ...walk(node, words).map((p) => p.node.notes)];
  const unique = [...new Set(notes.filter((n): n is string => Boolean(n)))];
  return [`${['rollcall', ...words].join(' ')}: ${node.summary}`, `Usage:${usageOf(node, words)}`, ...unique].join('\n\n');
}

/**
 * The options and arguments of one command, checked here rather than by parseArgs's strict mode, whose errors
 * are stack traces and sentences about dashes: an unknown option, an option without its value, a value given to
 * a switch, or an argument too many is a UsageError naming it.
 */
function parse(command: Command, args: string[], usage: string): Parsed | 'help' {
  const options = { ...HELP, ...command.options };
  const { values, positionals, tokens } = parseArgs({ args, options, allowPositionals: true, strict: false, tokens: true });
  if (values.help === true) return 'help';
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const option = options[token.name];
    if (!option) throw new UsageError(`unknown option ${token.rawName}`, usage);
    if (option.type === 'boolean' && token.inlineValue) throw new UsageError(`${token.rawName} takes no value`, usage);
    if (option.type === 'string' && token.value === undefined) throw new UsageError(`${token.rawName} needs a value`, usage);
    if (option.type === 'string' && !token.inlineValue && token.value!.startsWith('-')) {
      throw new UsageError(`${token.rawName} needs a value, not "${token.value}" (write ${token.rawName}=${token.value} if that is the value)`, usage);
    }
  }
  const allowed = command.positionals ?? 0;
  if (positionals.length > allowed) throw new UsageError(`unexpected argument "${positionals[allowed]}"`, usage);
  return { values: values as Values, positionals };
}

/**
 * Runs the command `argv` names in `root`; resolves to the exit code. `--help` or `-h` anywhere prints the help of
 * the command or group named so far (`rollcall help admin backup` too); a usage error is printed on stderr and
 * exits 2. What a command itself throws is the caller's to report.
 */
export async function runCommandLine(root: Group, argv: string[], out: Output): Promise<number> {
  const words = argv[0] === 'help' ? argv.slice(1) : argv;
  const path: { words: string[]; node: Node }[] = [{ words: [], node: root }];
  let node: Node = root;
  let i = 0;
  for (; isGroup(node) && i < words.length && !words[i].startsWith('-'); i++) {
    const next: Node | undefined = Object.hasOwn(node.commands, words[i]) ? node.commands[words[i]] : undefined;
    const named = ['rollcall', ...words.slice(0, i + 1)].join(' ');
    if (!next) return usageError(out, new UsageError(`unknown command "${named}"`, usageOf(node, words.slice(0, i))));
    node = next;
    path.push({ words: words.slice(0, i + 1), node });
  }
  const here = words.slice(0, i);
  const rest = words.slice(i);
  const usage = usageOf(node, here);
  if (argv[0] === 'help' || (root === node && rest.length === 0)) {
    out.stdout(`${helpOf(path)}\n`);
    return 0;
  }
  if (isGroup(node)) {
    const asked = rest.some((arg) => arg === '--help' || arg === '-h');
    if (asked) {
      out.stdout(`${helpOf(path)}\n`);
      return 0;
    }
    const problem = rest.length === 0 ? `${['rollcall', ...here].join(' ')} needs a command` : `unknown option ${rest[0].split('=')[0]}`;
    return usageError(out, new UsageError(problem, usage));
  }
  let parsed: Parsed | 'help';
  try {
    parsed = parse(node, rest, usage);
  } catch (err) {
    if (err instanceof UsageError) return usageError(out, err);
    throw err;
  }
  if (parsed === 'help') {
    out.stdout(`${helpOf(path)}\n`);
    return 0;
  }
  return (await node.run(parsed)) ?? 0;
}

function usageError(out: Output, err: UsageError): number {
  out.stderr(`rollcall: ${err.message}\nUsage:${err.usage}\n`);
  return 2;
}

/** A command's result for a person (`key  value` lines) or, with --json, as one line of JSON. */
export function formatResult(result: unknown, json: boolean): string {
  if (json) return `${JSON.stringify(result)}\n`;
  const entries = Object.entries(result as Record<string, unknown>);
  const width = Math.max(...entries.map(([key]) => key.length)) + 1;
  return entries.map(([key, value]) => `${key.padEnd(width)} ${typeof value === 'object' ? JSON.stringify(value) : String(value)}\n`).join('');
}
