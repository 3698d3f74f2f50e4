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
  readonly #in: NodeJS.ReadStream;
  #lines: AsyncIterator<string> | null = null;
  #reader: readline.Interface | null = null;

  constructor(out: NodeJS.WriteStream = process.stdout, err: NodeJS.WriteStream = process.stderr, input: NodeJS.ReadStream = process.stdin) {
    this.#out = out;
    this.#err = err;
    this.#in = input;
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
      this.#reader = readline.createInterface({ input: this.#in, terminal: false });
      this.#lines = this.#reader[Symbol.asyncIterator]();
    }
    const { value, done } = await this.#lines.next();
    if (done) return null;
    return String(value).trim();
  }

  /**
   * Asks for a secret (a sign-in code): on a terminal, what is typed shows as one dot per character, so it is not
   * left on the screen or in a screen share; Backspace and Ctrl-U erase, Enter ends, Ctrl-D at the start is the end
   * of the input (null), Ctrl-C interrupts as it would anywhere. From a pipe, a line as `ask` reads it.
   */
  async askSecret(question: string): Promise<string | null> {
    if (!this.#in.isTTY) return this.ask(question);
    // The line reader would read the keys too, and keep the code as a line for the next question.
    this.close();
    this.#reader = null;
    this.#lines = null;
    this.#err.write(question);
    const input = this.#in;
    return new Promise((resolve) => {
      let typed: string[] = [];
      const finish = (value: string | null) => {
        input.off('data', onKeys);
        input.setRawMode(false);
        input.pause();
        this.#err.write('\n');
        resolve(value === null ? null : value.trim());
      };
      const erase = (count: number) => this.#err.write('\b \b'.repeat(count));
      const onKeys = (chunk: Buffer | string) => {
        const keys = chunk.toString();
        if (keys.startsWith('\u001b')) return; // an arrow or function key: nothing to type
        for (const key of keys) {
          if (key === '\r' || key === '\n') return finish(typed.join(''));
          if (key === '\u0003') {
            finish(null);
            process.kill(process.pid, 'SIGINT');
            return;
          }
          if (key === '\u0004') {
            if (typed.length === 0) return finish(null);
          } else if (key === '\u007f' || key === '\b') {
            if (typed.length) erase(1);
            typed = typed.slice(0, -1);
          } else if (key === '\u0015') {
            erase(typed.length);
            typed = [];
          } else if (key >= ' ') {
            typed.push(key);
            this.#err.write('•');
          }
        }
      };
      input.setRawMode(true);
      input.on('data', onKeys);
      input.resume();
    });
  }

  close(): void {
    this.#reader?.close();
  }
}
