import { PassThrough, Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Terminal } from './terminal.ts';

/** A stand-in for stdout or stderr: a terminal (or not) that keeps what is written. */
function stream(isTTY: boolean) {
  const written: string[] = [];
  const writable = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk.toString());
      callback();
    },
  });
  Object.assign(writable, { isTTY, columns: 80, getColorDepth: () => 8, hasColors: () => true });
  return { written, stream: writable as unknown as NodeJS.WriteStream };
}

/** A stand-in for stdin: a terminal (raw mode recorded) or a pipe, into which a test types. */
function keyboard(isTTY: boolean) {
  const modes: boolean[] = [];
  const input = new PassThrough();
  Object.assign(input, { isTTY, isRaw: false, setRawMode: (raw: boolean) => (modes.push(raw), Object.assign(input, { isRaw: raw })) });
  return { modes, input: input as unknown as NodeJS.ReadStream, type: (keys: string) => input.write(keys) };
}

describe('the client\'s terminal output', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.useRealTimers();
  });

  it('colours text and spins on a terminal', async () => {
    vi.stubEnv('NO_COLOR', undefined);
    vi.stubEnv('FORCE_COLOR', undefined);
    vi.useFakeTimers();
    const [out, err] = [stream(true), stream(true)];
    const terminal = new Terminal(out.stream, err.stream);
    expect(terminal.style('bold', 'Ana')).toBe('\u001b[1mAna\u001b[22m');
    let finish: (value: number) => void = () => {};
    const spinning = terminal.spin('Signing in', () => new Promise<number>((resolve) => (finish = resolve)));
    vi.advanceTimersByTime(250);
    finish(7);
    expect(await spinning).toBe(7);
    const frames = err.written.filter((w) => w.includes('Signing in'));
    expect(frames.length).toBeGreaterThanOrEqual(3);
    expect(frames[0]).toMatch(/^\r\u001b\[36m⠋\u001b\[39m Signing in$/);
    expect(err.written.at(-1)).toBe('\r\u001b[2K'); // the line is cleared when the work is done
  });

  it('writes plain text when piped, or with NO_COLOR', async () => {
    vi.stubEnv('NO_COLOR', undefined);
    vi.stubEnv('FORCE_COLOR', undefined);
    const [out, err] = [stream(false), stream(false)];
    const piped = new Terminal(out.stream, err.stream);
    expect(piped.style('bold', 'Ana')).toBe('Ana');
    expect(await piped.spin('Signing in', async () => 1)).toBe(1);
    expect(err.written).toEqual([]);
    piped.error('no session');
    expect(err.written).toEqual(['rollcall: no session\n']);

    vi.stubEnv('NO_COLOR', '1');
    const [tty, ttyErr] = [stream(true), stream(true)];
    const plain = new Terminal(tty.stream, ttyErr.stream);
    expect(plain.style('bold', 'Ana')).toBe('Ana');
    await plain.spin('Signing in', async () => 1);
    expect(ttyErr.written).toEqual([]);
  });

  it('shows a secret as one dot per character on a terminal, never the characters, and erases with Backspace and Ctrl-U', async () => {
    const [out, err] = [stream(true), stream(true)];
    const keys = keyboard(true);
    const terminal = new Terminal(out.stream, err.stream, keys.input);
    const asked = terminal.askSecret('Code from the e-mail: ');
    keys.type('48x');
    keys.type('\u007f'); // Backspace
    keys.type('\u001b[D'); // an arrow key types nothing
    keys.type('2913\r');
    expect(await asked).toBe('482913');
    expect(err.written.join('')).toBe('Code from the e-mail: •••\b \b••••\n');
    expect(out.written).toEqual([]);
    expect(keys.modes).toEqual([true, false]); // the terminal is given back as it was

    // Pasted at once, after a line erased with Ctrl-U.
    err.written.length = 0;
    const pasted = terminal.askSecret('Code from the e-mail (4 tries left): ');
    keys.type('999\u0015482913\r');
    expect(await pasted).toBe('482913');
    expect(err.written.join('')).toBe('Code from the e-mail (4 tries left): •••\b \b\b \b\b \b••••••\n');
    terminal.close();
  });

  it('keeps a secret out of the next question, and ends on Ctrl-D', async () => {
    const err = stream(true);
    const keys = keyboard(true);
    const terminal = new Terminal(stream(true).stream, err.stream, keys.input);
    const email = terminal.ask('E-mail: ');
    keys.type('ana@example.com\n');
    expect(await email).toBe('ana@example.com');
    const code = terminal.askSecret('Code from the e-mail: ');
    keys.type('482913\r');
    expect(await code).toBe('482913');
    // The next question reads the next line typed, not the code.
    const which = terminal.ask('Which one? [1-2] ');
    keys.type('2\n');
    expect(await which).toBe('2');
    const nothing = terminal.askSecret('Code from the e-mail: ');
    keys.type('\u0004');
    expect(await nothing).toBeNull();
    expect(err.written.join('')).not.toContain('482913');
    terminal.close();
  });

  it('reads a secret from a pipe as a line, echoing nothing', async () => {
    const err = stream(false);
    const keys = keyboard(false);
    const terminal = new Terminal(stream(false).stream, err.stream, keys.input);
    const code = terminal.askSecret('Code from the e-mail: ');
    keys.type('482913\n');
    expect(await code).toBe('482913');
    expect(err.written).toEqual(['Code from the e-mail: ']);
    expect(keys.modes).toEqual([]);
    terminal.close();
  });
});
