import readline from 'node:readline';
import { styleText } from 'node:util';

type Style = Parameters<typeof styleText>[0];

/** https://no-color.org: any non-empty NO_COLOR turns colours (and the spinner) off. */
const noColor = () => Boolean(process.env.NO_COLOR);

/**
 * The terminal side of the client: colours and a spinner when the output is a terminal (and NO_COLOR is not
 * set), plain text when it is piped; prompts read lines from stdin either way, so scripts can pipe answers in.
 * Results go to stdout, everything else (prompts, progress, errors) to stderr.
 */
export class Terminal {
  readonly #out: NodeJS.WriteStream;
  readonly #err: NodeJS.WriteStream;
  #lines: AsyncIterator<string> | null = null;
  #reader: readline.Interface | null = null;

  constructor(out: NodeJS.WriteStream = process.stdout, err: NodeJS.WriteStream = process.stderr) {
    this.#out = out;
    this.#err = err;
  }

  /** `text` styled for stdout (plain when stdout is not a terminal or NO_COLOR is set). */
  style(format: Style, text: string): string {
    return noColor() ? text : styleText(format, text, { stream: this.#out, validateStream: true });
  }

  #styleErr(format: Style, text: string): string {
    return noColor() ? text : styleText(format, text, { stream: this.#err, validateStream: true });
  }

  print(text = ''): void {
    this.#out.write(`${text}\n`);
  }

  json(value: unknown): void {
    this.#out.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  note(text: string): void {
    this.#err.write(`${text}\n`);
  }

  error(text: string): void {
    this.#err.write(`${this.#styleErr('red', 'rollcall:')} ${text}\n`);
  }

  /** Runs `work` with a spinner on stderr when it is a terminal. */
  async spin<T>(label: string, work: () => Promise<T>): Promise<T> {
    if (!this.#err.isTTY || noColor()) return work();
    const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
    let i = 0;
    const draw = () => this.#err.write(`\r${this.#styleErr('cyan', frames[i++ % frames.length])} ${label}`);
    draw();
    const timer = setInterval(draw, 80);
    try {
      return await work();
    } finally {
      clearInterval(timer);
      this.#err.write('\r\u001b[2K');
    }
  }

  /** Asks on stderr and reads one line from stdin (a terminal or a pipe); null at the end of the input. */
  async ask(question: string): Promise<string | null> {
    this.#err.write(question);
    if (!this.#lines) {
      this.#reader = readline.createInterface({ input: process.stdin, terminal: false });
      this.#lines = this.#reader[Symbol.asyncIterator]();
    }
    const { value, done } = await this.#lines.next();
    if (done) return null;
    return String(value).trim();
  }

  close(): void {
    this.#reader?.close();
  }
}
