import { Writable } from 'node:stream';
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
});
