import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Node reads a socket (and a file) into a fresh 64 KiB buffer each time. Streamed through, each is garbage at once,
 * but young garbage whose JS wrapper is tiny: V8 frees its memory on a scavenge, and a stream of them hardly
 * triggers one (measured: a 25 MiB upload raised the server's resident memory by 25 MiB, until a later
 * collection). A minor collection every few MiB streamed returns the memory as it goes (+3 MiB for the same
 * upload) for a fraction of a millisecond each. `gc` is exposed on first use, for this alone.
 */
const EVERY_BYTES = 4 * 1024 * 1024;
let collect: ((options: { type: 'minor' }) => void) | null | undefined;
let streamed = 0;

export function streamedBytes(count: number): void {
  streamed += count;
  if (streamed < EVERY_BYTES) return;
  streamed = 0;
  if (collect === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc');
      collect = vm.runInNewContext('gc') as typeof collect;
    } catch {
      collect = null;
    }
  }
  collect?.({ type: 'minor' });
}
